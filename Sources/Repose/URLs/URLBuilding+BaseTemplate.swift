import Foundation

extension URLBuilding {
    /// A service base URL split once around the place where a resource's path goes, so that `resource(_:)` can
    /// build the text of a new path's URL by joining three strings instead of splitting and rejoining the base.
    ///
    /// Only for paths that `resourceURL(base:path:)` would not change: every byte a path byte other than `%`, no
    /// `.` or `..` segment, no leading `//`. Any other path takes the full route, which splits and rejoins the base
    /// with an allocation at each step, several times the work of the join.
    struct BaseTemplate {
        /// The base up to the end of its path, which ends with `/`.
        let head: String
        /// The base's query and fragment, with their `?` and `#`, or "".
        let tail: String

        /// The template of `base`, a service base URL; nil when its path is not in the form a service base gets
        /// (`serviceBaseURL(_:)`), and the full route is taken for every path.
        init?(base: URL) {
            var parts = Parts(splitting: base.absoluteString)
            parts.lowercaseSchemeAndHost()
            guard parts.path.hasSuffix("/"), parts.scheme == nil || !hasDotSegment(parts.path) else { return nil }
            let query = parts.query.map { "?" + $0 } ?? ""
            let fragment = parts.fragment.map { "#" + $0 } ?? ""
            parts.query = nil
            parts.fragment = nil
            head = parts.string
            tail = query + fragment
        }

        /// The text of the URL of `path` under the base, as `resourceURL(base:path:)` builds it, or nil when the
        /// path needs the full route (escaping, dot segments).
        func urlString(forPath path: String) -> String? {
            var path = path
            return path.withUTF8 { bytes in
                var subpath = bytes[...]
                if subpath.first == UInt8(ascii: "/") { subpath = subpath.dropFirst() }
                guard subpath.first != UInt8(ascii: "/") else { return nil }
                var sawDot = false
                for byte in subpath {
                    guard isPathByte(byte) else { return nil }  // `%` is not a path byte: it is always escaped
                    if byte == UInt8(ascii: ".") { sawDot = true }
                }
                if sawDot, hasDotSegment(String(decoding: subpath, as: UTF8.self)) { return nil }
                return joined(UnsafeBufferPointer(rebasing: subpath))
            }
        }

        /// `head + subpath + tail` in one allocation, copied as bytes: appending strings spent a noticeable part of a
        /// new path's first lookup in index bookkeeping.
        private func joined(_ subpath: UnsafeBufferPointer<UInt8>) -> String {
            var head = head
            var tail = tail
            return head.withUTF8 { head in
                tail.withUTF8 { tail in
                    String(unsafeUninitializedCapacity: head.count + subpath.count + tail.count) { buffer in
                        var end = 0
                        func append(_ part: UnsafeBufferPointer<UInt8>) {
                            guard let source = part.baseAddress, let target = buffer.baseAddress else { return }
                            (target + end).initialize(from: source, count: part.count)
                            end += part.count
                        }
                        append(head)
                        append(subpath)
                        append(tail)
                        return end
                    }
                }
            }
        }
    }
}
