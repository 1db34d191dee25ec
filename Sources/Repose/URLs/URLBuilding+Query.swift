// Query editing for `withParam`: existing parameters keep their exact text, and only names are decoded, to
// find and sort them.
extension URLBuilding {
    /// `query` with parameter `name` set to `value` (nil removes it, `""` leaves a bare key), all parameters
    /// sorted by decoded name, before escaping (rules C13, C17); nil when no parameter is left, so the caller drops
    /// the `?`.
    static func query(_ query: String?, settingParam name: String, to value: String?) -> String? {
        let existing = Array((query ?? "").utf8).split(separator: UInt8(ascii: "&")).map { bytes in
            (name: paramName(of: bytes), text: String(decoding: bytes, as: UTF8.self))
        }
        var params = existing.filter { $0.name != name }
        if let value {
            let escapedName = percentEscaped(name, allowing: isParamByte)
            let text = value.isEmpty ? escapedName : escapedName + "=" + percentEscaped(value, allowing: isParamByte)
            params.append((name: name, text: text))
        }
        guard !params.isEmpty else { return nil }
        // Ordered by decoded name as Swift compares strings (Unicode scalars after canonical normalisation, the
        // same on every platform), as the original orders them: `é` sorts after `f` however it is written, and a
        // reserved character sorts as itself, not as its escape. The offset keeps repeated keys in their order.
        let sorted = params.enumerated().sorted { left, right in
            if left.element.name == right.element.name { return left.offset < right.offset }
            return left.element.name < right.element.name
        }
        return sorted.map(\.element.text).joined(separator: "&")
    }

    private static func paramName(of param: ArraySlice<UInt8>) -> String {
        percentDecoded(String(decoding: param.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self))
    }
}
