import Foundation
import Repose
import Testing

/// Downloads cancelled midway and downloaded again from nginx (rule Q3): its static files come with a strong ETag
/// and byte ranges, or, under `/noranges/`, without ranges.
@MainActor
@Suite("nginx: downloads that resume", .enabled(if: InteropServers.nginx != nil))
final class ResumeInteropTests {
    let service: Service
    let folder: URL

    init() throws {
        service = try Interop.service(InteropServers.nginx)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Downloads `path` to `name` in the folder, cancelling once the first bytes arrived; then downloads it again,
    /// and returns the second download's entity and whether bytes were kept in between.
    private func cancelThenDownload(_ path: String, to name: String) async throws -> (Entity<Any>, Bool) {
        let destination = folder.appendingPathComponent(name)
        let first = service.resource(path).download(to: destination)
        first.onProgress { [weak first] fraction in  // progress moves with time too: wait for bytes
            if let first, first.transfer.bytesReceived > 0, fraction < 1 { first.cancel() }
        }
        let cancelled = try #require(await Interop.outcome(of: first))
        #expect(cancelled.response.error?.isCancellation == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let kept = names.contains { $0.hasSuffix(".resumable") }
        let entity = try #require(await Interop.entity(of: service.resource(path).download(to: destination)))
        return (entity, kept)
    }

    @Test("Q3 a download cancelled midway continues with Range and If-Range, and the file is the whole file's bytes")
    func resumes() async throws {
        let whole = folder.appendingPathComponent("whole.bin")
        _ = try #require(await Interop.entity(of: service.resource("/blob.bin").download(to: whole)))
        let (entity, kept) = try await cancelThenDownload("/slow/blob.bin", to: "resumed.bin")
        #expect(kept)
        #expect(entity.header(forKey: "Content-Range") != nil)  // a 206: only the rest was sent
        #expect(try Data(contentsOf: folder.appendingPathComponent("resumed.bin")) == Data(contentsOf: whole))
    }

    @Test("Q3 from a server that does not serve ranges nothing is kept, and the download starts again whole")
    func withoutRanges() async throws {
        let whole = folder.appendingPathComponent("whole.bin")
        _ = try #require(await Interop.entity(of: service.resource("/blob.bin").download(to: whole)))
        let (entity, kept) = try await cancelThenDownload("/noranges/blob.bin", to: "again.bin")
        #expect(!kept)
        #expect(entity.header(forKey: "Content-Range") == nil)
        #expect(try Data(contentsOf: folder.appendingPathComponent("again.bin")) == Data(contentsOf: whole))
    }
}
