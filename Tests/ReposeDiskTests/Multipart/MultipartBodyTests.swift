import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// The bytes of a `multipart/form-data` body, the boundary's choice, and the stream that reads files from disk
/// (rule M12). Over real HTTP: MultipartIntegrationTests.
@Suite("Multipart bodies")
struct MultipartBodyTests {
    /// Everything a stream produces, or nil when it fails.
    static func drain(_ stream: InputStream, chunk: Int = 7) -> Data? {
        stream.open()
        defer { stream.close() }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: chunk)
        for _ in 0..<10_000_000 {  // bounded: a stream that never ends fails the test instead of hanging
            let count = stream.read(&buffer, maxLength: chunk)
            if count < 0 { return nil }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
        }
        return nil
    }

    @Test("M12 fields and data parts are framed with CRLF, the boundary, and escaped names")
    func exactBytes() throws {
        let body = try MultipartBody(
            parts: [
                .field("title", "Holiday\nsnaps"),
                .data("notes", Data("a,b".utf8), fileName: "say \"hi\".csv", contentType: "text/csv"),
            ],
            makeBoundary: { "XYZ" })
        let expected =
            "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\nsnaps"
            + "\r\n--XYZ\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"say %22hi%22.csv\"\r\n"
            + "Content-Type: text/csv\r\n\r\na,b\r\n--XYZ--\r\n"
        #expect(Self.drain(MultipartBodyStream(body: body)) == Data(expected.utf8))
        #expect(body.length == Int64(Data(expected.utf8).count))
        #expect(body.contentType == "multipart/form-data; boundary=XYZ")
    }

    @Test("M12 an empty form is only the closing delimiter")
    func emptyForm() throws {
        let body = try MultipartBody(parts: [], makeBoundary: { "XYZ" })
        #expect(Self.drain(MultipartBodyStream(body: body)) == Data("--XYZ--\r\n".utf8))
    }

    @Test("M12 a boundary found in a part is replaced by another that occurs in none")
    func boundaryAvoidsInMemoryParts() throws {
        var candidates = ["taken", "named", "fresh"]
        let body = try MultipartBody(
            parts: [.field("named", "already taken")], makeBoundary: { candidates.removeFirst() })
        #expect(body.boundary == "fresh")
    }

    @Test("M12 a file part is read from disk, chunk by chunk, between in-memory parts")
    func filePartStreams() throws {
        let contents = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try temporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try MultipartBody(
            parts: [.field("a", "1"), .file("photo", at: file, contentType: "image/png"), .field("b", "2")],
            makeBoundary: { "Bq" })
        let head =
            "--Bq\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--Bq\r\n"
            + "Content-Disposition: form-data; name=\"photo\"; filename=\"\(file.lastPathComponent)\"\r\n"
            + "Content-Type: image/png\r\n\r\n"
        let tail = "\r\n--Bq\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--Bq--\r\n"
        let expected = Data(head.utf8) + contents + Data(tail.utf8)
        #expect(body.length == Int64(expected.count))
        #expect(Self.drain(MultipartBodyStream(body: body), chunk: 4096) == expected)
        // A new stream reads the file again, as a retry does.
        #expect(Self.drain(MultipartBodyStream(body: body), chunk: 65_536) == expected)
    }

    @Test("M12 a file that turns out to hold the boundary fails the stream rather than send a broken body")
    func boundaryInsideFileFails() throws {
        // The boundary straddles two reads of 7 bytes, so the scanner must look across chunks.
        let file = try temporaryFile(Data("0123456789-SECRET-BOUNDARY-0123".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try MultipartBody(parts: [.file("f", at: file)], makeBoundary: { "SECRET-BOUNDARY" })
        let stream = MultipartBodyStream(body: body)
        #expect(Self.drain(stream) == nil)
        #expect(stream.streamError != nil)
    }

    @Test("M12 a file that shrinks or grows after the request was made fails the stream")
    func changedFileFails() throws {
        let file = try temporaryFile(Data(repeating: 1, count: 1000))
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try MultipartBody(
            parts: [.file("f", at: file)], makeBoundary: { "B" + String(repeating: "x", count: 9) })
        try Data(repeating: 1, count: 10).write(to: file)
        #expect(Self.drain(MultipartBodyStream(body: body)) == nil)
        try Data(repeating: 1, count: 2000).write(to: file)
        #expect(Self.drain(MultipartBodyStream(body: body)) == nil)
        try Data(repeating: 1, count: 1000).write(to: file)
        #expect(Self.drain(MultipartBodyStream(body: body))?.count == Int(body.length))
    }

    @MainActor
    @Test("M12 a missing file or a content type spanning lines fails the request at once, with nothing sent")
    func badPartsFailAtOnce() async throws {
        let network = StubNetworkingProvider()
        let service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("repose-missing-\(UUID())")
        let noFile = service.resource("/upload").request(.post, multipart: [.file("f", at: missing)])
        let noFileError = await noFile.response.error
        #expect(noFileError?.cause is RequestError.Cause.UnreadableMultipartFile)
        #expect(noFileError?.userMessage.contains(missing.lastPathComponent) == true)
        let injected = service.resource("/upload").request(
            .post, multipart: [.data("f", Data(), fileName: "x", contentType: "text/plain\r\nX-Evil: 1")])
        #expect(await injected.response.error?.cause is RequestError.Cause.InvalidMultipartPart)
        #expect(network.requests.isEmpty)
    }
}
