import Foundation
import Repose
import ReposeStorage

/// One launch of the demo app: a service over the chosen API with its disk cache, and the screens it shows.
///
/// Dropping a client is quitting the app: its service, resources and subscriptions go with it; only the disk
/// cache stays, for the next launch.
@MainActor
final class DemoClient {
    /// The API this launch talks to, and how.
    let setup: DemoSetup
    /// The one service of this launch: every screen takes its resources from it.
    let service: Service
    /// The disk cache every response is written to, and the next launch starts from.
    let cache: FileEntityCache
    /// Sends when the network comes back (the `online` command): the service then reloads every observed resource
    /// whose data is stale.
    let reconnected = SignalSource<Void>()
    /// The user search, ready for keystrokes.
    let search: SearchScreen
    /// Stars and unstars, as optimistic changes.
    let stars: StarActions
    /// The user on screen, if any.
    var profile: ProfileScreen?
    /// That user's repositories as a paged list, once `repos` asked for it.
    var repositoryList: RepositoryList?

    /// Starts a launch over `cacheFolder`; `startsCold` forgets what earlier launches cached there.
    init(setup: DemoSetup, cacheFolder: URL, startsCold: Bool) {
        self.setup = setup
        let live = setup.fixture == nil
        service = Service(
            baseURL: setup.baseURL,
            options: .init(
                networking: setup.networking,
                reconnected: live ? Service.Options.systemReconnections() : reconnected.signal, becameActive: nil))
        // Downloads are large and one-off: they stay off the disk.
        cache = FileEntityCache(directory: cacheFolder, storing: { $0.url.lastPathComponent != "tarball" })
        cache.partition = setup.cachePartition
        let cache = cache
        let token = setup.token
        service.configure {
            $0.pipeline[.rawData].cacheUsing(cache)
            $0.freshness = .fromHTTPHeaders  // GitHub says max-age=60; the fixture says what its timing says
            $0.headers["Accept"] = "application/vnd.github+json"
            $0.headers["User-Agent"] = "repose-demo"
            if let token { $0.headers["Authorization"] = "Bearer \(token)" }
        }
        if startsCold { service.wipeResources() }
        search = SearchScreen(service: service, pause: setup.searchPause)
        stars = StarActions(service: service)
    }

    /// Shows `login`'s profile in place of the one on screen, and waits until it has loaded.
    func showProfile(_ login: String) async {
        repositoryList = nil
        let profile = ProfileScreen(service: service, login: login)
        self.profile = profile
        profile.show()
        await profile.settled()
    }

    /// The paged list of the profile's repositories, made on first use.
    func repositories() -> RepositoryList? {
        guard let profile else { return nil }
        if let repositoryList { return repositoryList }
        let list = RepositoryList(service: service, firstPage: profile.repositories)
        repositoryList = list
        return list
    }

    /// The `/repos/{owner}/{repo}` resource for `fullName` and `more` segments after it, or `nil` when
    /// `fullName` is not `OWNER/REPO`.
    func repository(_ fullName: String, _ more: String...) -> Resource? {
        let names = fullName.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard names.count == 2, !names[0].isEmpty, !names[1].isEmpty else { return nil }
        return service.resource(segments: ["repos"] + names + more)
    }

    /// Quits: waits until the service's pending disk writes are done, so that the next launch finds them.
    func quit() async {
        await service.flush()
    }
}
