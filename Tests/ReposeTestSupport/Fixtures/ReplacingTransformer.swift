import Repose

/// Replaces successful content with a fixed string, to show which pipeline ran.
struct ReplacingTransformer: ResponseTransformer {
    let content: String

    init(_ content: String) {
        self.content = content
    }

    func process(_ response: Response) -> Response {
        response.map { entity in
            var replaced = entity
            replaced.content = content
            return replaced
        }
    }
}
