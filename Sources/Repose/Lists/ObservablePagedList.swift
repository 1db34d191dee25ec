import Observation

/// A ``PagedList``'s state as an `@Observable` object, for SwiftUI views and `withObservationTracking`.
///
/// ```swift
/// struct ReposView: View {
///     @State var repos = ObservablePagedList(service.pagedList(startingAt: ada.repos, items: [Repo].self))
///     var body: some View {
///         List(Array(repos.state.items), id: \.id) { repo in Text(repo.name) }
///             .task { repos.list.loadIfNeeded() }
///             .refreshable { _ = await repos.list.refresh().response }
///     }
/// }
/// ```
///
/// The object keeps its list, and follows its state for as long as it lives.
@Observable
@MainActor
public final class ObservablePagedList<Item> {
    /// The list's latest state.
    public private(set) var state: PagedListState<Item>
    /// The list it mirrors.
    @ObservationIgnored public let list: PagedList<Item>
    @ObservationIgnored private var subscription: Subscription?

    /// Mirrors `list`.
    public init(_ list: PagedList<Item>) {
        self.list = list
        self.state = list.state.value
        subscription = list.state.signal.observe { [weak self] snapshot in
            self?.state = snapshot
        }
    }
}
