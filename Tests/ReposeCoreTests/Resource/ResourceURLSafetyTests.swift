import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Resource URLs: paths from user input and URLs that cannot be sent", .checksLifetimes)
struct ResourceURLSafetyTests {
    let harness = Harness()
    var service: Service { harness.service }

    /// Expects `resource` to stand for an invalid URL: its request fails at once with `InvalidURL` and a message
    /// fit for display, and nothing reaches the network.
    private func expectInvalid(
        _ resource: Resource, message: String = "Cannot send a request to an invalid URL.",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let request = resource.load()
        #expect(request.state == .completed, sourceLocation: sourceLocation)
        let error = request.completedResponse?.response.error
        #expect(error?.cause is RequestError.Cause.InvalidURL, sourceLocation: sourceLocation)
        #expect(error?.userMessage == message, sourceLocation: sourceLocation)
        #expect(harness.network.sent.isEmpty, sourceLocation: sourceLocation)
    }

    @Test(
        "D11 a URL whose port is out of range or whose host no resolver accepts fails at once with InvalidURL",
        arguments: [
            "http://127.0.0.1:70000/x", "https://foo.bar:65536/", "http://foo.bar:99999999999999999999/",
            "http://a%20b/x", "http://a$b/x", "http://a;b/x", "http://[v1.x]/", "https://foo,bar/",
        ])
    func unusableAbsoluteURL(string: String) {
        expectInvalid(service.resource(absoluteURL: string))
        expectInvalid(service.resource("/a").relative(string))
        expectInvalid(service.resource(baseURL: string, path: "x"))
        let unbased = Harness(baseURL: string)
        #expect(unbased.service.baseURL == nil)
    }

