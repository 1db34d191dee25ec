import Observation

/// A resource's state as an `Observable` object, for SwiftUI views and `withObservationTracking`.
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
/// It reads the resource's typed ``Resource/state(as:)`` through `ObservableState`, the bridge from any `State`
/// to Observation. The object observes the resource for as long as it lives; when it goes away the resource becomes
/// releasable.
@MainActor
public final class ObservableResource<Content>: Observable {
    /// The resource's latest state, with content typed as `Content`.
    public var state: ResourceState<Content> { mirror.value }
    /// The resource it mirrors.
    public let resource: Resource
    private let mirror: ObservableState<ResourceState<Content>>

    /// Mirrors `resource`, reading its content as `Content`.
    public init(_ resource: Resource, as type: Content.Type) {
        self.resource = resource
        mirror = ObservableState(resource.state(as: Content.self))
    }

    /// Starts a load unless the data is fresh. See ``Resource/loadIfNeeded()``.
    @discardableResult
    public func loadIfNeeded() -> Request? {
        resource.loadIfNeeded()
    }
}

/// A ``ResourceGroup``'s combined status as an `Observable` object, read through `ObservableState`.
@MainActor
public final class ObservableResourceGroup: Observable {
    /// The group's latest combined status.
    public var state: ResourceGroupState { mirror.value }
    /// The group it mirrors.
    public let group: ResourceGroup
    private let mirror: ObservableState<ResourceGroupState>

    /// Mirrors `group`.
    public init(_ group: ResourceGroup) {
        self.group = group
        mirror = ObservableState(group.state)
    }
}
