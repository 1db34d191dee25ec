import Foundation

/// A streamed resource's load (rule U3): a ``StreamedRequest`` whose body its ``StreamedContent`` reduces, off the
/// main actor, into the resource's content as it arrives. Each content so far reaches the resource as partial data;
/// the load completes with the last one, or with the reading's error (the partial data stays).
@MainActor
final class StreamedLoad: RequestDelegate {
    private let resource: Resource
    private let content: StreamedContent
    private var streamed: StreamedRequest?
    private var reading: Task<Void, Never>?

    init(resource: Resource, content: StreamedContent) {
        self.resource = resource
        self.content = content
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        let streamed = resource.streamRequest()
        let growth = Growth(resource: resource, stream: streamed.stream, now: resource.core.now)
        let (read, start) = (content.read, content.current(resource))
        self.streamed = streamed
        reading = Task.detached {
            let outcome: Result<any Sendable, any Error>
            do {
                outcome = .success(try await read(streamed, start) { growth.offer($0) })
            } catch {
                outcome = .failure(error)
            }
            growth.finish(with: outcome, passingResponseTo: completionHandler)
        }
    }

    func cancelUnderlyingOperation() {
        streamed?.cancel()
        reading?.cancel()
    }

    func repeated() -> any RequestDelegate {
        StreamedLoad(resource: resource, content: content)
    }

    var requestDescription: String {
        "GET \(ReposeLog.describe(url: resource.url)) (streamed load)"
    }
}

/// The content so far on its way to the resource: the reading task offers each one; the main actor takes the
/// latest, so a fast body makes fewer main-actor turns, each with all that arrived by then.
///
/// Safe (`@unchecked Sendable`): `latest` and `isClosed` are touched only while `lock` is held.
private final class Growth: @unchecked Sendable {
    private weak var resource: Resource?
    private let stream: ChunkStream
    private let now: @Sendable () -> TimeInterval
    private let lock = NSLock()
    private var latest: (any Sendable)?
    private var isClosed = false

    init(resource: Resource, stream: ChunkStream, now: @escaping @Sendable () -> TimeInterval) {
        self.resource = resource
        self.stream = stream
        self.now = now
    }

    /// The reading has new content: one main-actor turn takes it, with any that follows before that turn.
    func offer(_ content: any Sendable) {
        let isFirst = lock.withLock { () -> Bool in
            defer { latest = content }
            return latest == nil && !isClosed
        }
        guard isFirst else { return }
        MainRoute.send { [self] in
            guard
                let content = lock.withLock({ () -> (any Sendable)? in
                    defer { latest = nil }
                    return isClosed ? nil : latest
                })
            else { return }
            resource?.apply(.grew(entity(with: content)))
        }
    }

    /// The reading ended: the load completes with the last content or the reading's error, after the growth sent
    /// before (the main queue keeps their order); content offered but not taken by then is dropped.
    func finish(with outcome: Result<any Sendable, any Error>, passingResponseTo handler: RequestCompletionHandler) {
        MainRoute.send { [self] in
            lock.withLock { isClosed = true }
            let response = outcome.map(entity(with:)).mapError {
                RequestError(wrapping: $0, fallbackMessage: RequestError.cannotParseResponseMessage, timestamp: now())
            }
            handler.broadcastResponse(ResponseInfo(response: response))
        }
    }

    /// `content` as the resource's data, with the response's headers.
    @MainActor
    func entity(with content: any Sendable) -> Entity<Any> {
        let time = now()
        guard let head = stream.head else {
            return Entity(content: content, contentType: MediaType.defaultContentType, timestamp: time)
        }
        return Entity(response: head, content: content, timestamp: time)
    }
}
