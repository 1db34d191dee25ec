import Foundation

/// One part of a `multipart/form-data` body: a text field, bytes in memory, or a file streamed from disk.
///
/// ```swift
/// album.request(.post, multipart: [
///     .field("title", "Holiday"),
///     .file("photo", at: photoURL, contentType: "image/jpeg"),
/// ])
/// ```
public struct MultipartPart: Sendable, Equatable {
    /// Where a part's content comes from.
    enum Content: Sendable, Equatable {
        case text(String)
        case bytes(Data)
        case file(URL)
    }

    /// The form field's name.
    public let name: String
    /// The file name the server sees, for file and data parts; `nil` for a text field.
    public let fileName: String?
    /// The part's media type, for file and data parts; `nil` for a text field.
    public let contentType: String?
    let content: Content

    /// A text field, sent as UTF-8 with no headers beyond its name, as a browser sends a form's text input.
    public static func field(_ name: String, _ value: String) -> MultipartPart {
        MultipartPart(name: name, fileName: nil, contentType: nil, content: .text(value))
    }

    /// A file part whose content is already in memory.
    ///
    /// - Parameters:
    ///   - name: The form field's name.
    ///   - data: The file's bytes.
    ///   - fileName: The file name the server sees.
    ///   - contentType: The file's media type; `application/octet-stream` by default.
    public static func data(
        _ name: String, _ data: Data, fileName: String, contentType: String = "application/octet-stream"
    ) -> MultipartPart {
        MultipartPart(name: name, fileName: fileName, contentType: contentType, content: .bytes(data))
    }

    /// A file part read from disk while the request is sent, a chunk at a time, so a large file never sits in
    /// memory whole.
    ///
    /// The file must exist when the request is made (otherwise the request fails at once with
    /// ``RequestError/Cause/UnreadableMultipartFile``), and must not change size until it is sent (otherwise the
    /// transfer fails rather than send a different file).
    ///
    /// - Parameters:
    ///   - name: The form field's name.
    ///   - url: A `file:` URL.
    ///   - fileName: The file name the server sees; the URL's last path component by default.
    ///   - contentType: The file's media type; `application/octet-stream` by default.
    public static func file(
        _ name: String, at url: URL, fileName: String? = nil, contentType: String = "application/octet-stream"
    ) -> MultipartPart {
        MultipartPart(
            name: name, fileName: fileName ?? url.lastPathComponent, contentType: contentType, content: .file(url))
    }
}
