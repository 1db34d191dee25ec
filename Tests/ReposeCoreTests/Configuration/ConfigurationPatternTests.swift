import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The pure matcher has its own tables (`URLPatternTests`); these check each rule once through `configure` with
/// real resources.
@MainActor
@Suite("Configuration by pattern", .checksLifetimes)
struct ConfigurationPatternTests {
    let harness = Harness()
    var service: Service { harness.service }

    /// Whether a configuration added with `pattern` reaches the resource at `url` (absolute, or relative to base).
    private func configured(_ pattern: any ConfigurationPatternConvertible, reaches urls: [String]) -> [Bool] {
        service.configure(pattern) { $0.headers["X-Matched"] = "yes" }
        return urls.map { url in
            let resource = url.contains("://") ? service.resource(absoluteURL: url) : service.resource(url)
            return resource.configuration.headers["X-Matched"] == "yes"
        }
    }

    @Test("D18 string patterns are relative to the base URL, leading slash optional, and match from the start")
    func relativeToBase() {
        let urls = ["/a/b", "https://zingle.frotz/v1/a/b", "/x/a/b", "https://zingle.frotz/a/b"]
        #expect(configured("/a/b", reaches: urls) == [true, true, false, false])
        #expect(configured("a/*", reaches: ["/a/c", "/x/a/c"]) == [true, false])
    }

    @Test("D18 a string pattern that begins with a scheme is absolute")
    func absolutePattern() {
        let urls = ["https://other.host/a/b", "/a/b", "http://other.host/a/b"]
        #expect(configured("https://other.host/**", reaches: urls) == [true, false, false])
    }

    @Test("D19 * stays within a segment, ** crosses segments, ? is one character, and : ! @ $ are literal")
    func wildcards() {
        #expect(configured("/users/*", reaches: ["/users/7", "/users/", "/users/7/posts"]) == [true, true, false])
        #expect(
            configured("/users/**/posts", reaches: ["/users/7/x/posts", "/users/posts", "/users/7/post"])
                == [true, true, false])
        #expect(configured("/v?/x", reaches: ["/v2/x", "/v/x", "/v22/x"]) == [true, false, false])
        #expect(configured("/a:b!c@d$e", reaches: ["/a:b!c@d$e", "/a:b!c@d$f"]) == [true, false])
    }

    @Test("D20 wildcards work in the host and the port")
    func hostAndPort() {
        let urls = ["https://foo.com:8080/x", "https://foo.com/x", "https://bar.com:8080/x"]
        #expect(configured("https://foo.com:*/**", reaches: urls) == [true, false, false])
        #expect(configured("https://*:8080/**", reaches: urls) == [true, false, true])
    }

    @Test("D21 the query string is ignored by glob patterns")
    func queryIgnored() {
        service.configure("/a/b") { $0.expirationTime = 5 }
        #expect(service.resource("/a/b").withParam("page", "2").configuration.expirationTime == 5)
        #expect(service.resource("/a/b").withParams(["x": "1", "y": ""]).configuration.expirationTime == 5)
    }

    @Test("D22 without a base URL, string patterns are matched as absolute text")
    func noBaseURL() {
        let bare = Harness(baseURL: nil)
        bare.service.configure("https://zingle.frotz/**") { $0.expirationTime = 5 }
        bare.service.configure("/a/b") { $0.retryTime = 5 }
        let resource = bare.service.resource(absoluteURL: "https://zingle.frotz/a/b")
        #expect(resource.configuration.expirationTime == 5)
        #expect(resource.configuration.retryTime == 1)
    }

    @Test("D23 a regular expression matches any part of the full URL, with its options")
    func regularExpression() throws {
        let regex = try NSRegularExpression(pattern: "/A/[a-z]$", options: [.caseInsensitive])
        let urls = ["/a/b", "https://elsewhere.org/x/a/c", "/a/bc", "/a/b?x=1"]
        #expect(configured(regex, reaches: urls) == [true, true, false, false])
    }

    @Test("D23 a Swift Regex works as a pattern too, query included")
    func swiftRegex() {
        let urls = ["/a/b?Page=2", "/a/b?page=2", "/a/b"]
        #expect(configured(/page=\d/.ignoresCase(), reaches: urls) == [true, true, false])
    }

    @Test("a pattern is compiled once per configure call, however many resources it is tested against")
    func compiledOnce() {
        let pattern = CountingPattern()
        service.configure(pattern) { $0.expirationTime = 5 }
        let resources = (0..<5).map { service.resource("/r\($0)") }
        #expect(resources.map(\.configuration.expirationTime) == [30, 30, 5, 30, 30])
        service.invalidateConfiguration()
        #expect(resources.map { $0.configuration(for: .post).expirationTime } == [30, 30, 5, 30, 30])
        #expect(pattern.compilations == 1)
        #expect(pattern.tests == 10)
    }

    @Test("the configuration's description is the given label, or else the pattern's text")
    func entryDescriptions() {
        service.configure("/a/*") { _ in }
        service.configure("/a/*", description: "area A") { _ in }
        service.configure { _ in }
        #expect(service.core.configurationEntries.map(\.description).suffix(3) == ["/a/*", "area A", "all resources"])
    }

    @Test("a pattern's text is the configuration's default description")
    func descriptions() throws {
        #expect("/a/*".configurationPatternDescription == "/a/*")
        #expect(try NSRegularExpression(pattern: "x+").configurationPatternDescription == "/x+/")
        #expect(service.resource("/a").configurationPatternDescription == "https://zingle.frotz/v1/a")
    }

    @Test("a resource pattern matches exactly its URL, query included")
    func resourcePattern() {
        let target = service.resource("/a").withParam("x", "1")
        #expect(configured(target, reaches: ["/a", "/a/b", "https://zingle.frotz/v1/a?x=1"]) == [false, false, true])
    }
}

/// A pattern that counts how often it is compiled and tested; it matches `/r2` only.
@MainActor
final class CountingPattern: ConfigurationPatternConvertible {
    private(set) var compilations = 0
    private(set) var tests = 0

    func configurationPattern(for service: Service) -> (URL) -> Bool {
        compilations += 1
        return { [unowned self] url in
            tests += 1
            return url.path.hasSuffix("/r2")
        }
    }

    var configurationPatternDescription: String { "counting" }
}
