import Foundation

/// Deep comparison of parsed JSON values, strict enough that app code could not tell two equal values apart: the
/// same runtime types, the same keys spelled with the same scalars, the same string scalars, and numbers that give
/// the same answer to every cast an app might try.
enum JSONValueComparison {
    typealias Object = [String: Any]

    /// How `actual` differs from `expected`, or `nil` if it does not.
    static func difference(_ actual: Any, _ expected: Any, at path: String = "$") -> String? {
        guard type(of: actual) == type(of: expected) else {
            return "\(path): \(type(of: actual)) instead of \(type(of: expected))"
        }
        switch (actual, expected) {
        case (let actual as [String: Any], let expected as [String: Any]):
            return objectDifference(actual, expected, at: path)
        case (let actual as [Any], let expected as [Any]):
            guard actual.count == expected.count else {
                return "\(path): \(actual.count) elements instead of \(expected.count)"
            }
            for (offset, (left, right)) in zip(actual, expected).enumerated() {
                if let difference = difference(left, right, at: "\(path)[\(offset)]") { return difference }
            }
            return nil
        case (let actual as NSNumber, let expected as NSNumber):
            return numberDifference(actual, expected, at: path)
        case (let actual as String, let expected as String):
            let same = Array(actual.unicodeScalars) == Array(expected.unicodeScalars)
            return same ? nil : "\(path): \(actual.debugDescription) instead of \(expected.debugDescription)"
        case (is NSNull, is NSNull):
            return nil
        default:
            return "\(path): unexpected \(type(of: actual))"
        }
    }

    private static func objectDifference(_ actual: Object, _ expected: Object, at path: String) -> String? {
        guard actual.count == expected.count else {
            return "\(path): \(actual.count) keys instead of \(expected.count)"
        }
        for (key, expectedValue) in expected {
            guard let index = actual.index(forKey: key) else { return "\(path): no key \(key.debugDescription)" }
            let (actualKey, actualValue) = actual[index]
            guard Array(actualKey.unicodeScalars) == Array(key.unicodeScalars) else {
                return "\(path): key spelled \(actualKey.debugDescription) instead of \(key.debugDescription)"
            }
            if let difference = difference(actualValue, expectedValue, at: "\(path).\(key)") { return difference }
        }
        return nil
    }

    private static func numberDifference(_ actual: NSNumber, _ expected: NSNumber, at path: String) -> String? {
        let answers = { (number: NSNumber) -> [String] in
            let value: Any = number
            // Which integer width a number reports is Foundation's choice, not the parser's: `NSNumber(value: 1)`
            // usually reads "i", but once read "q" in a parallel run of the suite, so the widths count as one kind.
            // Every answer an app can read is compared below.
            let type = String(cString: number.objCType)
            let kind =
                ["c", "s", "i", "l", "q", "C", "S", "I", "L", "Q"].contains(type) && !(value is Bool) ? "integer" : type
            return [
                kind, "\(value as? Int as Any)", "\(value as? Int32 as Any)",
                "\(value as? UInt8 as Any)", "\((value as? Double)?.bitPattern as Any)", "\(value as? Float as Any)",
                "\(value as? Bool as Any)", "\(value as? String as Any)", "\(value is Bool)", number.description,
            ]
        }
        let (left, right) = (answers(actual), answers(expected))
        return left == right ? nil : "\(path): number \(left) instead of \(right)"
    }
}
