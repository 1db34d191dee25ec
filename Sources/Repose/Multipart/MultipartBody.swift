import Foundation

/// A `multipart/form-data` body laid out as bytes in memory and files on disk, ready to stream (rule M12).
///
/// Building it checks everything that can be checked before sending: every file exists and has a size, no header
/// value can break out of its line, and the boundary occurs in no in-memory part. File contents are checked for the
/// boundary as they stream (``MultipartBodyStream``), so a body is never sent with a boundary inside a part.
struct MultipartBody: Sendable {
    /// A run of the body: bytes to send as they are, or a file's first `size` bytes.
    enum Segment: Sendable {
        case bytes(Data)
        case file(URL, size: Int64)
    }

    let boundary: String
    let segments: [Segment]
    /// The body's exact length in bytes.
    let length: Int64

    /// The `Content-Type` header that names the boundary.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Lays out `parts`, drawing boundaries from `makeBoundary` until one occurs in no in-memory part.
    ///
    /// - Throws: a `RequestError` whose cause is ``RequestError/Cause/UnreadableMultipartFile`` or
    ///   ``RequestError/Cause/InvalidMultipartPart``.
    init(parts: [MultipartPart], makeBoundary: () -> String = MultipartBody.randomBoundary) throws {
        let headers = try parts.map(Self.headerBlock)
        let fileSizes = try parts.map(Self.fileSize)
        var boundary = makeBoundary()
        // A fresh random boundary collides only by design (a test) or astronomical luck: a few draws suffice.
        var draws = 1
        while Self.occurs(boundary, inHeaders: headers, parts: parts) {
            guard draws < 9 else {
                throw Self.invalidPart("No boundary could be found that occurs in none of the parts.")
            }
            boundary = makeBoundary()
            draws += 1
        }
        var segments: [Segment] = []
        var pending = Data()
        for (index, part) in parts.enumerated() {
            pending.append(contentsOf: Array((index == 0 ? "" : "\r\n").utf8))
            pending.append(contentsOf: Array("--\(boundary)\r\n".utf8))
            pending.append(headers[index])
            switch part.content {
            case .text(let text):
                pending.append(contentsOf: Array(text.utf8))
            case .bytes(let data):
                pending.append(data)
            case .file(let url):
                segments.append(.bytes(pending))
                pending = Data()
                segments.append(.file(url, size: fileSizes[index] ?? 0))
            }
        }
        pending.append(contentsOf: Array("\(parts.isEmpty ? "" : "\r\n")--\(boundary)--\r\n".utf8))
        segments.append(.bytes(pending))
        self.boundary = boundary
        self.segments = segments.filter {
            if case .bytes(let data) = $0 { return !data.isEmpty }
            return true
        }
        self.length = segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .file(_, let size): total + size
            }
        }
    }

    /// `repose-` and 32 letters and digits: about 190 random bits.
    static func randomBoundary() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return "repose-" + String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }

    /// A part's header lines and the blank line after them.
    private static func headerBlock(of part: MultipartPart) throws -> Data {
        var disposition = "Content-Disposition: form-data; name=\"\(quoted(part.name))\""
        if let fileName = part.fileName {
            disposition += "; filename=\"\(quoted(fileName))\""
        }
        var block = disposition + "\r\n"
        if let contentType = part.contentType {
            guard !contentType.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw invalidPart("The content type of the part “\(part.name)” spans more than one line.")
            }
            block += "Content-Type: \(contentType)\r\n"
        }
        return Data((block + "\r\n").utf8)
    }

    /// A name inside double quotes, escaped as browsers do: a quote, CR and LF become `%22`, `%0D` and `%0A`, so no
    /// name can end its header line or its quoted string.
    private static func quoted(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A file part's size, read now so the body's length is known; `nil` for other parts.
    private static func fileSize(of part: MultipartPart) throws -> Int64? {
        guard case .file(let url) = part.content else { return nil }
        let unreadable = {
            let cause = RequestError.Cause.UnreadableMultipartFile(fileURL: url)
            return RequestError(userMessage: cause.displayMessage, cause: cause)
        }
        guard url.isFileURL, FileManager.default.isReadableFile(atPath: url.path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else { throw unreadable() }
        return size
    }

    private static func occurs(_ boundary: String, inHeaders headers: [Data], parts: [MultipartPart]) -> Bool {
        let needle = Array(boundary.utf8)
        for (index, part) in parts.enumerated() {
            if BoundaryScanner.contains(needle, in: headers[index]) { return true }
            switch part.content {
            case .text(let text) where BoundaryScanner.contains(needle, in: Data(text.utf8)): return true
            case .bytes(let data) where BoundaryScanner.contains(needle, in: data): return true
            default: continue
            }
        }
        return false
    }

    private static func invalidPart(_ message: String) -> RequestError {
        let cause = RequestError.Cause.InvalidMultipartPart(reason: message)
        return RequestError(userMessage: cause.displayMessage, cause: cause)
    }
}
