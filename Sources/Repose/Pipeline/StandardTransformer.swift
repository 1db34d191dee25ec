import Foundation

/// The built-in parsers a ``Service`` can install.
///
/// Pick them when creating the service; all of them by default:
///
/// ```swift
/// let api = Service(baseURL: "https://api.example.com", options: .init(standardTransformers: [.json]))
/// ```
///
/// Each one transforms error bodies too, so `latestError.text` and `latestError.jsonDict` read what the server
/// said; an error body that fails to parse leaves the original error in place.
public enum StandardTransformer: Sendable, Hashable, CaseIterable {
    /// `text/*` bodies become `String`, decoded with the response's charset (ISO-8859-1 when none is given), in
    /// the ``PipelineStageKey/decoding`` stage.
    case text
    /// JSON bodies (`*/json`, `*/*+json`) become `[String: Any]` or `[Any]`, in the ``PipelineStageKey/parsing``
    /// stage. A top-level scalar such as `17` is a failure.
    case json
    #if canImport(UIKit) || canImport(AppKit)
    /// `image/*` bodies become `UIImage` or `NSImage`, in the ``PipelineStageKey/parsing`` stage.
    case image
    #endif

    /// Every standard transformer.
    public static let defaults: [StandardTransformer] = allCases

    /// The stage the transformer belongs in.
    public var stage: PipelineStageKey {
        switch self {
        case .text: return .decoding
        case .json: return .parsing
        #if canImport(UIKit) || canImport(AppKit)
        case .image: return .parsing
        #endif
        }
    }

    /// The transformer itself, already limited to its content types. Add it back to ``stage`` after replacing
    /// that stage's transformers, or use it in a pipeline of your own.
    public var transformer: any ResponseTransformer {
        switch self {
        case .text: return Self.textTransformer
        case .json: return Self.jsonTransformer
        #if canImport(UIKit) || canImport(AppKit)
        case .image: return ImageTransformer.transformer
        #endif
        }
    }

    /// Rules F1–F6. An earlier stage that already made a `String` is a wrong input type, not a second decode.
    private static let textTransformer = ContentTypeFilteredTransformer(
        ResponseContentTransformer<Data, String>(transformErrors: true, description: "text") { entity in
            try entity.attributingErrors { try TextDecoding.decode(entity.content, charset: entity.charset) }
        },
        matcher: .text)

    /// Rules F7–F10; see `JSONTransformer`.
    private static let jsonTransformer = ContentTypeFilteredTransformer(JSONTransformer(), matcher: .json)
}

extension Service {
    /// Installs the chosen standard transformers as the service's first configuration entry, so every later
    /// `configure` call sees them in the pipeline and can replace or extend them.
    ///
    /// The transformers are built once; the entry only appends the shared instances to each resource's pipeline.
    func installStandardTransformers(_ transformers: [StandardTransformer]) {
        var chosen: [StandardTransformer] = []
        for transformer in transformers where !chosen.contains(transformer) {
            chosen.append(transformer)
        }
        guard !chosen.isEmpty else { return }
        let installs = chosen.map { (stage: $0.stage, transformer: $0.transformer) }
        addConfiguration(
            matching: { _ in true }, requestMethods: nil,
            description: "standard transformers: " + chosen.map { "\($0)" }.joined(separator: ", ")
        ) { configuration in
            for install in installs {
                configuration.pipeline[install.stage].add(install.transformer)
            }
        }
    }
}
