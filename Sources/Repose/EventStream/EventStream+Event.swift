extension EventStream {
    /// One event a server sent on an ``EventStream``.
    ///
    /// ```
    /// event: star
    /// id: 42
    /// data: {"url": "/repos/7"}
    /// ```
    ///
    /// arrives as an event of type `"star"`, id `"42"` and data `{"url": "/repos/7"}`. Several `data` lines make one
    /// data string, joined by line feeds.
    public struct Event: Sendable, Equatable, CustomStringConvertible {
        /// The event's type: its `event` field, or `"message"` when it has none. ``EventStream/on(_:_:)`` picks
        /// effects by it.
        public var type: String
        /// The event's `data` lines, joined by line feeds.
        public var data: String
        /// The stream's last event ID when the event arrived: its own `id` field, or the latest before it. Empty
        /// when the stream has sent none.
        public var id: String

        /// Creates an event, as a test or an app's own source might.
        public init(type: String = "message", data: String, id: String = "") {
            self.type = type
            self.data = data
            self.id = id
        }

        /// The event as a short line for logs and tests: `star #42: {"url": "/repos/7"}`.
        public var description: String {
            "\(type)\(id.isEmpty ? "" : " #\(id)"): \(data)"
        }
    }
}
