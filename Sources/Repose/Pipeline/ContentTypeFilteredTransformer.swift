import Foundation

/// A transformer that only runs for responses whose content type matches; others pass through untouched.
///
/// For a failure, the content type of the error body decides; a failure without a body passes through. A response
/// whose body is empty `Data` (a HEAD, a 204) has nothing to parse and passes through as empty `Data` (rule E2),
/// whatever its declared content type.
struct ContentTypeFilteredTransformer: ResponseTransformer, CustomStringConvertible {
    let wrapped: any ResponseTransformer
    let matcher: ContentTypeMatcher

    init(_ wrapped: any ResponseTransformer, matcher: ContentTypeMatcher) {
        self.wrapped = wrapped
        self.matcher = matcher
    }

    func process(_ response: Response) -> Response {
        let entity: Entity<Any>?
        switch response {
        case .success(let success): entity = success
        case .failure(let error): entity = error.entity
        }
        guard let entity, matcher.matches(entity.contentType) else { return response }
        if let body = entity.content as? Data, body.isEmpty { return response }
        return wrapped.process(response)
    }

    var description: String {
        "\(wrapped) for \(matcher.patterns.joined(separator: ", "))"
    }
}

extension ContentTypeMatcher {
    /// Matchers already compiled, by pattern list, so that configuration closures that run once per resource
    /// share one matcher instead of compiling their own (the original library spent most of a resource's
    /// configuration memory on per-resource pattern compilation).
    ///
    /// Safe: `matchers` is only read or written while holding `lock`, and nothing else runs under the lock.
    private nonisolated(unsafe) static var matchers: [[String]: ContentTypeMatcher] = [:]
    private static let lock = NSLock()
    /// Pattern lists come from code, so there are few of them; the cap only guards against a runaway caller.
    private static let maximumCachedMatchers = 256

    /// The matcher for `patterns`, compiled on first use and shared afterwards.
    static func shared(_ patterns: [String]) -> ContentTypeMatcher {
        if let cached = lock.withLock({ matchers[patterns] }) { return cached }
        let compiled = ContentTypeMatcher(patterns)
        lock.withLock {
            if matchers.count >= maximumCachedMatchers { matchers.removeAll() }
            matchers[patterns] = compiled
        }
        return compiled
    }
}
