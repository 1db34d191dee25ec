import Foundation
import Repose
import Testing

/// nginx, as Debian ships it, serving static files the interop script wrote, with gzip and validators on.
@MainActor
@Suite("nginx: static files, gzip and validators", .enabled(if: InteropServers.nginx != nil))
struct NginxWireTests {
    let service: Service

    init() throws {
        service = try Interop.service(InteropServers.nginx)
    }

    @Test("R3 a second load of a file with an ETag is answered 304: the data stays and is not new")
    func etagRevalidation() async throws {
        let resource = service.resource("/greeting.json")
        let first = try #require(await Interop.outcome(of: resource.load()))
        #expect(first.isNew)
        #expect(resource.latestData?.jsonDict["name"] as? String == "Repose")
        #expect(resource.latestData?.etag != nil)
        let second = try #require(await Interop.outcome(of: resource.load()))
        #expect(!second.isNew)
        #expect(resource.latestData?.jsonDict["name"] as? String == "Repose")
    }

    @Test("R3 a file with only Last-Modified is revalidated with If-Modified-Since and answered 304")
    func lastModifiedRevalidation() async throws {
        let resource = service.resource("/plain/small.txt")
        let first = try #require(await Interop.outcome(of: resource.load()))
        #expect(first.isNew)
        #expect(resource.latestData?.etag == nil)
        let second = try #require(await Interop.outcome(of: resource.load()))
        #expect(!second.isNew)
        #expect(resource.latestData?.text == "static text\n")
    }

    @Test("F1 R3 a gzipped text file arrives decoded and whole, and its weak ETag still revalidates")
    func gzipText() async throws {
        let resource = service.resource("/large.txt")
        let entity = try #require(await Interop.entity(of: resource.load()))
        let text = try #require(entity.content as? String)
        #expect(text.split(separator: "\n").count == 4000)
        #expect(text.hasPrefix("line 00000: the quick brown fox"))
        #expect(entity.header(forKey: "Content-Encoding") == "gzip")
        #expect(try #require(await Interop.outcome(of: resource.load())).isNew == false)
    }

    @Test("F8 bytes that are not JSON under a JSON content type are a clean error, not a crash")
    func garbageJSON() async throws {
        let error = try #require(await Interop.error(of: service.resource("/garbage.json").load()))
        #expect(error.userMessage == "Cannot parse server response")
        #expect(error.httpStatusCode == nil)
    }

    @Test("A14 a missing file is a 404 error with its reason")
    func missing() async throws {
        let error = try #require(await Interop.error(of: service.resource("/nothing-here.json").load()))
        #expect(error.httpStatusCode == 404)
    }
}
