import Observation

/// A ``PagedList``'s state as an `Observable` object, for SwiftUI views and `withObservationTracking`.
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
/// It reads the list's ``PagedList/state`` through `ObservableState`, the bridge from any `State` to Observation.
/// The object keeps its list, and follows its state for as long as it lives.
@MainActor
public final class ObservablePagedList<Item>: Observable {
    /// The list's latest state.
    public var state: PagedListState<Item> { mirror.value }
    /// The list it mirrors.
    public let list: PagedList<Item>
    private let mirror: ObservableState<PagedListState<Item>>

    /// Mirrors `list`.
    public init(_ list: PagedList<Item>) {
        self.list = list
        mirror = ObservableState(list.state)
    }
}
