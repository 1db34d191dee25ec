import Foundation

extension EventStream {
    /// What an event does to resources: the second argument of ``EventStream/on(_:_:)`` (rule V3).
    ///
    /// Each effect acts on resources it picks from the event. Without a closure, it picks the resource the event
    /// names: the event's data is either a URL or path (`/repos/7`, `https://api.example.com/repos/7`), or a JSON
    /// object with a `"url"` member naming one (`{"url": "/repos/7", "stars": 12}`). A path is resolved as
    /// ``Service/resource(_:)`` resolves it. That resource is acted on only if the service holds it already: one
    /// that nobody has asked for loads fresh data whenever it is first used.
    ///
    /// ```swift
    /// stream.on("repo.changed", .invalidate())                      // the repository the event names
    /// stream.on("repo.updated", .replaceContent())                  // the event's JSON is the repository
    /// stream.on("stars.reset", .reload { _ in [api.resource("/stars")] })
    /// ```
    public struct Effect {
        enum Action {
            case invalidate, reload
            case replaceContent(contentType: String)
        }

        let action: Action
        /// Picks the resources from an event; `nil` for the resource the event names.
        let resources: (@MainActor (Event) -> [Resource])?

        /// Marks the resources stale: observed ones reload at once, the others on their next
        /// ``Resource/loadIfNeeded()``, as after ``Service/invalidateResources(matching:)``. Their
        /// observers hear the reload as a load.
        ///
        /// - Parameter resources: Picks the resources; by default, the one the event names.
        public static func invalidate(_ resources: (@MainActor (Event) -> [Resource])? = nil) -> Effect {
            Effect(action: .invalidate, resources: resources)
        }

        /// Loads the resources now, observed or not, with ``Resource/load()``. A resource with a load already in
        /// flight loads once more after it, however many reload events come meanwhile: a flood of events costs two
        /// loads, not one each.
        ///
        /// - Parameter resources: Picks the resources; by default, the one the event names.
        public static func reload(_ resources: (@MainActor (Event) -> [Resource])? = nil) -> Effect {
            Effect(action: .reload, resources: resources)
        }

        /// Replaces the resources' data with the event's data, parsed by each resource's pipeline as a response
        /// body of `contentType` would be: JSON becomes a dictionary or array, a configured model transformer
        /// makes its model. The data counts as fresh from the server: it clears ``Resource/latestError`` and any
        /// invalidation, and its observers hear ``ResourceEvent/newData(_:)`` with `.eventStream`. Data the
        /// pipeline cannot parse changes nothing (a log line under the `network` category says why). Persistent
        /// caches do not store it: a relaunch loads the resource again.
        ///
        /// - Parameters:
        ///   - contentType: The content type the event's data is parsed as; JSON by default.
        ///   - resources: Picks the resources; by default, the one the event names.
        public static func replaceContent(
            contentType: String = "application/json", _ resources: (@MainActor (Event) -> [Resource])? = nil
        ) -> Effect {
            Effect(action: .replaceContent(contentType: contentType), resources: resources)
        }

        /// Whether the effect replaces content, which parses the event's data.
        var replacesContent: Bool {
            if case .replaceContent = action { true } else { false }
        }
    }
}

extension Resource {
    /// The parse that turns `event`'s data into content, as a response body of `contentType` would be, by this
    /// resource's pipeline; run off the main actor (see ``EventStream/Effect/replaceContent(contentType:_:)``).
    func eventContentParse(
        of event: EventStream.Event, contentType: String
    ) -> (processor: ResponseProcessor, body: NetworkResponse) {
        let processor = ResponseProcessor(pipeline: configuration.pipeline, now: core.now)
        return (
            processor,
            NetworkResponse(statusCode: 200, headers: ["Content-Type": contentType], body: Data(event.data.utf8))
        )
    }

    /// Replaces the data with what the pipeline made of `event`'s data; data it could not parse changes nothing.
    func replaceContent(with outcome: ResponseProcessor.Outcome, of event: EventStream.Event) {
        guard case .response(let response) = outcome else { return }
        switch response {
        case .success(let entity):
            apply(.streamed(entity))
        case .failure(let error):
            ReposeLog.log(
                .network, "Event \(event.type) left \(ReposeLog.describe(url: url)) as it was: \(error.userMessage)")
        }
    }
}

extension ServiceCore {
    /// The resource `name` (a URL, or a path under the base URL) stands for, if the service holds it.
    func resource(named name: String) -> Resource? {
        guard let url = urlNamed(name) else { return nil }
        return resourceTable.resource(forKey: ResourceKey(url.absoluteString))
    }

    /// `name` as an absolute URL: itself if it has a scheme, else a path under the base URL.
    private func urlNamed(_ name: String) -> URL? {
        if name.contains("://") { return URLBuilding.absoluteURL(name) }
        guard let baseURL else { return nil }
        return URLBuilding.resourceURL(base: baseURL, path: name)
    }
}

extension EventStream.Event {
    /// The resource name in an event's data: the data itself when it is one word (a URL or a path), or the `"url"`
    /// member of the JSON object it holds. Parses JSON, so it runs off the main actor.
    nonisolated static func resourceName(in data: String) -> String? {
        let text = data.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8))
            return (object as? [String: Any])?["url"] as? String
        }
        return text.isEmpty || text.contains(where: \.isWhitespace) ? nil : text
    }
}
