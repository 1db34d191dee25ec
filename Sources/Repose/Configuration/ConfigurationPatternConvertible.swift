import Foundation

/// Something that can say which resources a `Service.configure(_:requestMethods:description:_:)` call applies to.
///
/// Repose makes these conform:
/// - `String`: a glob relative to the service's base URL, such as `"/users/*"` or `"**/posts/?"` (see below);
/// - `NSRegularExpression` and Swift `Regex`: match any part of the full absolute URL, query included;
/// - ``Resource``: exactly that resource's URL.
///
/// Globs match the whole URL without its query string. `*` matches any run of characters other than `/`
/// (possibly none), `**` matches anything across segments (`/**/` also matches a single `/`), and `?` matches
/// exactly one character other than `/`. A glob that starts with a scheme (`https://*.example.com/**`) is
/// absolute; any other is relative to the base URL, with or without a leading slash.
///
/// Every pattern is compiled once, when it is passed to `configure`, and shared by all the resources it is
/// tested against.
@MainActor
public protocol ConfigurationPatternConvertible {
    /// Compiles the pattern into a test of absolute resource URLs. Called once per `configure` call.
    ///
    /// - Parameter service: The service being configured; relative patterns are resolved against its base URL.
    /// - Returns: A test that says whether a resource URL matches.
    func configurationPattern(for service: Service) -> (URL) -> Bool

    /// The pattern as text, used as the configuration's description when none is given.
    var configurationPatternDescription: String { get }
}

extension String: ConfigurationPatternConvertible {
    /// Compiles this string as a glob relative to the service's base URL (unless it starts with a scheme).
    public func configurationPattern(for service: Service) -> (URL) -> Bool {
        URLPattern(glob: self, baseURL: service.baseURL).matches
    }

    /// The glob as written.
    public var configurationPatternDescription: String { self }
}

extension NSRegularExpression: ConfigurationPatternConvertible {
    /// Matches the resources whose full absolute URL contains a match for this expression, with its options.
    public func configurationPattern(for service: Service) -> (URL) -> Bool {
        URLPattern(regex: self).matches
    }

    /// The expression's pattern.
    public var configurationPatternDescription: String { "/\(pattern)/" }
}

extension Regex: ConfigurationPatternConvertible {
    /// Matches the resources whose full absolute URL contains a match for this regex.
    public func configurationPattern(for service: Service) -> (URL) -> Bool {
        let regex = self
        return { url in (try? regex.firstMatch(in: url.absoluteString)) != nil }
    }

    /// A generic label: a `Regex` does not keep its source text.
    public var configurationPatternDescription: String { "Regex" }
}

extension Resource: ConfigurationPatternConvertible {
    /// Matches exactly this resource's URL, query string included.
    public func configurationPattern(for service: Service) -> (URL) -> Bool {
        URLPattern(exactURL: url).matches
    }

    /// The resource's URL.
    public var configurationPatternDescription: String { url.absoluteString }
}
