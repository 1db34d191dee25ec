import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Multipart uploads through URLSession to a server that parses them strictly (rule M12).
@MainActor
@Suite("Multipart uploads over real HTTP", .checksLifetimes, .hangLimit)
final class MultipartIntegrationTests {
    let fixture: IntegrationFixture

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    /// The server's report of what it parsed, or nil (with an issue) when the upload failed.
    private func upload(_ parts: [MultipartPart]) async throws -> [String: Any]? {
        let request = fixture.service.resource("/multipart").request(.post, multipart: parts)
        let info = try #require(await fixture.completion(of: request))
        #expect(info.response.error == nil, "\(String(describing: info.response.error))")
        return info.response.entity?.content as? [String: Any]
    }

    @Test("M12 text fields, bytes and a file arrive as parts with their names, file names, types and contents")
    func partsArriveWhole() async throws {
        let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let file = try temporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try #require(
            await upload([
                .field("caption", "Café at dawn, “quoted”"),
                .data("meta", Data("{\"a\":1}".utf8), fileName: "meta.json", contentType: "application/json"),
                .file("photo", at: file, fileName: "dawn.jpg", contentType: "image/jpeg"),
            ]))
        let parts = try #require(report["parts"] as? [[String: Any]])
        try #require(parts.count == 3)
        #expect(parts[0]["name"] as? String == "caption")
        #expect(parts[0]["text"] as? String == "Café at dawn, “quoted”")
        #expect(parts[0]["filename"] == nil)
        #expect(parts[1]["filename"] as? String == "meta.json")
        #expect(parts[1]["type"] as? String == "application/json")
        #expect(parts[1]["text"] as? String == "{\"a\":1}")
        #expect(parts[2]["name"] as? String == "photo")
        #expect(parts[2]["filename"] as? String == "dawn.jpg")
        #expect(parts[2]["type"] as? String == "image/jpeg")
        #expect(parts[2]["length"] as? Int == contents.count)
        #expect(parts[2]["crc32"] as? Int == Int(CRC32.checksum(contents)))
    }

    @Test("M12 the body is streamed: its declared length on Apple platforms, chunked on swift-corelibs-foundation")
    func streamedBodyFraming() async throws {
        let report = try #require(await upload([.field("a", "b")]))
        let length = try #require(report["bodyLength"] as? Int)
        #if canImport(FoundationNetworking)
        #expect(report["transferEncoding"] as? String == "chunked")
        #else
        #expect(report["contentLength"] as? String == String(length))
        #endif
    }

    @Test("M12 the provider reports upload progress against the body's length, up to every byte")
    func uploadProgress() async throws {
        let file = try temporaryFile(Data(repeating: 0x5A, count: 3_000_000))
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try MultipartBody(parts: [.file("blob", at: file)])
        var urlRequest = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(fixture.server.port)/discard")))
        urlRequest.httpMethod = "POST"
        urlRequest.httpBodyStream = MultipartBodyStream(body: body)
        urlRequest.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
        let recording = RecordingTransfer.send(urlRequest, to: fixture.provider)
        #expect(await recording.response()?.statusCode == 200)
        let sent = recording.progressSamples.filter { $0.bytesSent > 0 }
        #expect(!sent.isEmpty, "no upload progress was reported")
        #expect(sent.allSatisfy { $0.bytesExpectedToSend == body.length })
        #expect(sent.last?.bytesSent == body.length)
    }

    @Test("M12 a request's progress reaches 1 when the upload completes")
    func requestProgressCompletes() async throws {
        let file = try temporaryFile(Data(repeating: 1, count: 1_000_000))
        defer { try? FileManager.default.removeItem(at: file) }
        let request = fixture.service.resource("/discard").request(.post, multipart: [.file("f", at: file)])
        let info = try #require(await fixture.completion(of: request))
        #expect((info.response.entity?.content as? [String: Any])?["received"] as? Int ?? 0 > 1_000_000)
        #expect(request.progress == 1)
    }
}

/// The CRC-32 (IEEE) of bytes, as Python's `zlib.crc32` computes it: enough to tell that a file arrived intact.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
