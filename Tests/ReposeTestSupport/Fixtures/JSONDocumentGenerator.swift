import Foundation

/// Random JSON documents for differential tests of `FastJSONParser` against `JSONSerialization`: nested objects and
/// arrays, strings with escapes and non-ASCII text, numbers in many spellings, literals and random whitespace.
/// Most of each document is in the subset the fast parser handles; now and then a piece is not (a surrogate pair,
/// a 19-digit integer, `1e400`, a raw U+FEFF), and `outsideSubset` says so.
struct JSONDocumentGenerator {
    private(set) var text = ""
    /// Whether the document has a piece the fast parser is meant to give up on.
    private(set) var outsideSubset = false

    static func document(_ random: inout FuzzCase) -> JSONDocumentGenerator {
        var generator = JSONDocumentGenerator()
        generator.whitespace(&random)
        if random.chance(50) { generator.object(&random, depth: 1) } else { generator.array(&random, depth: 1) }
        generator.whitespace(&random)
        return generator
    }

    private mutating func value(_ random: inout FuzzCase, depth: Int) {
        let containers = depth < 6 && random.chance(30)
        if containers {
            if random.chance(50) { object(&random, depth: depth + 1) } else { array(&random, depth: depth + 1) }
            return
        }
        switch random.int(in: 0...9) {
        case 0...2: string(&random)
        case 3...4: integer(&random)
        case 5...6: double(&random)
        default: text += random.pick(["true", "false", "null"])
        }
    }

    private mutating func object(_ random: inout FuzzCase, depth: Int) {
        text += "{"
        for index in 0..<random.int(in: 0...6) {
            if index > 0 { text += "," }
            whitespace(&random)
            if random.chance(40) { text += random.pick(Self.keys) } else { string(&random) }
            whitespace(&random)
            text += ":"
            whitespace(&random)
            value(&random, depth: depth)
            whitespace(&random)
        }
        whitespace(&random)
        text += "}"
    }

    private mutating func array(_ random: inout FuzzCase, depth: Int) {
        text += "["
        for index in 0..<random.int(in: 0...6) {
            if index > 0 { text += "," }
            whitespace(&random)
            value(&random, depth: depth)
            whitespace(&random)
        }
        whitespace(&random)
        text += "]"
    }

    /// Keys that repeat, including two spellings of "é" that Swift's `String` equality treats as one key.
    static let keys = [#""id""#, #""name""#, #""a""#, #""""#, #""é""#, "\"e\u{301}\"", #""\u00e9""#, #""\u0041""#]

    static let escapes = [#"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0000"#, #"\u001F"#]
    static let pieces = ["a", "Ada", " ", "é", "e\u{301}", "日本", "😀", "👩‍👩‍👧", "\u{7F}", "\u{FFFF}", "'"]

    private mutating func string(_ random: inout FuzzCase) {
        text += "\""
        for _ in 0..<random.int(in: 0...8) {
            switch random.int(in: 0...9) {
            case 0...3: text += random.pick(Self.pieces)
            case 4...5: text += random.pick(Self.escapes)
            case 6:
                let escape = Self.unicodeEscape(&random)
                if escape.uppercased() == #"\UFEFF"# { outsideSubset = true }
                text += escape
            case 7:
                // Valid JSON outside the subset: surrogate pairs, and a raw U+FEFF, which corelibs drops in places.
                if random.oneIn(10) {
                    text += random.pick([#"\ud83d\ude00"#, #"\uD834\uDD1E"#, "\u{FEFF}"])
                    outsideSubset = true
                }
            default:
                let scalar = FuzzText.scalar(&random)
                if scalar.value >= 0x20, scalar != "\"", scalar != "\\", scalar != "\u{FEFF}" {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    /// `\uXXXX` of a random non-surrogate code point, in random letter case.
    private static func unicodeEscape(_ random: inout FuzzCase) -> String {
        var value = random.int(in: random.pick([0...0x7F, 0x80...0x7FF, 0x800...0xFFFF]))
        if (0xD800...0xDFFF).contains(value) { value -= 0x800 }
        let hex = String(value, radix: 16)
        let padded = String(repeating: "0", count: 4 - hex.count) + hex
        return "\\u" + (random.chance(50) ? padded.uppercased() : padded)
    }

    private mutating func integer(_ random: inout FuzzCase) {
        let sign = random.chance(30) ? "-" : ""
        switch random.int(in: 0...9) {
        case 0...3: text += sign + String(random.int(in: 0...9))
        case 4...6: text += sign + String(random.int(in: 0...Int(Int32.max) + 10))
        case 7: text += sign + String(random.int(in: 0...999_999_999_999_999_999))
        case 8: text += sign + random.pick(["0", "2147483648", "9007199254740993", "100000000000000000"])
        default:
            guard random.oneIn(4) else { return text += sign + "42" }
            text += sign + random.pick(["1234567890123456789", "9223372036854775807", "18446744073709551616"])
            outsideSubset = true
        }
    }

    private mutating func double(_ random: inout FuzzCase) {
        switch random.int(in: 0...19) {
        case 0 where random.oneIn(3):
            let value = Double(bitPattern: random.bytes(count: 8).reduce(0) { $0 << 8 | UInt64($1) })
            number(value.isFinite ? "\(value)" : "0.5")
        case 0...5: number("\(Double(random.int(in: -1_000_000...1_000_000)) / 1000)")
        case 6...9:
            number(random.pick(["-0.0", "0.0", "100.0", "1e3", "1E+2", "0.1e1", "2.5e-324", "-1e-400", "1e-5", "0.1"]))
        default: composedDouble(&random)
        }
    }

    /// Appends a number with a fraction or an exponent, noting whether the fast parser leaves it to corelibs: too
    /// long, not finite as a `Double`, or more than 17 characters before a lowercase `e`, which corelibs makes an
    /// `NSDecimalNumber` of.
    private mutating func number(_ number: String) {
        let mantissa = number.split(separator: "e", maxSplits: 1).first ?? Substring(number)
        if mantissa.utf8.count > 17 || number.utf8.count > 40 || Double(number)?.isFinite != true {
            outsideSubset = true
        }
        text += number
    }

    /// A number with a fraction or exponent built digit by digit, from short to long, small to huge.
    private mutating func composedDouble(_ random: inout FuzzCase) {
        let digits = { (random: inout FuzzCase, count: Int) in
            String((0..<count).map { _ in Character(String(random.int(in: 0...9))) })
        }
        var number = random.chance(30) ? "-" : ""
        number += random.chance(30) ? "0" : String(random.int(in: 1...9)) + digits(&random, random.int(in: 0...7))
        let hasFraction = random.chance(60)
        if hasFraction { number += "." + digits(&random, random.int(in: 1...(random.oneIn(10) ? 20 : 7))) }
        if !hasFraction || random.chance(50) {
            let exponent = random.int(in: random.oneIn(5) ? 0...330 : 0...40)
            number += random.pick(["e", "E"]) + random.pick(["", "+", "-"]) + String(exponent)
        }
        self.number(number)
    }

    private mutating func whitespace(_ random: inout FuzzCase) {
        guard random.chance(30) else { return }
        for _ in 0..<random.int(in: 1...3) { text += random.pick([" ", "\t", "\n", "\r", "\r\n"]) }
    }
}
