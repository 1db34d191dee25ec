import Foundation

/// The servers nobody on the project wrote, which `.ci/interop` installs and starts on loopback before it runs this
/// target. Each address comes from an environment variable; a test that needs a server is enabled only when its
/// address is given, so a plain `swift test` skips this whole target.
enum InteropServers {
    /// nginx from the distribution's package, serving static files (`REPOSE_INTEROP_NGINX`, e.g.
    /// `http://127.0.0.1:18080`).
    static let nginx = address("REPOSE_INTEROP_NGINX")
    /// httpbin from PyPI (`REPOSE_INTEROP_HTTPBIN`).
    static let httpbin = address("REPOSE_INTEROP_HTTPBIN")
    /// An event-stream server from PyPI, the app in `Servers/sse_app.py` (`REPOSE_INTEROP_SSE`).
    static let eventStream = address("REPOSE_INTEROP_SSE")

    private static func address(_ variable: String) -> URL? {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return nil }
        return URL(string: text)
    }
}
