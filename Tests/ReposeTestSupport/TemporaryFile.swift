import Foundation

/// A new file in the temporary folder holding `contents`, for the tests of file parts, on disk or over HTTP; the
/// caller removes it.
func temporaryFile(_ contents: Data) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("repose-part-\(UUID().uuidString).bin")
    try contents.write(to: url)
    return url
}
