/// One step of the transformer pipeline: takes a response and returns a (possibly different) response.
///
/// A transformer sees every response once, success or failure, and may rewrite content, error messages and
/// headers. It runs off the main actor, so it must be `Sendable`.
public protocol ResponseTransformer: Sendable {
    /// Transforms one response.
    func process(_ response: Response) -> Response
}
