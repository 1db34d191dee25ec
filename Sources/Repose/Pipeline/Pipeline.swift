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

/// One stage of the pipeline: transformers that run in the order they were added.
public struct PipelineStage: Sendable {
    var transformers: [any ResponseTransformer] = []

    /// Creates an empty stage.
    public init() {}

    /// Appends a transformer to this stage.
    public mutating func add(_ transformer: any ResponseTransformer) {
        transformers.append(transformer)
    }

    /// Removes all of this stage's transformers.
    public mutating func removeTransformers() {
        transformers.removeAll()
    }

    func process(_ response: Response) -> Response {
        transformers.reduce(response) { $1.process($0) }
    }
}

/// The staged chain of transformers that turns a response's bytes into the content a resource holds.
///
/// Each response is processed once, off the main actor, for all observers.
public struct Pipeline: Sendable {
    /// The order in which stages run. Stages missing from it are skipped.
    public var order: [PipelineStageKey] = [.rawData, .decoding, .parsing, .model, .cleanup]
    private var stages: [PipelineStageKey: PipelineStage] = [:]

    /// Creates a pipeline with the standard, empty stages.
    public init() {}

    /// The stage for `key`, created empty on first use.
    public subscript(key: PipelineStageKey) -> PipelineStage {
        get { stages[key] ?? PipelineStage() }
        set { stages[key] = newValue }
    }

    /// Removes every transformer from every stage: responses keep their raw `Data`.
    public mutating func clear() {
        stages.removeAll()
    }

    /// Runs `response` through the stages in ``order``.
    func process(_ response: Response) -> Response {
        var result = response
        for key in order {
            if let stage = stages[key] {
                result = stage.process(result)
            }
        }
        return result
    }
}
