extension ReposeLog {
    /// A set of log categories: what a message is about, and which messages are logged.
    ///
    /// Combine categories like any option set, or start from a preset:
    ///
    /// ```swift
    /// ReposeLog.enabled = .common
    /// ReposeLog.enabled = [.network, .stateChanges]
    /// ReposeLog.enabled.insert(.cache)
    /// ```
    public struct Category: OptionSet, Hashable, Sendable, CustomStringConvertible {
        /// The category bits.
        public let rawValue: UInt32

        /// Creates a set from its bits.
        public init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        /// Each request as it starts (method and URL) and how it ended (status or error).
        public static let network = Category(rawValue: 1 << 0)
        /// Full requests and responses: headers and body sizes. Sensitive header values are redacted.
        public static let networkDetails = Category(rawValue: 1 << 1)
        /// How the transformer pipeline turns responses into content.
        public static let pipeline = Category(rawValue: 1 << 2)
        /// A resource's state after each load: its data, its error, whether it is still loading.
        public static let stateChanges = Category(rawValue: 1 << 3)
        /// Which events observers receive, and how many observers receive them.
        public static let observers = Category(rawValue: 1 << 4)
        /// Why `loadIfNeeded()` did or did not start a load.
        public static let staleness = Category(rawValue: 1 << 5)
        /// Reads from and writes to a persistent entity cache.
        public static let cache = Category(rawValue: 1 << 6)
        /// Which configuration applies to which resource, and when it is recomputed.
        public static let configuration = Category(rawValue: 1 << 7)

        /// Nothing: logging off. The same as `[]`.
        ///
        /// Where a `Category?` is expected, a bare `.none` means `nil`; write `[]` there instead.
        public static let none: Category = []
        /// What is usually enough to follow an app's traffic: requests, state changes and load decisions.
        public static let common: Category = [.network, .stateChanges, .staleness]
        /// Everything except the full request and response details.
        public static let detailed: Category = all.subtracting(.networkDetails)
        /// Every category.
        public static let all: Category = [
            .network, .networkDetails, .pipeline, .stateChanges, .observers, .staleness, .cache, .configuration,
        ]

        /// Each single category with its name, in declaration order.
        static let named: [(category: Category, name: String)] = [
            (.network, "network"), (.networkDetails, "networkDetails"), (.pipeline, "pipeline"),
            (.stateChanges, "stateChanges"), (.observers, "observers"), (.staleness, "staleness"),
            (.cache, "cache"), (.configuration, "configuration"),
        ]

        /// The category's name (`network`) for a single category, or the names in brackets
        /// (`[network, staleness]`) for a set of several or none.
        public var description: String {
            if let single = Self.named.first(where: { $0.category == self }) { return single.name }
            var parts = Self.named.filter { contains($0.category) }.map(\.name)
            let unknown = rawValue & ~Self.all.rawValue
            if unknown != 0 { parts.append("0x" + String(unknown, radix: 16)) }
            return "[" + parts.joined(separator: ", ") + "]"
        }
    }
}
