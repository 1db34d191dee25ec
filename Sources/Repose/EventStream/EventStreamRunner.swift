import Foundation

/// Keeps an ``EventStream`` connected while it runs: one attempt at a time, reconnection after the `retry` interval
/// with the last event ID, a growing wait while attempts keep failing, and an end for good when the server refuses
/// the stream (rules V2, V4).
///
/// Every wait runs on the service's timers, so a test drives reconnection with virtual time. The runner holds
/// its resource (and so the service's core); nothing holds the runner but its ``EventStream`` and, while they run,
/// its attempt's callbacks (weakly) and its wait.
@MainActor
final class EventStreamRunner {
    let resource: Resource
    /// The effects by event type, in the order the app added them.
    var effects: [String: [EventStream.Effect]] = [:]
    /// Hears every change of ``connection`` and every event, while the stream is observed.
    var onConnection: ((EventStream.Connection) -> Void)?
    var onEvent: ((EventStream.Event) -> Void)?
    /// Called after each batch of events, each ended attempt and before each reconnection: lets the stream notice
    /// observers whose owners are gone, and stop when none is left.
    var sweepObservers: (() -> Void)?

    private(set) var connection = EventStream.Connection.closed {
        didSet { onConnection?(connection) }
    }
    /// Sent as `Last-Event-ID` by the next attempt. Kept when the stream stops, so that it resumes where it was.
    private(set) var lastEventID = ""
    /// The wait before reconnecting after a stream that was open ends: the server's `retry`, else the default.
    private(set) var retry: Duration
    /// Attempts in a row that ended without opening the stream; each doubles the wait before the next.
    private(set) var failures = 0
    private var attempt: Request?
    private var attemptOpened = false
    /// When the current attempt's stream opened, on the service's clock.
    private var openedAt: TimeInterval?
    private var wait: TimerToken?
    private var reconnectSubscription: Subscription?
    /// Events received and not yet delivered (see `EventStreamRunner+Delivery.swift`).
    var backlog = EventBacklog()
    /// The loads in flight that a reload event asked to follow with one more (``reload(_:)``).
    private var reloadsAfter: Set<ObjectIdentifier> = []

    /// The longest wait between attempts while they keep failing, unless the server's `retry` is longer.
    static let maximumBackoff = Duration.seconds(60)
    /// The shortest wait before reconnecting, whatever `retry` says: a server that sends `retry: 0` and closes
    /// cannot make the client reconnect in a tight loop.
    static let minimumRetry = Duration.milliseconds(500)
    /// A stream that ends less than this many seconds after it opened ended at once: like a failed attempt, it
    /// makes the next wait longer.
    static let quickEnd: TimeInterval = 1

    init(resource: Resource, retry: Duration) {
        self.resource = resource
        self.retry = max(retry, Self.minimumRetry)
    }

    var core: ServiceCore { resource.core }

    /// Whether the stream runs: connected, connecting, or waiting to reconnect.
    private(set) var isRunning = false

    // MARK: Starting and stopping

    /// Starts the stream: it gained its first observer. Changes ``connection`` without telling anyone: the new
    /// observer reads it once this returns.
    func start() {
        guard !isRunning, !core.eventStreams.isServiceReleased else { return }
        isRunning = true
        failures = 0
        core.eventStreams.add(self)
        reconnectSubscription = core.reconnected?.observe { [weak self] in self?.reconnectNow() }
        let tell = onConnection
        onConnection = nil
        connect()
        onConnection = tell
    }

