import Foundation

extension Resource {
    /// This resource's configuration for GET requests (and loads).
    public var configuration: Configuration {
        configuration(for: .get)
    }

    /// This resource's configuration for requests with `method`.
    public func configuration(for method: RequestMethod) -> Configuration {
        built(for: method).configuration
    }

    /// The built configuration for `method`, shared with the resources that matched the same entries.
    private func built(for method: RequestMethod) -> BuiltConfiguration {
        configurations.forgetIfOutdated(version: core.configurationVersion)
        if let built = configurations[method] { return built }
        let built = core.buildConfiguration(for: url, method: method)
        configurations[method] = built
        return built
    }

    /// GET's timing values (freshness limits, polling), read without copying the configuration (a struct of arrays
    /// and closures: several retains), since `loadIfNeeded()` asks on every call.
    var timing: BuiltConfiguration.Timing {
        if configurations.version == core.configurationVersion, let get = configurations.get {
            return get.timing
        }
        return built(for: .get).timing
    }
}

/// A resource's configurations, by method, as built for one version of the service's configuration.
///
/// References to configurations the service shares, GET's in a field of its own: a dictionary by method cost each
/// resource a large allocation (its slots hold whole `Configuration` values), most of the memory a resource with
/// data and an observer took beyond its URL.
struct ResourceConfigurations {
    private(set) var version = -1
    /// GET's configuration: the one every resource reads.
    private(set) var get: BuiltConfiguration?
    /// Other methods' configurations, for the few resources that send them.
    private var others: [RequestMethod: BuiltConfiguration] = [:]

    subscript(method: RequestMethod) -> BuiltConfiguration? {
        get { method == .get ? get : others[method] }
        set {
            if method == .get {
                get = newValue
            } else {
                others[method] = newValue
            }
        }
    }

    /// Forgets everything built for an older version of the service's configuration.
    mutating func forgetIfOutdated(version current: Int) {
        guard version != current else { return }
        version = current
        get = nil
        others.removeAll(keepingCapacity: true)
    }
}

/// A configuration built for one method and one set of matching entries, shared by the resources that matched them
/// (see `ServiceCore.buildConfiguration(for:method:)`), with the plain numbers the hot paths read.
final class BuiltConfiguration {
    let configuration: Configuration
    let timing: Timing

    init(_ configuration: Configuration) {
        self.configuration = configuration
        timing = Timing(configuration)
    }

    /// The plain numbers of a configuration that the hot paths read.
    struct Timing: Sendable {
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
}
