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
            configurations.timing = ResourceConfigurations.Timing(built)
        }
        return built
    }

    /// GET's timing values (freshness limits, polling), read without copying the configuration (a struct of arrays
    /// and closures: several retains), since `loadIfNeeded()` asks on every call.
    var timing: ResourceConfigurations.Timing {
        if configurations.version == core.configurationVersion, let timing = configurations.timing {
            return timing
        }
        return ResourceConfigurations.Timing(configuration(for: .get))
    }
}

/// A resource's configurations, by method, as built for one version of the service's configuration.
struct ResourceConfigurations {
    private(set) var version = -1
    var byMethod: [RequestMethod: Configuration] = [:]
    /// GET's timing values, set whenever GET's configuration is built.
    var timing: Timing?

    /// The plain numbers of a GET configuration that the hot paths read.
    struct Timing {
        var expirationTime: TimeInterval
        var retryTime: TimeInterval
        var refreshInterval: TimeInterval?
        var readsHTTPFreshness: Bool

        init(_ configuration: Configuration) {
            expirationTime = configuration.expirationTime
            retryTime = configuration.retryTime
            refreshInterval = configuration.refreshInterval
            readsHTTPFreshness = configuration.freshness.readsHeaders
        }
    }

    /// Forgets everything built for an older version of the service's configuration.
    mutating func forgetIfOutdated(version current: Int) {
        guard version != current else { return }
        version = current
        byMethod.removeAll(keepingCapacity: true)
        timing = nil
    }
}
