import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Cache-Control directives read by the grammar")
struct CacheControlTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let header: String
        let directives: [String: String?]
        let malformed: [String]
        var testDescription: String { name }

        init(_ name: String, _ header: String, _ directives: [String: String?], malformed: [String] = []) {
            self.name = name
            self.header = header
            self.directives = directives
            self.malformed = malformed
        }
    }

    static let rows: [Row] = [
        Row("a bare directive", "no-cache", ["no-cache": nil]),
        Row("a token value", "max-age=60", ["max-age": "60"]),
        Row("names in any letter case", "Max-Age=60, NO-STORE", ["max-age": "60", "no-store": nil]),
        Row("spaces and tabs around everything", " max-age = 60 ,\tpublic\t", ["max-age": "60", "public": nil]),
        Row("empty list elements", ",, private ,,max-age=5,", ["private": nil, "max-age": "5"]),
        Row(
            "a quoted value with a comma inside", "no-cache=\"Set-Cookie, Authorization\", max-age=9",
            ["no-cache": "Set-Cookie, Authorization", "max-age": "9"]),
        Row(
            "an escaped quote inside quotes", #"ext="say \"hi\", then go", public"#,
            ["ext": #"say "hi", then go"#, "public": nil]),
        Row("a quoted max-age", "max-age=\"60\"", ["max-age": "60"]),
        Row("the first of two wins", "max-age=60, max-age=0", ["max-age": "60"]),
        Row(
            "an unterminated quote is malformed to the end", "public, ext=\"open, max-age=5",
            ["public": nil], malformed: ["ext=\"open, max-age=5"]),
        Row("a value with a space is malformed", "max-age=6 0, public", ["public": nil], malformed: ["max-age=6 0"]),
        Row("a bare equals sign is malformed", "=5, private", ["private": nil], malformed: ["=5"]),
        Row("an empty value is malformed", "max-age=, private", ["private": nil], malformed: ["max-age="]),
        Row("a semicolon is not a separator", "public; max-age=5", [:], malformed: ["public; max-age=5"]),
        Row("an empty header", "", [:]),
    ]

    @Test("R1 R2 directives, quoted values and odd spacing", arguments: rows)
    func parses(row: Row) {
        let parsed = CacheControl(row.header)
        #expect(parsed.directives == row.directives)
        #expect(parsed.malformed == row.malformed)
    }

    @Test("K6 no-store still forbids storing, wherever it stands")
    func noStore() {
        #expect(CacheControl("private, No-Store").forbidsStoring)
        #expect(!CacheControl("no-storex").forbidsStoring)
        #expect(!CacheControl(#"ext="no-store""#).forbidsStoring)
        #expect(!CacheControl(nil).forbidsStoring)
    }

    @Test("R2 only an unqualified no-cache requires revalidation")
    func noCache() {
        #expect(CacheControl("no-cache").requiresRevalidation)
        #expect(CacheControl("public, NO-CACHE").requiresRevalidation)
        #expect(!CacheControl("no-cache=\"Set-Cookie\"").requiresRevalidation)
        #expect(!CacheControl("max-age=0").requiresRevalidation)
    }

    @Test("R1 delta-seconds: digits only, capped at 2^31")
    func deltaSeconds() {
        #expect(DeltaSeconds("0") == .seconds(0))
        #expect(DeltaSeconds(" 120 ") == .seconds(120))
        #expect(DeltaSeconds("99999999999999999999999") == .seconds(2_147_483_648))
        #expect(DeltaSeconds("-1") == .invalid("-1"))
        #expect(DeltaSeconds("+1") == .invalid("+1"))
        #expect(DeltaSeconds("1.5") == .invalid("1.5"))
        #expect(DeltaSeconds("") == .invalid(""))
        #expect(DeltaSeconds("١٢") == .invalid("١٢"))
    }
}
