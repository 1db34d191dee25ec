import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Downloads to a file over real HTTP: `URLSessionProvider` and the loopback server, into a temporary folder.
@MainActor
@Suite("X2 downloads to a file", .checksLifetimes)
final class DownloadTests {
    let fixture: IntegrationFixture
    let folder: URL
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    var destination: URL { folder.appendingPathComponent("file.bin") }

    /// What the folder holds, temporary files included.
    func folderContents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("X2 the body lands whole at the destination, 0600, with progress; the entity's content is the file URL")
    func wholeAndPrivate() async throws {
        let size = 3 * 1024 * 1024
        var progress: [Double] = []
        let download = service.resource("/bytes/\(size)").download(to: destination).onProgress { progress.append($0) }
        let info = try #require(await fixture.completion(of: download))
        let entity = try #require(info.response.entity)
        #expect(entity.content as? URL == destination)
        #expect(entity.contentType == "application/octet-stream")
        #expect(try Data(contentsOf: destination) == Data(repeating: UInt8(ascii: "r"), count: size))
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(folderContents() == ["file.bin"])
        #expect(progress.count >= 2 && progress.last == 1)  // the body's first bytes at least, before the end
    }

    @Test("X2 W7 a body of unknown length moves the progress with its bytes, past what waiting alone shows")
    func unknownLengthProgress() async throws {
        let size = 3 * 1024 * 1024
        service.configure { $0.progressReportingInterval = 0 }  // each sample shows, however fast the loopback is
        var progress: [Double] = []
        let download = service.resource("/chunked/\(size)").download(to: destination).onProgress { progress.append($0) }
        let info = try #require(await fixture.completion(of: download))
        #expect(info.response.error == nil)
        #expect(try Data(contentsOf: destination).count == size)
        // Waiting for the response fills less than a third of the bar: only the body's bytes move it further.
        #expect(progress.contains { $0 > RequestProgress.waitingShare && $0 < 1 })
        #expect(progress.last == 1)
    }

    @Test("X2 a legal file name of 250 bytes downloads: the temporary file's name does not grow with it")
    func longFileName() async throws {
        let long = folder.appendingPathComponent(String(repeating: "n", count: 246) + ".bin")
        let info = try #require(await fixture.completion(of: service.resource("/bytes/1000").download(to: long)))
        #expect(info.response.error == nil, "\(info.response.error?.userMessage ?? "")")
        #expect(try Data(contentsOf: long).count == 1000)
        #expect(folderContents() == [long.lastPathComponent])
    }

    @Test("X2 an HTTP error leaves no file and keeps what was there; its error has status and body as a load's does")
    func httpError() async throws {
        try Data("old".utf8).write(to: destination)
        let info = try #require(await fixture.completion(of: service.resource("/status/404").download(to: destination)))
        let error = try #require(info.response.error)
        #expect(error.httpStatusCode == 404)
        #expect(error.text == "status 404")  // read and parsed as a load's error body
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(folderContents() == ["file.bin"])
    }

    @Test("X2 a transfer cut short fails and leaves no partial file")
    func cutShort() async throws {
        let download = service.resource("/large/10000000").withParam("cut", "3000000").download(to: destination)
        let info = try #require(await fixture.completion(of: download))
        #expect(info.response.error != nil)
        #expect(folderContents() == [])
    }

    /// What a progress hook saw at 1: how the download ended, and the bytes behind the fraction.
    private func endingSeenAtOne(_ download: Request) async -> (String, TransferProgress)? {
        var seen: (String, TransferProgress)?
        download.onProgress { [weak download] fraction in
            guard fraction == 1, let download, let outcome = download.completedResponse?.response else { return }
            let ending =
                switch outcome {
                case .success: "finished"
                case .failure(let error) where error.isCancellation: "cancelled"
                case .failure: "failed"
                }
            seen = (ending, download.transfer)
        }
        _ = await fixture.completion(of: download)
        return seen
    }