    @Test("the highest port and an empty port are still usable")
    func usablePorts() {
        service.resource(absoluteURL: "http://127.0.0.1:65535/x").load()
        service.resource(absoluteURL: "http://127.0.0.1:/x").load()
        #expect(
            harness.network.sent.map { $0.url } == [
                "http://127.0.0.1:65535/x", "http://127.0.0.1:/x",
            ])
    }

    @Test(
        "C3 D5 dots that are not whole segments are path text",
        arguments: [
            ("...", "https://zingle.frotz/v1/..."),
            (".x/x./..x", "https://zingle.frotz/v1/.x/x./..x"),
            ("%2E%2E/x", "https://zingle.frotz/v1/%252E%252E/x"),
        ])
    func dotsAsText(path: String, expected: String) {
        #expect(service.resource(path).url.absoluteString == expected)
        #expect(service.resource("").child(path).url.absoluteString == expected)
    }

    /// C3 and D5 once kept these as `%2E` / `%2E%2E`, which WHATWG URL parsers, browsers, Node and servers that
    /// decode before removing dot segments read as `..`: W3 refuses them instead.
    @Test(
        "W3 a dot segment in a path makes the resource invalid: loads fail at once with InvalidURL, naming the path",
        arguments: ["../../admin", "./x", "a/..", "..", ".", "a/./b", "/../x", "x/../../y"])
    func dotSegmentsRefused(path: String) {
        let message =
            "The path “\(path)” has a “.” or “..” segment, which could reach another address than the one written, "
            + "so it was not sent."
        let invalid = [
            service.resource(path), service.resource("files").child(path),
            service.resource(baseURL: "https://other.host/api", path: path),
            service.resource(baseURL: URL(string: "https://other.host/api"), path: path),
        ]
        for resource in invalid {
            #expect(resource.url.scheme == "repose-invalid-url")  // a placeholder, never sent
            expectInvalid(resource, message: message)
        }
    }

    @Test(
        "W3 child(segment:) of . or .. names no child: its loads fail at once with InvalidURL", arguments: [".", ".."])
    func dotSegmentRefused(segment: String) {
        let resource = service.resource("users").child(segment: segment)
        #expect(resource.url.scheme == "repose-invalid-url")
        expectInvalid(
            resource,
            message: "The path “\(segment)” has a “.” or “..” segment, which could reach another address than the one "
                + "written, so it was not sent.")
    }

    @Test("W3 relative(_:) still resolves dot segments as a link does")
    func relativeResolvesDots() {
        let page = service.resource("a/b/c")
        #expect(page.relative("../d").url.absoluteString == "https://zingle.frotz/v1/a/d")
        #expect(page.relative("./e/../f").url.absoluteString == "https://zingle.frotz/v1/a/b/f")
        #expect(page.relative("../../../../x").url.absoluteString == "https://zingle.frotz/x")
    }

    @Test(
        "child(segment:) adds exactly one segment, escaping everything that could navigate",
        arguments: [
            ("42", "https://zingle.frotz/v1/users/42"),
            ("...", "https://zingle.frotz/v1/users/..."),
            ("../admin", "https://zingle.frotz/v1/users/..%2Fadmin"),
            ("a/b", "https://zingle.frotz/v1/users/a%2Fb"),
            ("?q=1#top", "https://zingle.frotz/v1/users/%3Fq%3D1%23top"),
            ("%2E%2E", "https://zingle.frotz/v1/users/%252E%252E"),
            ("ü ;@:", "https://zingle.frotz/v1/users/%C3%BC%20%3B%40%3A"),
            ("A-z_0.9~", "https://zingle.frotz/v1/users/A-z_0.9~"),
            ("\\", "https://zingle.frotz/v1/users/%5C"),
        ])
    func segment(input: String, expected: String) {
        let users = service.resource("users")
        #expect(users.child(segment: input).url.absoluteString == expected)
        #expect(service.resource("users/").child(segment: input) === users.child(segment: input))
    }

    @Test("the examples of Docs/ServicesAndResources.md hold")
    func guideExamples() {
        let api = Harness(baseURL: "https://api.example.com/v1").service
        let users = api.resource("/users")
        #expect(users.child(segment: "ada").url.absoluteString == "https://api.example.com/v1/users/ada")
        #expect(users.child(segment: "../admin").url.absoluteString == "https://api.example.com/v1/users/..%2Fadmin")
        #expect(users.child(segment: "a b?c#d").url.absoluteString == "https://api.example.com/v1/users/a%20b%3Fc%23d")
        #expect(api.resource("/files").child("../admin").url.scheme == "repose-invalid-url")
        #expect(users.child("42/../../admin").url.scheme == "repose-invalid-url")
        #expect(
            api.resource(absoluteURL: "https://api.example.com/v1/x/../y").url.absoluteString
                == "https://api.example.com/v1/y")
        #expect(api.resource(absoluteURL: "https://api.example.com").url.absoluteString == "https://api.example.com/")
        #expect(users.child(segment: "a/b").url.absoluteString == "https://api.example.com/v1/users/a%2Fb")
    }

    @Test("D16 D18 a glob matches the URL that is sent: a path with .. does not match the path it would have reached")
    func globMatchesSentURL() {
        let api = Harness(baseURL: "https://api.example.com/v1").service
        let pattern = URLPattern(glob: "/admin/**", baseURL: api.baseURL)
        #expect(!pattern.matches(api.resource("/files/../admin").url))
        #expect(pattern.matches(api.resource("/admin/x").url))
    }

    @Test("child(segment:) of an empty string names no resource: its requests fail with InvalidURL")
    func emptySegment() {
        expectInvalid(service.resource("users").child(segment: ""))
    }

    @Test("D11 navigating from a resource with an invalid URL gives that invalid resource, never a sendable one")
    func navigationFromInvalid() {
        let invalid = service.resource(absoluteURL: "http://[bad")
        let derived = [
            invalid.child("x"), invalid.child(segment: "x"), invalid.relative("https://foo.bar/"),
            invalid.withParam("q", "1"), invalid.withParams(["q": "1"]),
        ]
        #expect(derived.allSatisfy { $0 === invalid })
        expectInvalid(invalid.child("x"))
    }

    @Test("child(segment:) keeps the parent's query, like child(_:)")
    func segmentKeepsQuery() {
        let keyed = Harness(baseURL: "https://foo.bar/v1?key=k")
        let user = keyed.service.resource("users").child(segment: "a/b")
        #expect(user.url.absoluteString == "https://foo.bar/v1/users/a%2Fb?key=k")
    }

    @Test("D10 an absolute URL has its dot segments removed, so its key is the URL that is sent")
    func absoluteURLDotSegments() {
        let resource = service.resource(absoluteURL: "https://foo.com/a/./b/../c?x=../y#../z")
        #expect(resource.url.absoluteString == "https://foo.com/a/c?x=../y#../z")
        #expect(resource === service.resource(absoluteURL: "https://foo.com/a/c?x=../y#../z"))
    }

    @Test("an http URL with an empty path is the host's root, which is what is sent")
    func emptyPath() {
        #expect(service.resource(absoluteURL: "https://foo.com").url.absoluteString == "https://foo.com/")
        #expect(service.resource(absoluteURL: "https://foo.com?q=1").url.absoluteString == "https://foo.com/?q=1")
        #expect(service.resource("a").relative("//other.host").url.absoluteString == "https://other.host/")
    }
}
