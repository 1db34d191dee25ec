import Foundation
import Repose

extension StubNetworkingProvider {
    /// Adds a stub that answers `method` requests to exactly `url` with a JSON object.
    ///
    /// ```swift
    /// network.stub(.get, "https://api.example.com/users/1", json: ["name": "Ada"])
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to match.
    ///   - url: The whole URL to match, as text.
    ///   - status: The HTTP status; 200 unless given.
    ///   - headers: Response headers; `Content-Type: application/json` unless they name one.
    ///   - json: The response body.
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(
        _ method: RequestMethod, _ url: String, status: Int = 200, headers: [String: String] = [:],
        json: [String: Any]
    ) -> StubRoute {
        stub(StubMatcher(method, url), .json(json, status: status, headers: headers))
    }

    /// Adds a stub that answers `method` requests to exactly `url` with a JSON array.
    ///
    /// ```swift
    /// network.stub(.get, "https://api.example.com/users", json: [["id": 1], ["id": 2]])
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(
        _ method: RequestMethod, _ url: String, status: Int = 200, headers: [String: String] = [:], json: [Any]
    ) -> StubRoute {
        stub(StubMatcher(method, url), .json(json, status: status, headers: headers))
    }

    /// Adds a stub that answers `method` requests to exactly `url` with UTF-8 text.
    ///
    /// ```swift
    /// network.stub(.post, "https://api.example.com/users", status: 201, text: "created")
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(
        _ method: RequestMethod, _ url: String, status: Int = 200, headers: [String: String] = [:], text: String
    ) -> StubRoute {
        stub(StubMatcher(method, url), .text(text, status: status, headers: headers))
    }

    /// Adds a stub that answers `method` requests to exactly `url` with raw bytes, or with no body at all.
    ///
    /// ```swift
    /// network.stub(.delete, "https://api.example.com/users/1", status: 204)
    /// network.stub(.get, "https://api.example.com/logo", headers: ["Content-Type": "image/png"], data: png)
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(
        _ method: RequestMethod, _ url: String, status: Int = 200, headers: [String: String] = [:],
        data: Data = Data()
    ) -> StubRoute {
        stub(StubMatcher(method, url), .data(data, status: status, headers: headers))
    }

    /// Adds a stub that fails `method` requests to exactly `url` with a transport error.
    ///
    /// ```swift
    /// network.stub(.get, "https://api.example.com/down", error: URLError(.notConnectedToInternet))
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(_ method: RequestMethod, _ url: String, error: any Error) -> StubRoute {
        stub(StubMatcher(method, url), .error(error))
    }

    /// Adds a stub that answers successive `method` requests to exactly `url` with successive `responses`,
    /// repeating the last one once they run out.
    ///
    /// ```swift
    /// network.stub(.get, "https://api.example.com/counter", responses: [.json(["n": 1]), .json(["n": 2])])
    /// ```
    ///
    /// - Returns: The stub, to hold its responses or see its requests.
    @discardableResult
    public func stub(_ method: RequestMethod, _ url: String, responses: [StubResponse]) -> StubRoute {
        stub(StubMatcher(method, url), responses: responses)
    }

    /// Adds a stub that holds every request `matcher` accepts until the test answers it, with a response chosen
    /// then: see ``StubRoute/respond(_:toHeldAt:)``.
    ///
    /// ```swift
    /// let everything = network.hold(StubMatcher(nil, where: { _ in true }))
    /// ```
    ///
    /// The stub has no response of its own: ``StubRoute/release()`` completes its requests with a ``StubError``.
    ///
    /// - Returns: The stub, to answer its requests, wait for them and see them.
    @discardableResult
    public func hold(_ matcher: StubMatcher) -> StubRoute {
        let state = RouteState(matcher: matcher, responses: [])
        state.isHolding = true
        store.add(state)
        return StubRoute(store: store, state: state)
    }

    /// Adds a stub that holds every `method` request to exactly `url` until the test answers it.
    ///
    /// ```swift
    /// let user = network.hold(.get, "https://api.example.com/users/1")
    /// resource.load()
    /// await user.requested()
    /// await user.respond(.json(["name": "Ada"]))
    /// ```
    ///
    /// - Returns: The stub, to answer its requests, wait for them and see them.
    @discardableResult
    public func hold(_ method: RequestMethod?, _ url: String) -> StubRoute {
        hold(StubMatcher(method, url))
    }
}
