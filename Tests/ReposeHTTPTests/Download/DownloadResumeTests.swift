import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Downloads that continue where they stopped (rule Q3): `URLSessionProvider` against the loopback server's `/ranged`
/// bodies, which serve byte ranges with an ETag, into a temporary folder.
@MainActor
@Suite("Q3 resumable downloads", .checksLifetimes)
final class DownloadResumeTests {
    let fixture: IntegrationFixture
    let folder: URL
    var service: Service { fixture.service }
    static let size = 600_000

    init() async throws {
        fixture = try await IntegrationFixture()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    var destination: URL { folder.appendingPathComponent("file.bin") }

    /// The bytes a `/ranged` body holds: each byte's value from its position. Made for each use: a static body of
    /// 600 KB would stay for the whole run, which the leak check reads as leaked.
    static var whole: Data { Data((0..<size).map { UInt8(($0 * 31 + 7) % 251) }) }

    /// What the folder holds, hidden files included.
    func folderContents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    func ranged(_ name: String, _ query: [String: String] = [:]) -> Resource {
        service.resource("/ranged/\(Self.size)").withParams(["name": name].merging(query) { $1 })
    }

    /// Downloads `resource` to the destination and returns whether it succeeded.
    func download(_ resource: Resource) async throws -> Bool {
        let info = try #require(await fixture.completion(of: resource.download(to: destination)))
        return info.response.error == nil
    }

    @Test("Q3 a download cut off after bytes arrived keeps them, and the next continues with Range and If-Range")
    func resumes() async throws {
        let body = ranged("a", ["cut": "200000"])
        #expect(try await !download(body))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(folderContents().contains { $0.hasSuffix(DownloadLeftovers.resumableSuffix) })
        #expect(try await download(body))
        #expect(await fixture.server.waitForMark("ranged a from 200000"))
        #expect(try Data(contentsOf: destination) == Self.whole)
        #expect(folderContents() == ["file.bin"])  // the kept bytes became the file; the note is gone
    }

    @Test("Q3 a server that does not serve ranges gets nothing kept, and the next download starts from the first byte")
    func serverWithoutRanges() async throws {
        let body = ranged("b", ["cut": "200000", "ranges": "0"])
        #expect(try await !download(body))
        #expect(folderContents() == [])
        #expect(try await download(body))
        #expect(try Data(contentsOf: destination) == Self.whole)
        #expect(folderContents() == ["file.bin"])
    }

    @Test("Q3 a body that changed since the bytes were kept comes whole, and the file holds only the new body")
    func changedBody() async throws {
        let body = ranged("c", ["cut": "200000"])
        #expect(try await !download(body))
        _ = await fixture.completion(of: service.resource("/ranged-change/c").load())
        #expect(try await download(body))
        #expect(await fixture.server.waitForMark("count ranged c 2"))
        #expect(try Data(contentsOf: destination) == Self.whole)
        #expect(folderContents() == ["file.bin"])
    }

    @Test("Q3 a 206 whose range does not continue the kept bytes fails the download and drops them; the next is whole")
    func rangeThatDoesNotContinue() async throws {
        let body = ranged("f", ["cut": "200000", "wrongstart": "1"])
        #expect(try await !download(body))
        #expect(try await !download(body))  // answered from byte 200,000 but said to start at 0
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(folderContents() == [])
        #expect(try await download(body))
        #expect(await fixture.server.waitForMark("count ranged f 3"))
        #expect(try Data(contentsOf: destination) == Self.whole)
    }

    @Test("Q3 a configured retry continues a cut-off download from where it stopped")
    func retryResumes() async throws {
        service.configure {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 2, baseDelay: 0.01, maximumDelay: 0.01, jitter: 0)
        }
        #expect(try await download(ranged("d", ["cut": "250000"])))
        #expect(await fixture.server.waitForMark("ranged d from 250000"))
        #expect(try Data(contentsOf: destination) == Self.whole)
        #expect(folderContents() == ["file.bin"])
    }

    @Test("Q3 T8 kept bytes that no download holds are removed with their note by the folder's clean-up")
    func cleanUp() async throws {
        #expect(try await !download(ranged("e", ["cut": "100000"])))
        #expect(folderContents().count == 2)  // the bytes and their note
        DownloadLeftovers.remove(in: folder)
        #expect(folderContents() == [])
    }
}
