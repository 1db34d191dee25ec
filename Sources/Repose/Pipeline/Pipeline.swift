import Foundation

// The pipeline, and what runs with it for every response: the processor that calls it, and the content-type filter
// and matcher that decide which transformers see the response.

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
            result = stage.transformers.reduce(result) { $1.process($0) }  // in the order they were added (rule G5)
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

/// Turns what the network delivered into a `Response`: HTTP error statuses become failures, 304 is set aside for
/// the resource to resolve, and everything else runs through the pipeline.
///
/// A network request runs it once per response, before its hop to the main actor, so every observer and hook shares
/// the parsed result; an event stream runs it on an event's data. A 304 is not run through the pipeline again: the
/// resource keeps the entity it already has.
struct ResponseProcessor: Sendable {
    enum Outcome {
        case response(Response)
        /// A 304, with its headers: they update the stored entity's (RFC 9111 §4.3.4, rule W4).
        case notModified(headers: [String: String])
    }

    let pipeline: Pipeline
    let now: @Sendable () -> TimeInterval
    /// The caches that successful responses are written to, with this resource's keys.
    var cacheTargets: [CacheTarget] = []
    /// The lines about this response, when a category that shows them is on.
    var log: ResponseLog?

    /// Bodies up to this size are parsed on the main actor as their outcome is delivered, larger ones on a queue of
    /// their own first: parsing a body this small costs about what the thread wake-ups of a hop cost, a much larger
    /// one would hold the main actor.
    static let mainQueueBodyLimit = 1024

    /// Whether processing `raw` may take long enough, or touch caches (rule H14), so that it must stay off the main
    /// actor.
    func isCostly(_ raw: NetworkResponse) -> Bool {
        raw.body.count > Self.mainQueueBodyLimit || !cacheTargets.isEmpty
    }

    /// Processes `result` on the calling thread.
    func process(_ result: Result<NetworkResponse, any Error>) -> Outcome {
        let timestamp = now()
        log?.received(result)
        switch result {
        case .failure(let error):
            return .response(.failure(NetworkErrorMessages.requestError(for: error, timestamp: timestamp)))
        case .success(let raw) where raw.statusCode == 304:
            return .notModified(headers: raw.headers)
        case .success(let raw):
            let entity = Entity<Any>(response: raw, content: raw.body, timestamp: timestamp)
            if raw.statusCode >= 400 {
                let error = RequestError(httpStatusCode: raw.statusCode, entity: entity, timestamp: timestamp)
                return .response(Self.stamped(runPipeline(.failure(error), caching: []), timestamp))
            }
            return .response(
                Self.stamped(runPipeline(.success(entity), caching: storableTargets(for: entity)), timestamp))
        }
    }

    /// The caches this response may be written to: none when the server forbids storing it (rule K6), and then
    /// what they hold for the resource goes too, since it is no longer what the server would have kept.
    private func storableTargets(for entity: Entity<Any>) -> [CacheTarget] {
        guard !cacheTargets.isEmpty, CacheControl(entity.header(forKey: "Cache-Control")).forbidsStoring else {
            return cacheTargets
        }
        for target in cacheTargets {
            target.remove()
        }
        return []
    }

    private func runPipeline(_ response: Response, caching targets: [CacheTarget]) -> Response {
        guard let log else { return pipeline.process(response, caching: targets) }
        return pipeline.process(response, caching: targets) { stage, ranTransformers, result in
            log.stage(stage, ranTransformers: ranTransformers, result: result, cachedIn: targets)
        }
    }

    /// `response` with the time it arrived: transformers make new entities and errors without knowing the time.
    private static func stamped(_ response: Response, _ timestamp: TimeInterval) -> Response {
        switch response {
        case .success(var entity):
            entity.timestamp = timestamp
            return .success(entity)
        case .failure(var error):
            error.timestamp = timestamp
            return .failure(error)
        }
    }
}

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

