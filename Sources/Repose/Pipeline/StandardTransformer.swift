/// The built-in parsers a ``Service`` can install.
public enum StandardTransformer: Sendable, Hashable, CaseIterable {
    /// `text/*` bodies become `String`, decoded with the response's charset (ISO-8859-1 when none is given).
    case text
    /// JSON bodies (`application/json`, `*/*+json`) become `[String: Any]` or `[Any]`.
    case json

    /// Text and JSON.
    public static let defaults: [StandardTransformer] = [.text, .json]
}

extension Service {
    func installStandardTransformers(_ transformers: [StandardTransformer]) {
        // Filled in with the transformer pipeline.
    }
}
