import Foundation

/// A server's event stream (server-sent events) that keeps resources current: each event the server sends can
/// invalidate, reload or replace the resources it concerns, and their observers hear the change like any other.
///
/// ```swift
/// let live = api.eventStream("/events")
///     .on("star", .invalidate())            // {"url": "/repos/7"}: that repository reloads if observed
///     .on("repo", .replaceContent())        // the event's JSON is the repository's new content
/// live.connection.observe(owner: self) { [weak self] state in self?.status.text = "\(state)" }
/// ```
///
/// **It runs while observed.** Observing ``connection`` or ``events`` (with an owner, as every subscription)
/// connects; when the last observation ends, or its owner is gone, the stream closes. Keep the stream itself for as
/// long as you use it: dropping it closes it, and so does dropping its service.
///
/// **It reads the stream as browsers do** (the WHATWG HTML specification's event-stream format): `data`, `event`,
/// `id` and `retry` fields, comments, any line ends. When the connection ends, it reconnects after the server's
/// `retry` interval (3 seconds unless the server or ``Service/eventStream(_:retry:)`` says otherwise, half a second
/// at least), sending the last event ID as `Last-Event-ID`; while attempts keep failing, or streams keep ending
/// within a second of opening, it waits twice as long each time, up to a minute.
/// A 204, a status that is not 2xx, 408, 429 or 5xx, or a content type other than `text/event-stream` ends it for
/// good (``Connection/failed(_:)``). When the service's ``Service/Options/reconnected`` signal fires, a stream
/// waiting to reconnect reconnects at once.
///
/// **It is a request like any other**: a `GET` of its URL, with the configuration of that URL's resource (headers,
/// mutators, decorators); a 401 starts the ``Configuration/authenticator``'s one refresh, then the stream connects
/// again with the new credential.
@MainActor
public final class EventStream {
    /// The stream's URL.
    public var url: URL { runner.resource.url }

    /// Where the connection stands: observe it to run the stream and show its state.
    public let connection: State<Connection>

    /// Every event the stream receives, in order, before its effects run. Observe it to run the stream and act on
    /// events yourself.
    public let events: Signal<Event>

    /// The ID of the latest event that had one, sent as `Last-Event-ID` when the stream reconnects; empty until the
    /// server sends one. It is kept when the stream closes, so that observing it again resumes where it was.
    public var lastEventID: String { runner.lastEventID }

    let runner: EventStreamRunner
    /// How many of the two signals have observers; the stream runs while one does.
    private var observedSignals = 0

    init(resource: Resource, retry: Duration) {
        let runner = EventStreamRunner(resource: resource, retry: retry)
        self.runner = runner
        var counter: (@MainActor (Int) -> Void)?
        let changes = Signal<Connection> { send in
            counter?(1)
            runner.onConnection = send
            return {
                runner.onConnection = nil
                counter?(-1)
            }
        }
        connection = State(read: { runner.connection }, changes: changes)
        events = Signal<Event> { send in
            counter?(1)
            runner.onEvent = send
            return {
                runner.onEvent = nil
                counter?(-1)
            }
        }
        counter = { [weak self] change in self?.signalObservationChanged(by: change) }
        runner.sweepObservers = { [weak self] in
            self?.connection.signal.endObserversWithDeadOwners()
            self?.events.endObserversWithDeadOwners()
        }
    }

    isolated deinit {
        runner.stop()
    }

    private func signalObservationChanged(by change: Int) {
        observedSignals += change
        if observedSignals > 0 {
            runner.start()
        } else {
            runner.stop()
        }
    }

    /// Adds what events of `type` do to resources. Several effects for one type run in the order they were added.
    ///
    /// ```swift
    /// live.on("star", .invalidate())
    /// ```
    ///
    /// - Parameters:
    ///   - type: The event type: the `event` field, or `"message"` for events without one.
    ///   - effect: What the event does: ``Effect/invalidate(_:)``, ``Effect/reload(_:)`` or
    ///     ``Effect/replaceContent(contentType:_:)``.
    /// - Returns: The stream, so that calls chain.
    @discardableResult
    public func on(_ type: String, _ effect: Effect) -> EventStream {
        runner.effects[type, default: []].append(effect)
        return self
    }
}

extension Service {
    /// The event stream (server-sent events) at `path` under ``baseURL``, resolved as ``resource(_:)`` resolves it.
    ///
    /// One stream per URL while in use, as one resource per URL: as long as the app holds the stream, every call
    /// for its URL returns it, so two screens that observe the same feed share one connection, which closes when
    /// the last of their observations ends (see ``EventStream``). The effects added with ``EventStream/on(_:_:)``
    /// belong to the stream and add up: add them once, where the stream is made. Once nothing holds the stream, the
    /// next call makes a new one.
    ///
    /// - Parameters:
    ///   - path: The stream's path.
    ///   - retry: The wait before reconnecting until the server sets its own with a `retry` field; half a second
    ///     at least, whichever sets it. The call that makes the stream decides it.
    /// - Returns: The stream, which connects once something observes it.
    public func eventStream(_ path: String, retry: Duration = .seconds(3)) -> EventStream {
        let resource = resource(path)
        return core.eventStreams.stream(for: resource) { EventStream(resource: resource, retry: retry) }
    }
}