    @Test("P1 a progress hook at 1 tells a finished download from a failed one, with the bytes received and expected")
    func progressOneTellsTheEnding() async throws {
        let size = 3 * 1024 * 1024
        let finished = service.resource("/bytes/\(size)").download(to: destination)
        let (ending, bytes) = try #require(await endingSeenAtOne(finished))
        #expect(ending == "finished")
        #expect(bytes.bytesReceived == Int64(size))
        #expect(bytes.bytesExpectedToReceive == Int64(size))

        let cut = service.resource("/large/10000000").withParam("cut", "3000000").download(to: destination)
        let (cutEnding, cutBytes) = try #require(await endingSeenAtOne(cut))
        #expect(cutEnding == "failed")
        #expect(cutBytes.bytesExpectedToReceive == 10_000_000)
        #expect(cutBytes.bytesReceived <= 3_000_000)
    }

    @Test("X2 cancelling a download mid-transfer leaves no partial file, and the destination as it was")
    func cancelled() async throws {
        try Data("old".utf8).write(to: destination)
        // The server sends headers and part of the body, then waits until the client goes.
        let download = service.resource("/hang").withParam("at", "body").download(to: destination)
        try #require(await fixture.server.waitForMark("hang body"))
        #expect(folderContents().count == 2)  // the temporary file, while it runs
        download.cancel()
        #expect(folderContents() == ["file.bin"])
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
    }

    @Test("X2 a resource loaded with a download holds the file URL as its content")
    func resourcePointsAtFile() async throws {
        let resource = service.resource("/bytes/1000")
        let info = try #require(await fixture.completion(of: resource.load(using: resource.download(to: destination))))
        #expect(info.response.error == nil)
        #expect(resource.latestData?.content as? URL == destination)
        #expect(try Data(contentsOf: destination).count == 1000)
    }

    @Test("X2 a download's one-off headers go with it, after the configured ones, as on any request")
    func oneOffHeaders() async throws {
        service.configure { $0.headers["X-Client"] = "configured" }
        let download = service.resource("/echo").download(
            to: destination, headers: ["X-Trace": "abc"],
            requestMutation: { $0.setValue("late", forHTTPHeaderField: "X-Late") })
        let info = try #require(await fixture.completion(of: download))
        #expect(info.response.error == nil)
        let echo = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: destination)) as? [String: Any])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["x-trace"] == "abc" && headers["x-client"] == "configured" && headers["x-late"] == "late")
    }

    @Test("X2 a download carries the authenticator's credential, and a 401 renews it and downloads again")
    func authenticated() async throws {
        let auth = Authenticator(credential: "stale") { service in
            try await service.resource("/auth/refresh").request(.get).content(as: String.self)
        }
        service.configure("/auth/private/**") { $0.authenticator = auth }
        let download = service.resource("/auth/private/report").download(to: destination)
        let info = try #require(await fixture.completion(of: download))
        #expect(info.response.error == nil)
        #expect(try Data(contentsOf: destination) == Data("private report".utf8))
        #expect(auth.credential == "fresh-token")
    }

    @Test("X2 a destination whose folder cannot hold the file fails with a message that names the file, and no file")
    func unwritableFolder() async throws {
        let missing = folder.appendingPathComponent("missing/report.pdf")
        let download = service.resource("/bytes/16").download(to: missing)
        let info = try #require(await fixture.completion(of: download))
        let error = try #require(info.response.error)
        #expect(error.userMessage == "The download could not be saved as “report.pdf”.")
        #expect((error.cause as? RequestError.Cause.DownloadFileFailed)?.fileURL == missing)
        #expect(folderContents().isEmpty)
    }

    @Test("X2 a retry policy downloads again after a failed attempt, into a fresh file")
    func retried() async throws {
        service.configure {
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 0.01, maximumDelay: 0.01, jitter: 0)
        }
        let download = service.resource("/flaky/download").download(to: destination)
        let info = try #require(await fixture.completion(of: download))
        #expect(info.response.error == nil)
        #expect(try Data(contentsOf: destination) == Data("attempt 2".utf8))
        #expect(folderContents() == ["file.bin"])
    }
}
