import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("The response size limit over real HTTP", .checksLifetimes, .hangLimit)
final class URLSessionProviderLimitTests {
    let fixture: IntegrationFixture
    var provider: URLSessionProvider { fixture.provider }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// Loads `path` (with `query`'s parameters) with `limit` as its `maximumResponseSize` (the default unless given).
    func load(
        _ path: String, _ query: [String: String] = [:], limit: Int? = nil, method: RequestMethod = .get
    ) async -> Response? {
        if let limit { fixture.service.configure(path) { $0.maximumResponseSize = limit } }
        let resource = fixture.service.resource(path).withParams(query.mapValues { Optional($0) })
        return await fixture.completion(of: resource.request(method))?.response
    }

    @Test("a 10 MB body loads in full under the default limit")
    func tenMegabytesLoad() async throws {
        let size = 10 * 1024 * 1024
        let entity = try #require(await load("/bytes/\(size)")?.entity)
        #expect((entity.content as? Data)?.count == size)
    }

    @Test("a small gzip body that inflates past the default limit fails with ResponseTooLarge, and its transfer stops")
    func gzipBombUnderTheDefaultLimit() async throws {
        let error = try #require(await load("/gzip", ["size": "\(64 * 1024 * 1024)"])?.error)
        let cause = try #require(error.cause as? RequestError.Cause.ResponseTooLarge)
        #expect(cause.maximumSize == 32 * 1024 * 1024)
        #expect(error.userMessage == "The server's response was too large.")
        #expect(await eventually { self.provider.delegate?.activeTransferCount == 0 })
    }

    @Test("a gzip body that inflates past a given limit fails, one that stays under it loads inflated")
    func gzipAgainstAGivenLimit() async throws {
        let tooLarge = try #require(await load("/gzip", ["size": "300000"], limit: 200_000)?.error)
        #expect(tooLarge.cause is RequestError.Cause.ResponseTooLarge)
        let fits = try #require(await load("/gzip", ["size": "200000"], limit: 200_000)?.entity)
        #expect(fits.content as? Data == Data(repeating: UInt8(ascii: "z"), count: 200_000))
    }

    @Test("a body announced larger than the limit fails at once, before it is sent")
    func announcedTooLarge() async throws {
        // The server would take seconds to send the announced bytes; the failure comes from the announcement.
        let error = try #require(await load("/drop", ["announce": "50000000", "send": "1000"], limit: 1000)?.error)
        #expect((error.cause as? RequestError.Cause.ResponseTooLarge)?.maximumSize == 1000)
        #expect(await eventually { self.provider.delegate?.activeTransferCount == 0 })
    }

    @Test("a HEAD answer announcing a body larger than the limit succeeds: no body comes")
    func headIsNotTooLarge() async throws {
        let entity = try #require(await load("/bytes/100000", limit: 1000, method: .head)?.entity)
        #expect((entity.content as? Data)?.isEmpty == true)
    }

    @Test("a body without a length fails as soon as what arrived passes the limit")
    func chunkedTooLarge() async throws {
        let error = try #require(await load("/chunked/\(4 * 1024 * 1024)", limit: 100_000)?.error)
        #expect(error.cause is RequestError.Cause.ResponseTooLarge)
        #expect(await eventually { self.provider.delegate?.activeTransferCount == 0 })
    }

    @Test("a body exactly at the limit loads")
    func exactlyAtTheLimit() async throws {
        #expect((try #require(await load("/bytes/5000", limit: 5000)?.entity).content as? Data)?.count == 5000)
        #expect((try #require(await load("/chunked/5000", limit: 5000)?.entity).content as? Data)?.count == 5000)
    }

    @Test("U1 a sink that wants no more stops the transfer: the provider forgets it and calls it no more")
    func refusingSinkStops() async throws {
        let recording = RecordingTransfer.send(
            URLRequest(url: fixture.server.url("/chunked/\(4 * 1024 * 1024)")), to: provider, refusingPast: 100_000)
        #expect(try #require(await recording.error()) is RequestError.Cause.ResponseTooLarge)
        #expect(await eventually { self.provider.delegate?.activeTransferCount == 0 })
        #expect(recording.completionCount == 1)  // the refusal; no `finish` after it
        #expect(recording.pieceSizes.dropLast().reduce(0, +) <= 100_000)
    }
}
