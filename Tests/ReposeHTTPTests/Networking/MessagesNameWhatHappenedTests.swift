import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Messages that name what happened on the wire")
final class MessagesNameWhatHappenedTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test(
        "W9 a response that is not HTTP (a malformed status line) is an unreadable response, not an invalid address",
        arguments: ["status", "version", "garbage"])
    func malformedResponse(kind: String) async throws {
        let error = try #require(
            await RecordingTransfer.send(URLRequest(url: server.url("/raw?kind=\(kind)")), to: provider).error())
        let message = NetworkErrorMessages.requestError(for: error, timestamp: 0).userMessage
        #expect(message == "The server's response could not be read.")
        #expect(!message.contains("address"))
    }

    @Test("W9 a multipart file that changed before its bytes were sent is named in the message")
    func changedFileIsNamed() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("holiday.jpg")
        try Data(repeating: 7, count: 400_000).write(to: file)
        let body = try MultipartBody(parts: [.file("photo", at: file)])
        try Data(repeating: 7, count: 1000).write(to: file)  // shorter than when the body was laid out

        let message = try #require(await uploadFailure(body))
        #expect(message.contains("holiday.jpg"), "\(message)")
        #expect(message.contains("changed or was removed"), "\(message)")
    }

    @Test("W9 a multipart file that vanished before its bytes were sent is named in the message")
    func vanishedFileIsNamed() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.pdf")
        try Data(repeating: 1, count: 10_000).write(to: file)
        let body = try MultipartBody(parts: [.field("a", "b"), .file("doc", at: file)])
        try FileManager.default.removeItem(at: file)

        let message = try #require(await uploadFailure(body))
        #expect(message.contains("report.pdf"), "\(message)")
    }

    /// Uploads `body` to `/discard` and returns the user message of the failure, or `nil` with an issue.
    func uploadFailure(_ body: MultipartBody, sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        var request = URLRequest(url: server.url("/discard"))
        request.httpMethod = "POST"
        request.httpBodyStream = MultipartBodyStream(body: body)
        request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
        guard let error = await RecordingTransfer.send(request, to: provider).error(sourceLocation: sourceLocation)
        else { return nil }
        return NetworkErrorMessages.requestError(for: error, timestamp: 0).userMessage
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-messages-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
