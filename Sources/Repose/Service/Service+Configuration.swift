import Foundation

extension Service {
    /// Applies `configurer` to every resource of this service.
    ///
    /// Later calls override earlier ones where they set the same option; options they do not set keep their
    /// values. Configuration is computed lazily, the first time a resource needs it, and then cached until
    /// configuration changes: a new `configure` call or ``invalidateConfiguration()``.
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

    /// Applies `configurer` to the resources that match `pattern`: a glob string, a regular expression, or one
    /// resource.
    ///
    /// ```swift
    /// service.configure("/users/*") { $0.expirationTime = 300 }         // one segment under /users
    /// service.configure("**/avatar", requestMethods: [.get]) { $0.expirationTime = 3600 }
    /// service.configure(try NSRegularExpression(pattern: "/v[0-9]+/")) { $0.headers["X-Versioned"] = "1" }
    /// service.configure(service.resource("/login")) { $0.retryTime = 0 }
    /// ```
    ///
    /// The pattern is compiled once, here; matching a resource against it compiles nothing.
    ///
    /// - Parameters:
    ///   - pattern: Which resources this applies to; see ``ConfigurationPatternConvertible`` for the syntax.
    ///   - requestMethods: The methods this applies to; all of them by default.
    ///   - description: A label for logs; the pattern's text by default.
    ///   - configurer: Changes the configuration.
    public func configure(
        _ pattern: any ConfigurationPatternConvertible,
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil,
        _ configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        addConfiguration(
            matching: pattern.configurationPattern(for: self), requestMethods: requestMethods,
            description: description ?? pattern.configurationPatternDescription, configurer)
    }

    /// Applies `configurer` to the resources whose URL satisfies `predicate`.
    ///
    /// ```swift
    /// service.configure(whenURLMatches: { $0.path.hasSuffix(".png") }) { $0.expirationTime = 86_400 }
    /// ```
    ///
    /// - Parameters:
    ///   - predicate: Tests a resource's absolute URL. It runs when configuration is computed, not per request.
    ///   - requestMethods: The methods this applies to; all of them by default.
    ///   - description: A label for logs.
    ///   - configurer: Changes the configuration.
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

    /// Makes every resource recompute its configuration the next time it needs it.
    ///
    /// Configuration closures run once and their result is cached, so a value they read (an auth token, say) is
    /// only picked up after this call:
    ///
    /// ```swift
    /// service.configure { $0.headers["Authorization"] = session.authorizationHeader }
    /// // later, after logging in:
    /// session.authorizationHeader = "Bearer \(token)"
    /// service.invalidateConfiguration()
    /// ```
    public func invalidateConfiguration() {
        ReposeLog.log(.configuration, "invalidated; " + recomputeNotice)
        core.configurationChanged()
    }

    func addConfiguration(
        matching: @escaping (URL) -> Bool,
        requestMethods: [RequestMethod]?,
        description: String,
        _ configurer: @escaping @MainActor (inout Configuration) -> Void
    ) {
        core.configurationEntries.append(
            ConfigurationEntry(
                description: description,
                requestMethods: Set(requestMethods ?? RequestMethod.allCases),
                matches: matching,
                configurer: configurer))
        ReposeLog.log(
            .configuration,
            "added \(ReposeLog.redactingURLs(in: description).debugDescription); " + recomputeNotice)
        core.configurationChanged()
    }
}

extension ServiceCore {
    /// The configuration for `url` and `method`, built from every matching entry in order, or shared with the
    /// resources that matched the same entries since the configuration last changed.
    func buildConfiguration(for url: URL, method: RequestMethod) -> BuiltConfiguration {
        var matching: [Int] = []
        for (index, entry) in configurationEntries.enumerated()
        where entry.requestMethods.contains(method) && entry.matches(url) {
            matching.append(index)
        }
        let key = SharedConfigurationKey(method: method, entries: matching)
        if let shared = sharedConfigurations[key] {
            ReposeLog.log(.configuration, configurationLogLine(url, method, entries: matching, shared: true))
            return shared
        }
        var configuration = Configuration()
        for index in matching {
            configurationEntries[index].configurer(&configuration)
        }
        let built = BuiltConfiguration(configuration)
        sharedConfigurations[key] = built
        ReposeLog.log(.configuration, configurationLogLine(url, method, entries: matching, shared: false))
        return built
    }

    /// Which entries a resource's configuration came from, for `configuration`: `GET https://…/users/1: built from
    /// "standard transformers: text, JSON", "/users/*"`. An entry made for one resource is described by its URL, so
    /// its secrets are hidden too.
    private func configurationLogLine(_ url: URL, _ method: RequestMethod, entries: [Int], shared: Bool) -> String {
        let names = entries.map { ReposeLog.redactingURLs(in: configurationEntries[$0].description).debugDescription }
        let source = names.isEmpty ? "no entries" : names.joined(separator: ", ")
        return "\(method.rawValue) \(ReposeLog.describe(url: url)): \(shared ? "shared, from" : "built from") \(source)"
    }
}

/// How the `configuration` line for a change ends.
private let recomputeNotice = "resources recompute their configuration"

/// Which configuration entries a resource's URL matched for one method: resources with equal keys get equal
/// configurations, because an entry's closure sees only the configuration it is given.
struct SharedConfigurationKey: Hashable {
    let method: RequestMethod
    let entries: [Int]
}
