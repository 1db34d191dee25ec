import Foundation

/// Whether two entity contents are equal: bytes and text as themselves, JSON values whatever their key order.
func sameContent(_ first: Any, _ second: Any) -> Bool {
    func canonical(_ content: Any) -> Data? {
        switch content {
        case let data as Data: return data
        case let text as String: return Data(text.utf8)
        default:
            guard JSONSerialization.isValidJSONObject(content) else { return nil }
            return try? JSONSerialization.data(withJSONObject: content, options: [.sortedKeys])
        }
    }
    guard let first = canonical(first), let second = canonical(second) else { return false }
    return first == second
}
