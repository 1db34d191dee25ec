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
    public struct Options: Sendable {
        /// Which built-in parsers to install; text and JSON by default.
        public var standardTransformers: [StandardTransformer]
        /// What sends requests; a `URLSessionProvider` by default.
        public var networking: any NetworkingProvider
        /// The service's one clock: it stamps data and errors, decides staleness and runs delayed work on the main
        /// actor. Tests pass a `TestScheduler`, starting at the time they want, and advance it.
        public var scheduler: any Scheduler & Sendable

        /// Options with the given parts, and the defaults for the rest.
        public init(
            standardTransformers: [StandardTransformer] = StandardTransformer.defaults,
            networking: any NetworkingProvider = URLSessionProvider(),
            scheduler: any Scheduler & Sendable = MainScheduler()
        ) {
            self.standardTransformers = standardTransformers
            self.networking = networking
            self.scheduler = scheduler
        }
    }
}
