import Foundation

/// A snapshot of a resource's state: what a view needs to draw itself.
///
/// Every resource event produces a new snapshot on ``Resource/state``. `Content` is the type the app expects;
/// content of another type reads as `nil`, never a crash.
public struct ResourceState<Content> {
    /// The latest data's content, if there is data and it has type `Content`.
    public var content: Content? {
        get { parsed.value.content }
        set { parsed.value.content = newValue }
    }
    /// The latest data, whatever its content type.
    public var latestData: Entity<Any>? {
        get { parsed.value.latestData }
        set { parsed.value.latestData = newValue }
    }
    /// The content and the data: the only parts of a snapshot the compiler cannot check for `Sendable`.
    private var parsed: ParsedContent<(content: Content?, latestData: Entity<Any>?)>
    /// The error from the latest load, if it failed.
    public var latestError: RequestError?
    /// Whether a load is in flight.
    public var isLoading: Bool
    /// Whether any request concerning the resource is in flight.
    public var isRequesting: Bool
    /// The time of the latest change to the data or the error.
    public var timestamp: TimeInterval
    /// Whether the data is older than its lifetime, or was invalidated: time to show "refreshing…" or "offline,
    /// showing data from 10:42" (`latestData?.timestamp`). `false` without data.
    ///
    /// A resource's ``Resource/state`` sends a new snapshot when its data turns stale, without any load, while
    /// anything observes it.
    public var isStale: Bool
    /// How many optimistic changes of writes still on their way show in ``latestData`` over the server's data:
    /// time to show "saving…". See ``OptimisticChange``.
    public var pendingChanges: Int
    /// Whether ``content`` and ``latestData`` are the previous resource's, kept on screen while this one loads (or,
    /// when asked, beside its error): time to dim the list or show "updating…". Only
    /// `flatMapLatestKeepingPrevious(besideErrors:_:)` sets it.
    public var isPrevious: Bool
    /// Whether the data is part of a streamed body, growing while ``isLoading``, cut short beside ``latestError``
    /// otherwise: see ``StreamedContent``.
    public var isPartial: Bool

    /// Creates a snapshot from its parts.
    public init(
        content: Content?, latestData: Entity<Any>?, latestError: RequestError?, isLoading: Bool,
        isRequesting: Bool, timestamp: TimeInterval, isStale: Bool = false, pendingChanges: Int = 0,
        isPrevious: Bool = false, isPartial: Bool = false
    ) {
        self.parsed = ParsedContent((content, latestData))
        self.latestError = latestError
        self.isLoading = isLoading
        self.isRequesting = isRequesting
        self.timestamp = timestamp
        self.isStale = isStale
        self.pendingChanges = pendingChanges
        self.isPrevious = isPrevious
        self.isPartial = isPartial
    }

    /// The same snapshot with its content read as another type.
    public func typed<T>(as type: T.Type = T.self) -> ResourceState<T> {
        ResourceState<T>(
            content: latestData.flatMap { $0.content as? T }, latestData: latestData, latestError: latestError,
            isLoading: isLoading, isRequesting: isRequesting, timestamp: timestamp, isStale: isStale,
            pendingChanges: pendingChanges, isPrevious: isPrevious, isPartial: isPartial)
    }
}

extension ResourceState: TypedContentAccessors {
    /// The latest data, so that `state.text`, `state.jsonDict` and `typedContent()` work on snapshots too.
    public var entityForTypedContentAccessors: Entity<Any>? { latestData }
}

extension Resource {
    /// Whether the data is older than its lifetime or invalidated (rule R7); `false` without data.
    var isDataStale: Bool {
        let expirationTime = timing.expirationTime
        return record.isDataStale(now: core.now(), expirationTime: expirationTime)
    }

    /// When the data turns stale, if it is fresh now.
    var dataTurnsStale: TimeInterval? {
        record.dataTurnsStale(expirationTime: timing.expirationTime)
    }

    /// The resource's state right now, as a snapshot.
    public var currentState: ResourceState<Any> {
        ResourceState(
            content: record.latestData?.content, latestData: record.latestData, latestError: record.latestError,
            isLoading: isLoading, isRequesting: isRequesting, timestamp: timestamp, isStale: isDataStale,
            pendingChanges: record.pendingChangeCount, isPartial: record.isPartialData)
    }
}

// Checked by the compiler: the content and the data are held in `ParsedContent`, the one unchecked part (see there),
// and the rest (the error included) is `Sendable`. Whatever `Content` is, since `resource.state` (content `Any`)
// is sent to other tasks too, as in `for await state in resource.state.values`.
extension ResourceState: Sendable {}

extension ResourceState {
    /// The state of a resource that has never loaded: no data, no error, nothing in flight.
    ///
    /// Handy as the "nothing to show" branch of `flatMapLatest`, whatever the content type:
    ///
    /// ```swift
    /// let owner = repository.state(as: Repository.self).flatMapLatest { state -> State<ResourceState<User>> in
    ///     guard let href = state.content?.ownerURL else { return .constant(.empty) }
    ///     return api.resource(absoluteURL: href).autoloadingState(as: User.self)
    /// }
    /// ```
    public static var empty: ResourceState<Content> {
        ResourceState(
            content: nil, latestData: nil, latestError: nil, isLoading: false, isRequesting: false, timestamp: 0)
    }
}
