/// One stage of the pipeline: transformers that run in the order they were added (rule G5).
public struct PipelineStage: Sendable {
    /// What to do with a stage's existing transformers when adding one through `Service.configureTransformer`.
    public enum MutationAction: Sendable, Hashable {
        /// Remove the stage's transformers first, so the new one is the only one (rule F18).
        case replaceExisting
        /// Keep the stage's transformers and run the new one after them.
        case appendToExisting
    }

    var transformers: [any ResponseTransformer] = []
    /// Where this stage's output is stored for later launches; see `cacheUsing(_:)`.
    var cache: (any EntityCache)?

    /// Creates an empty stage.
    public init() {}

    /// Whether the stage has no transformers.
    public var isEmpty: Bool { transformers.isEmpty }

    /// Appends a transformer that sees every response.
    public mutating func add(_ transformer: any ResponseTransformer) {
        transformers.append(transformer)
    }

    /// Appends a transformer that only sees responses whose content type matches one of `contentTypes`.
    ///
    /// Patterns use `*` for any run of characters within the type, the subtype, or one part of a `+` suffix
    /// (`text/*`, `*/json`, `application/*+json`); parameters such as `charset` are ignored. Other responses pass
    /// through the transformer untouched. The patterns are compiled once per distinct list and shared, so adding
    /// the same list in a configuration closure for every resource costs a lookup, not a compilation.
    ///
    /// ```swift
    /// service.configure {
    ///     $0.pipeline[.parsing].add(CSVTransformer(), contentTypes: ["text/csv"])
    /// }
    /// ```
    public mutating func add(_ transformer: any ResponseTransformer, contentTypes: [String]) {
        transformers.append(
            ContentTypeFilteredTransformer(transformer, matcher: ContentTypeMatcher.shared(contentTypes)))
    }

    /// Removes all of this stage's transformers (rule G6).
    public mutating func removeTransformers() {
        transformers.removeAll()
    }

    /// Runs `response` through the transformers, in the order they were added (a decoder's error bodies; the
    /// pipeline walks its stages' transformers itself).
    func process(_ response: Response) -> Response {
        transformers.reduce(response) { $1.process($0) }
    }
}
