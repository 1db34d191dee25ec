/// What changed about a resource, as told to its observers.
///
/// New kinds of change may be added as Repose grows (as `newData(.optimistic)` was for pending optimistic changes),
/// so a `switch` over an event should end with a `default:` branch; code that only needs "something changed" should
/// read the resource's state instead of matching events.
///
/// ```swift
/// resource.addObserver(owner: self) { resource, event in
///     switch event {
///     case .newData: show(resource.latestData)
///     case .error: show(resource.latestError)
///     default: break
///     }
/// }
/// ```
public enum ResourceEvent: Equatable, Sendable, CustomStringConvertible {
    /// Sent once to an observer when it starts observing, so that it can show the current state right away.
    case observerAdded
    /// A load started; ``Resource/isLoading`` is now true.
    case requested
    /// A load was cancelled before it completed.
    case requestCancelled
    /// ``Resource/latestData`` changed; the source says where the new data came from.
    case newData(NewDataSource)
    /// The server confirmed that the existing data is still current (HTTP 304).
    case notModified
    /// A load failed; ``Resource/latestError`` holds the error.
    case error

    /// Where a resource's new data came from. Sources may be added as Repose grows: `switch` with a `default:`.
    public enum NewDataSource: String, Equatable, Sendable {
        /// A server response.
        case network
        /// A persistent cache.
        case cache
        /// `overrideLocalData(with:)` or `overrideLocalContent(with:)`.
        case localOverride
        /// `wipe()`: the data is now gone.
        case wipe
        /// An optimistic change of a write started or was rolled back (see `Resource.request(_:showing:on:headers:options:requestMutation:)`).
        case optimistic
        /// An event of an ``EventStream`` replaced the content (see ``EventStream/Effect/replaceContent(contentType:_:)``).
        case eventStream
        /// A streamed load's body arrived further: ``Resource/latestData`` holds the content so far and
        /// ``Resource/isPartial`` is true (see ``StreamedContent``).
        case partial
    }

    public var description: String {
        switch self {
        case .observerAdded: "observerAdded"
        case .requested: "requested"
        case .requestCancelled: "requestCancelled"
        case .newData(let source): "newData(\(source.rawValue))"
        case .notModified: "notModified"
        case .error: "error"
        }
    }
}
