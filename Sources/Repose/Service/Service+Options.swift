import Foundation
import ReposeSignals

extension Service {
    /// The parts of a service an app may replace. Each has a default, and parts added later will have one too, so
    /// code that sets only what it needs keeps compiling.
    ///
    /// ```swift
    /// let api = Service(baseURL: "https://api.example.com")                      // every default
    /// let test = Service(
    ///     baseURL: "https://api.example.com",
    ///     options: .init(networking: StubNetworkingProvider(), scheduler: TestScheduler()))
    /// ```
    ///
    /// Options hold signals, which live on the main actor, so they are made there and are not `Sendable`.
    @MainActor
    public struct Options {
        /// Which built-in parsers to install; text and JSON by default.
        public var standardTransformers: [StandardTransformer]
        /// What sends requests; a `URLSessionProvider` by default.
        public var networking: any NetworkingProvider
        /// The service's one clock: it stamps data and errors, decides staleness and runs delayed work on the main
        /// actor. Tests pass a `TestScheduler`, starting at the time they want, and advance it.
        public var scheduler: any Scheduler & Sendable
        /// Sends when the network comes back; then every observed resource with stale data loads. The network path
        /// monitor on Apple platforms (``systemReconnections()``), none on Linux. Give your own signal, or `nil`.
        public var reconnected: Signal<Void>?
        /// Sends when the app becomes active; then every observed resource with stale data loads. The application's
        /// activation on Apple platforms (``systemActivations()``), none on Linux.
        public var becameActive: Signal<Void>?
        /// Where the ``Outbox`` keeps the writes it holds: ``OutboxStore/memory`` (the default) for the launch, or
        /// `.files(in: folder)` from ReposeStorage, so that they are sent, and their changes shown, after a
        /// relaunch. A folder for this service alone, created private to the user on first write.
        public var outbox: OutboxStore
        /// How many requests the service sends at once; ``RequestLimits/unlimited`` by default.
        public var limits: RequestLimits

        /// Options with the given parts, and the defaults for the rest.
        public init(
            standardTransformers: [StandardTransformer] = StandardTransformer.defaults,
            networking: any NetworkingProvider = URLSessionProvider(),
            scheduler: any Scheduler & Sendable = MainScheduler(),
            reconnected: Signal<Void>? = systemReconnections(),
            becameActive: Signal<Void>? = systemActivations(),
            outbox: OutboxStore = .memory,
            limits: RequestLimits = .unlimited
        ) {
            self.standardTransformers = standardTransformers
            self.networking = networking
            self.scheduler = scheduler
            self.reconnected = reconnected
            self.becameActive = becameActive
            self.outbox = outbox
            self.limits = limits
        }
    }
}
