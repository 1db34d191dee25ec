import Foundation

extension Service {
    /// Applies `configurer` to every resource of this service.
    ///
    /// Later calls override earlier ones where they set the same option; options they do not set keep their
    /// values. Configuration is computed lazily, the first time a resource needs it.
    ///
    /// ```swift
    /// service.configure { $0.expirationTime = 60 }
    /// ```
    ///
    /// - Parameters:
    ///   - requestMethods: The methods this applies to; all of them by default.
    ///   - description: A label for logs.
    ///   - configurer: Changes the configuration.
    public func configure(
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil,
        _ configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        addConfiguration(
            matching: { _ in true }, requestMethods: requestMethods, description: description ?? "all resources",
            configurer)
    }

    /// Applies `configurer` to the resources whose URL satisfies `predicate`.
    public func configure(
        whenURLMatches predicate: @escaping (URL) -> Bool,
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil,
        _ configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        addConfiguration(
            matching: predicate, requestMethods: requestMethods, description: description ?? "URL predicate",
            configurer)
    }

    /// Applies `configurer` to one resource only.
    public func configure(
        _ resource: Resource,
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil,
        _ configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        let target = resource.url
        addConfiguration(
            matching: { $0 == target }, requestMethods: requestMethods,
            description: description ?? target.absoluteString, configurer)
    }

    /// Makes every resource recompute its configuration the next time it needs it. Call this when something a
    /// configuration closure reads has changed (a new auth token, say).
    public func invalidateConfiguration() {
        configurationChanged()
    }

    func addConfiguration(
        matching: @escaping (URL) -> Bool,
        requestMethods: [RequestMethod]?,
        description: String,
        _ configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        configurationEntries.append(
            ConfigurationEntry(
                description: description,
                requestMethods: Set(requestMethods ?? RequestMethod.allCases),
                matches: matching,
                configurer: configurer))
        configurationChanged()
    }

    /// The configuration for `url` and `method`, built from every matching entry in order.
    func buildConfiguration(for url: URL, method: RequestMethod) -> Configuration {
        var configuration = Configuration()
        for entry in configurationEntries where entry.requestMethods.contains(method) && entry.matches(url) {
            entry.configurer(&configuration)
        }
        return configuration
    }
}
