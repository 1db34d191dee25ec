extension EventStream {
    /// Where an ``EventStream``'s connection stands: ``EventStream/connection``.
    ///
    /// More states may be added as Repose grows, so a `switch` over one should end with a `default:` branch.
    public enum Connection: Sendable, CustomStringConvertible {
        /// Nothing observes the stream, or the server ended it for good: it answered 204 No Content.
        case closed
        /// A request for the stream is on its way, or the stream waits to reconnect after it ended.
        case connecting
        /// The server accepted the stream: events arrive as it sends them.
        case open
        /// The stream failed with this error. Unless the server refused the stream for good (a status other than
        /// 2xx, 408, 429 or 5xx, or a content type other than `text/event-stream`), it reconnects after a wait that
        /// grows while failures repeat, or at once when the service's ``Service/Options/reconnected`` signal fires.
        case failed(RequestError)

        /// Whether events arrive now.
        public var isOpen: Bool {
            if case .open = self { true } else { false }
        }

        /// The error of a failed stream; `nil` in every other state.
        public var error: RequestError? {
            if case .failed(let error) = self { error } else { nil }
        }

        /// The state as a word for logs and tests: `closed`, `connecting`, `open`, or `failed: <user message>`.
        public var description: String {
            switch self {
            case .closed: "closed"
            case .connecting: "connecting"
            case .open: "open"
            case .failed(let error): "failed: \(error.userMessage)"
            }
        }
    }
}
