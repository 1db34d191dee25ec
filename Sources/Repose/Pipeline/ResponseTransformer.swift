/// One step of the transformer pipeline: takes a response and returns a (possibly different) response.
///
/// A transformer sees every response once, success or failure, and may rewrite content, error messages and
/// headers. It runs where the provider delivers the response (off the main actor for `URLSessionProvider`; a
/// small body from a provider that delivers on the main queue is processed right there), so it must be `Sendable`.
public protocol ResponseTransformer: Sendable {
    /// Transforms one response.
    func process(_ response: Response) -> Response
}
