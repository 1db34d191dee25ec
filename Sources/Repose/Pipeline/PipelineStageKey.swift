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
