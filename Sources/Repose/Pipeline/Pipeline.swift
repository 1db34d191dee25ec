/// The name of a pipeline stage. Stages run in the order of ``Pipeline/order``.
public struct PipelineStageKey: Hashable, Sendable, CustomStringConvertible {
    /// The stage's name.
    public let name: String

    /// Creates a custom stage key; add it to ``Pipeline/order`` to make it run.
    public init(_ name: String) {
        self.name = name
    }

    /// Raw bytes, before anything else (e.g. decompression).
    public static let rawData = PipelineStageKey("rawData")
    /// Bytes to text or other decoded forms.
    public static let decoding = PipelineStageKey("decoding")
    /// Text to structures such as JSON.
    public static let parsing = PipelineStageKey("parsing")
    /// Structures to app models.
    public static let model = PipelineStageKey("model")
    /// Last touches.
    public static let cleanup = PipelineStageKey("cleanup")

    public var description: String { name }
}

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

    func process(_ response: Response) -> Response {
        transformers.reduce(response) { $1.process($0) }
    }
}

/// The staged chain of transformers that turns a response's bytes into the content a resource holds.
///
/// Each response is processed once, for all observers, before the hop to the main actor: where the provider
/// delivers it, or on a background queue for a large body delivered on the main queue.
public struct Pipeline: Sendable {
    /// The order in which stages run.
    ///
    /// Reordering moves stages that already have transformers (rule G2); stages missing from the order are
    /// skipped (rule G3), including custom ones until they are added here:
    ///
    /// ```swift
    /// $0.pipeline.order.insert(PipelineStageKey("decrypt"), at: 1)
    /// ```
    public var order: [PipelineStageKey] = [.rawData, .decoding, .parsing, .model, .cleanup] {
        didSet { updateRunList() }
    }
    private var stages: [PipelineStageKey: PipelineStage] = [:] {
        didSet { updateRunList() }
    }
    /// The stages that exist, in ``order``: what processing a response walks, built when the pipeline changes
    /// rather than looked up by name (hashing each stage's name) for every response.
    private var runList: [(key: PipelineStageKey, stage: PipelineStage)] = []
    /// Whether some stage has a cache, noted when the pipeline changes: every load asks (see ``cachingStages``).
    private(set) var hasCaches = false

    /// Creates a pipeline with the standard, empty stages.
    public init() {}

    /// The stage for `key`, created empty on first use.
    public subscript(key: PipelineStageKey) -> PipelineStage {
        get { stages[key] ?? PipelineStage() }
        set { stages[key] = newValue }
    }

    /// Removes every transformer from every stage: responses keep their raw `Data` (rule G7). ``order`` is kept.
    public mutating func clear() {
        stages.removeAll()
    }

    private mutating func updateRunList() {
        runList = order.compactMap { key in stages[key].map { (key, $0) } }
        hasCaches = stages.values.contains { $0.cache != nil }
    }

    /// Runs `response` through the stages in ``order``, handing each success to the caches in `targets` as it
    /// leaves their stage (rule H11: every stage's cache gets that stage's output; failures are never written).
    /// `trace`, when given, hears what each stage with transformers or a cache made of the response (for logs).
    func process(
        _ response: Response, caching targets: [CacheTarget] = [], trace: StageTrace? = nil
    ) -> Response {
        process(response, stages: runList[...], caching: targets, trace: trace)
    }

    /// `entity` with the time `response` arrived when a transformer made it anew, without a timestamp (rule W8): a
    /// cache would otherwise keep it as written in 1970, and its hit would never be fresh.
    private static func stamped(_ entity: Entity<Any>, like response: Response) -> Entity<Any> {
        guard entity.timestamp == 0 else { return entity }
        var entity = entity
        switch response {
        case .success(let arrived): entity.timestamp = arrived.timestamp
        case .failure(let error): entity.timestamp = error.timestamp
        }
        return entity
    }

    /// Hears a stage's key, whether it ran transformers, and its result.
    typealias StageTrace = (PipelineStageKey, Bool, Response) -> Void

    /// Runs `response` through the stages that come after `stage` in ``order`` (rule H9: a cache hit skips the
    /// stages up to and including its own).
    func process(_ response: Response, after stage: PipelineStageKey) -> Response {
        guard let position = order.firstIndex(of: stage) else { return response }
        let later = Set(order[(position + 1)...])
        let start = runList.firstIndex { later.contains($0.key) } ?? runList.endIndex
        return process(response, stages: runList[start...], caching: [], trace: nil)
    }

    /// The one stage loop: `stages` in order, each success handed to the caches of its stage.
    private func process(
        _ response: Response, stages: ArraySlice<(key: PipelineStageKey, stage: PipelineStage)>,
        caching targets: [CacheTarget], trace: StageTrace?
    ) -> Response {
        var result = response
        for (key, stage) in stages {
            result = stage.process(result)
            if !targets.isEmpty, case .success(let entity) = result {
                let entity = Self.stamped(entity, like: response)
                for target in targets where target.stage == key {
                    target.write(entity)
                }
            }
            trace?(key, !stage.isEmpty, result)
        }
        return result
    }

    /// The stages that have a cache, in ``order``.
    var cachingStages: [(key: PipelineStageKey, cache: any EntityCache)] {
        // Most pipelines have no cache; every load and every first data access asks, so that case reads one flag.
        guard hasCaches else { return [] }
        return order.compactMap { key in stages[key]?.cache.map { (key, $0) } }
    }
}
