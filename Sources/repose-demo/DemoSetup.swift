import Foundation
import Repose

/// Which API the demo talks to and how: the embedded fixture (the default), or a live API of GitHub's shape.
struct DemoSetup {
    /// The API's base URL.
    let baseURL: String
    /// What sends the requests: the fixture, or `URLSession`.
    let networking: any NetworkingProvider
    /// The embedded API, when the demo runs on it; `offline` and `online` switch it.
    let fixture: FixtureAPI?
    /// Sent as `Authorization: Bearer …`; never printed, never written to disk.
    let token: String?
    /// The user shown first.
    let login: String
    /// How long typing must pause before a search is sent, and how fast the tour types.
    var searchPause = Duration.milliseconds(300)
    var keystrokeInterval = Duration.milliseconds(90)

    /// The embedded fixture API, with `timing`.
    static func fixture(timing: FixtureAPI.Timing, login: String?) -> DemoSetup {
        let fixture = FixtureAPI(timing: timing)
        return DemoSetup(
            baseURL: FixtureAPI.baseURL, networking: fixture, fixture: fixture, token: nil, login: login ?? "ada")
    }

    /// A live API at `baseURL`, through `URLSession`.
    static func live(baseURL: String, token: String?, login: String?) -> DemoSetup {
        DemoSetup(
            baseURL: baseURL, networking: URLSessionProvider(), fixture: nil, token: token, login: login ?? "octocat")
    }

    /// Where the disk cache lives across runs: a folder of the user's caches (the temporary folder if there is
    /// none).
    static var cacheFolder: URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        return (caches ?? FileManager.default.temporaryDirectory).appendingPathComponent("repose-demo")
    }

    /// The cache partition: the base URL and a fingerprint of the token, so that data cached for one API or one
    /// account is never shown for another, and the token itself is never written.
    var cachePartition: String {
        "\(baseURL) \(token.map { "token-" + Fingerprint.hex(of: Array($0.utf8)) } ?? "anonymous")"
    }
}
