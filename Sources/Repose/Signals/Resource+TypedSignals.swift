import Foundation

extension Resource {
    /// Like ``autoloadingState(cancelDelay:)``, with the content typed as `Content` (content of another type reads
    /// as `nil`, never a crash).
    ///
    /// Observing it loads the resource if needed; when the last subscriber leaves, the load is cancelled after
    /// `cancelDelay` seconds unless someone observes again:
    ///
    /// ```swift
    /// subscription = user.autoloadingState(as: User.self).observe { state in
    ///     render(state.content, isLoading: state.isLoading)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The content type the app expects, usually a model the pipeline decodes.
    ///   - cancelDelay: Seconds to wait after the last subscriber leaves before cancelling the load.
    /// - Returns: A state that replays the current snapshot, then one snapshot per resource event.
    public func autoloadingState<Content>(
        as type: Content.Type, cancelDelay: TimeInterval = 0.5
    ) -> State<ResourceState<Content>> {
        autoloadingState(cancelDelay: cancelDelay).map { $0.typed(as: Content.self) }
    }
}