    /// Stops the stream and everything it runs: its last observer left, the stream or the service was dropped.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        core.eventStreams.remove(self)
        reconnectSubscription = nil
        backlog.reset()
        wait?.cancel()
        wait = nil
        let ending = attempt
        attempt = nil
        ending?.cancel()
        connection = .closed
    }

    // MARK: Attempts

    private func connect() {
        wait = nil
        if let source = resource.invalidURLSource {  // no request could ever reach it: fail for good, send nothing
            connection = .failed(
                RequestError(
                    userMessage: "Cannot send a request to an invalid URL.",
                    cause: RequestError.Cause.InvalidURL(urlSource: source), timestamp: core.now()))
            return
        }
        attemptOpened = false
        if case .connecting = connection {} else { connection = .connecting }  // waiting after an end already says so
        var request = Request(delegate: attemptRequest(), now: core.now)
        for decorator in resource.configuration(for: .get).requestDecorators {
            request = decorator(resource, request)
        }
        attempt = request
        request.onCompletion { [weak self, weak request] info in
            guard let self, let request, self.attempt === request else { return }
            self.attemptEnded(info)
        }
        request.start()
    }

    /// One connection attempt: a GET of the stream's URL with the resource's configuration, as a network request
    /// whose body is read as events; configured decorators (the authenticator's refresh on a 401 among them) wrap
    /// it like any request (rule V5). It completes when the attempt ends: with a failure when the server refused
    /// the stream (an error status, a 204, a content type other than `text/event-stream`) or the transport failed,
    /// with an empty success when an open stream's body ended. Meanwhile its opening and its events come as the
    /// request's news: ``opened()``, ``received(_:)``.
    private func attemptRequest() -> NetworkRequest {
        NetworkRequest(resource: resource, method: .get, destination: .events(self)) { [resource, weak self] in
            let lastEventID = self?.lastEventID ?? ""  // built again by a repeat: the current ID and credential
            return resource.buildURLRequest(.get, body: nil) { request in
                request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                request.setValue("no-store", forHTTPHeaderField: "Cache-Control")
                if !lastEventID.isEmpty {
                    request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
                }
            }
        }
    }

    /// The server accepted the current attempt's stream.
    func opened() {
        guard isRunning else { return }
        attemptOpened = true
        openedAt = core.now()
        connection = .open
    }

    /// Events and settings from the open stream.
    func received(_ batch: EventStreamBatch) {
        guard isRunning else { return }
        lastEventID = batch.lastEventID
        if let milliseconds = batch.retry {
            retry = max(.milliseconds(milliseconds), Self.minimumRetry)
        }
        backlog.append(batch.events)
        if !backlog.isBusy { deliverTurn() }
    }

    /// Loads `resource` for a reload event: now, or once more after the load in flight, which may have left before
    /// the change the event announces. Later events while that one is asked for add nothing.
    func reload(_ resource: Resource) {
        guard let inFlight = resource.loadRequests.last else {
            resource.load()
            return
        }
        guard reloadsAfter.insert(ObjectIdentifier(inFlight)).inserted else { return }
        inFlight.onCompletion { [weak self, weak resource] _ in
            self?.reloadsAfter.remove(ObjectIdentifier(inFlight))
            resource?.load()
        }
    }

    /// The current attempt ended; told after the events it brought were delivered.
    func attemptEnded(_ info: ResponseInfo) {
        if backlog.isBusy, isRunning {
            backlog.pendingEnd = info
            return
        }
        attempt = nil
        guard isRunning, !info.response.isCancellation else { return }
        // An open stream that lasted counts as a success, one that ended at once as one more failure (rule V2).
        let lasted = attemptOpened && core.now() - (openedAt ?? core.now()) >= Self.quickEnd
        if lasted { failures = 0 } else if !(info.response.error.map(Self.isFinal) ?? false) { failures += 1 }
        switch info.response {
        case .success:
            scheduleReconnect(after: lasted ? retry : backoff)
            connection = .connecting
        case .failure(let error):
            if error.httpStatusCode == 204 {
                connection = .closed
            } else if Self.isFinal(error) {
                connection = .failed(error)
            } else {
                scheduleReconnect(after: lasted ? retry : backoff)
                connection = .failed(error)
            }
        }
        sweepObservers?()
    }

    /// Whether a failure ends the stream for good: a status that says the request itself is wrong (rule V2).
    static func isFinal(_ error: RequestError) -> Bool {
        guard let status = error.httpStatusCode else { return false }
        return !(status == 408 || status == 429 || (500..<600).contains(status))
    }

    /// The wait after ``failures`` failed attempts in a row: the retry interval, doubled for each failure after the
    /// first, up to ``maximumBackoff`` (or the retry interval, if that is longer).
    var backoff: Duration {
        let doublings = min(max(failures - 1, 0), 16)
        return min(retry * (1 << doublings), max(retry, Self.maximumBackoff))
    }

    private func scheduleReconnect(after delay: Duration) {
        wait?.cancel()
        wait = core.timers.after(delay) { [weak self] in
            guard let self else { return }
            sweepObservers?()
            if isRunning { connect() }
        }
    }

    /// The service's reconnect signal fired: a stream that waits to reconnect does so now (rule V4).
    private func reconnectNow() {
        guard isRunning, wait != nil else { return }
        wait?.cancel()
        failures = 0
        connect()
    }
}
