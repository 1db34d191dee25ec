import Foundation

extension Resource {
    /// This resource's configuration for GET requests (and loads).
    public var configuration: Configuration {
        configuration(for: .get)
    }

    /// This resource's configuration for requests with `method`.
    public func configuration(for method: RequestMethod) -> Configuration {
        configurations.forgetIfOutdated(version: core.configurationVersion)
        if let built = configurations.byMethod[method] { return built }
        let built = core.buildConfiguration(for: url, method: method)
        configurations.byMethod[method] = built
        if method == .get {
            configurations.freshness = (built.expirationTime, built.retryTime)
        }
        return built
    }

    /// How long GET data and errors stay fresh: the configuration's `expirationTime` and `retryTime`, read without
    /// copying the configuration (a struct of arrays and closures: several retains), since `loadIfNeeded()` asks
    /// on every call.
    var freshnessLimits: (expirationTime: TimeInterval, retryTime: TimeInterval) {
        if configurations.version == core.configurationVersion, let limits = configurations.freshness {
            return limits
        }
        _ = configuration(for: .get)
        return configurations.freshness ?? (0, 0)
    }
}

/// A resource's configurations, by method, as built for one version of the service's configuration.
struct ResourceConfigurations {
    private(set) var version = -1
    var byMethod: [RequestMethod: Configuration] = [:]
    /// GET's freshness limits, set whenever GET's configuration is built.
    var freshness: (expirationTime: TimeInterval, retryTime: TimeInterval)?

    /// Forgets everything built for an older version of the service's configuration.
    mutating func forgetIfOutdated(version current: Int) {
        guard version != current else { return }
        version = current
        byMethod.removeAll(keepingCapacity: true)
        freshness = nil
    }
}
