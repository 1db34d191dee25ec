import Observation

/// A resource's state as an `@Observable` object, for SwiftUI views and `withObservationTracking`.
///
/// ```swift
/// struct ProfileView: View {
///     @State var profile = ObservableResource(API.profile, as: [String: Any].self)
///     var body: some View {
///         Text(profile.state.content?["name"] as? String ?? "…")
///             .task { profile.loadIfNeeded() }
///     }
/// }
/// ```
///
/// The object observes the resource for as long as it lives; when it goes away the resource becomes releasable.
@Observable
@MainActor
public final class ObservableResource<Content> {
    /// The resource's latest state, with content typed as `Content`.
    public private(set) var state: ResourceState<Content>
    /// The resource it mirrors.
    @ObservationIgnored public let resource: Resource
    @ObservationIgnored private var subscription: Subscription?

    /// Mirrors `resource`, reading its content as `Content`.
    public init(_ resource: Resource, as type: Content.Type) {
        self.resource = resource
        self.state = resource.currentState.typed(as: Content.self)
        subscription = resource.state.signal.observe { [weak self] snapshot in
            self?.state = snapshot.typed(as: Content.self)
        }
    }

    /// Starts a load unless the data is fresh. See ``Resource/loadIfNeeded()``.
    @discardableResult
    public func loadIfNeeded() -> Request? {
        resource.loadIfNeeded()
    }
}

/// A ``ResourceGroup``'s combined status as an `@Observable` object.
@Observable
@MainActor
public final class ObservableResourceGroup {
    /// The group's latest combined status.
    public private(set) var state: ResourceGroupState
    /// The group it mirrors.
    @ObservationIgnored public let group: ResourceGroup
    @ObservationIgnored private var subscription: Subscription?

    /// Mirrors `group`.
    public init(_ group: ResourceGroup) {
        self.group = group
        self.state = group.state.value
        subscription = group.state.signal.observe { [weak self] status in
            self?.state = status
        }
    }
}