/// A set of content-type patterns, compiled once and shared, that decides whether a response's content type
/// belongs to a parser (`*/json` and `*/*+json` for JSON, `text/*` for text, `image/*` for images).
///
/// Pattern syntax:
/// - `*` matches any run of characters, possibly empty, except `/`, `+` and `;`. So a wildcard stays within the
///   type, the subtype, or one part of a structured-syntax suffix: `*/json` matches `application/json` and
///   `text/json` but not `application/hal+json`; `application/*+json` and `*/*+json` match `application/hal+json`;
///   `image/*` does not match `image/svg+xml`, which is XML rather than a bitmap (add `image/*+*` to want it).
/// - Every other character is literal. Matching ignores ASCII case and whitespace around the type.
/// - Parameters are ignored on both sides: `text/plain; charset=utf-8` is `text/plain`.
///
/// Matching walks the UTF-8 bytes of the content type in place: no regular expression, no allocation for native
/// strings, and work bounded by content-type length × pattern length. Content types longer than 255 bytes
/// (RFC 6838 caps type and subtype at 127 characters each) never match.
struct ContentTypeMatcher: Sendable, Hashable, CustomStringConvertible {
    /// A pattern split at its separators: a star cannot match `/` or `+`, so every separator in a content type
    /// must meet the same literal separator in the pattern, and the parts between them match independently.
    private struct Pattern: Sendable, Hashable {
        var parts: [[UInt8]]
        var separators: [UInt8]
    }

    /// The patterns as given.
    let patterns: [String]
    private let compiled: [Pattern]

    /// Compiles patterns; a content type matches if it matches any of them.
    init(_ patterns: [String]) {
        self.patterns = patterns
        self.compiled = patterns.map(Self.compile)
    }

    /// Compiles patterns; a content type matches if it matches any of them.
    init(_ patterns: String...) {
        self.init(patterns)
    }

    /// JSON: `*/json` and `*/*+json` (rule F7).
    static let json = ContentTypeMatcher("*/json", "*/*+json")
    /// Text: `text/*` (rule F1).
    static let text = ContentTypeMatcher("text/*")
    /// Images: `image/*`.
    static let image = ContentTypeMatcher("image/*")

    var description: String { "ContentTypeMatcher(\(patterns.joined(separator: ", ")))" }

    /// Whether `contentType` matches any of the patterns.
    func matches(_ contentType: String) -> Bool {
        if let result = contentType.utf8.withContiguousStorageIfAvailable({ matches(bytes: $0) }) {
            return result
        }
        return Array(contentType.utf8).withUnsafeBufferPointer { matches(bytes: $0) }
    }

    private static let maximumLength = 255

    private static func compile(_ pattern: String) -> Pattern {
        var compiled = Pattern(parts: [[]], separators: [])
        for byte in essence(of: Array(pattern.utf8)) {
            if isSeparator(byte) {
                compiled.separators.append(byte)
                compiled.parts.append([])
            } else {
                compiled.parts[compiled.parts.count - 1].append(lowercased(byte))
            }
        }
        return compiled
    }

    private func matches(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let subject = Self.essence(of: bytes)
        guard subject.count <= Self.maximumLength else { return false }
        return compiled.contains { Self.matches($0, subject: subject) }
    }

    private static func matches(_ pattern: Pattern, subject: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var start = subject.startIndex
        for (index, part) in pattern.parts.enumerated() {
            var end = start
            while end < subject.endIndex, !isSeparator(subject[end]) { end += 1 }
            guard glob(part, matches: subject[start..<end]) else { return false }
            guard index < pattern.separators.count else { return end == subject.endIndex }
            guard end < subject.endIndex, subject[end] == pattern.separators[index] else { return false }
            start = end + 1
        }
        return false
    }

    /// Glob match within one part, where a star matches any run. Backtracking only to the most recent star is
    /// enough there, so the work is at most part length × pattern length.
    private static func glob(_ pattern: [UInt8], matches subject: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let star = UInt8(ascii: "*")
        var patternIndex = 0
        var subjectIndex = subject.startIndex
        var lastStar: (patternIndex: Int, subjectIndex: Int)?
        while subjectIndex < subject.endIndex {
            if patternIndex < pattern.count, pattern[patternIndex] == star {
                lastStar = (patternIndex, subjectIndex)
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == lowercased(subject[subjectIndex]) {
                patternIndex += 1
                subjectIndex += 1
            } else if let star = lastStar {
                lastStar = (star.patternIndex, star.subjectIndex + 1)
                patternIndex = star.patternIndex + 1
                subjectIndex = star.subjectIndex + 1
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == star { patternIndex += 1 }
        return patternIndex == pattern.count
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "+")
    }

    /// A space or a tab (as `HeaderFieldScanner` reads them): here, so that matching needs no other file.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The bytes before any `;`, without surrounding spaces and tabs.
    private static func essence<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes) -> Bytes.SubSequence {
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var start = bytes.startIndex
        var last = end
        while start < last, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while last > start, isSpace(bytes[bytes.index(last, offsetBy: -1)]) {
            last = bytes.index(last, offsetBy: -1)
        }
        return bytes[start..<last]
    }
}
