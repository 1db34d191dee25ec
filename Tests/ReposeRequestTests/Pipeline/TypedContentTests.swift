import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Typed content", .checksLifetimes)
struct TypedContentTests {
    let entity = Entity<Any>(content: "text", contentType: "text/plain", timestamp: 0)

    @Test("F21 typedContent returns the content when it has the expected type, else the default")
    func castOrDefault() {
        #expect(entity.typedContent(ifNone: "fallback") == "text")
        #expect(entity.typedContent(ifNone: 7) == 7)
    }

    @Test("F21 the default is evaluated only when it is needed")
    func lazyDefault() {
        var evaluations = 0
        func fallback<T>(_ value: T) -> T {
            evaluations += 1
            return value
        }
        _ = entity.typedContent(ifNone: fallback("unused"))
        #expect(evaluations == 0)
        _ = entity.typedContent(ifNone: fallback(1))
        #expect(evaluations == 1)
    }

    @Test("F21 optional defaults are allowed, and typedContent() without one is nil")
    func optionalDefaults() {
        let number: Int? = entity.typedContent(ifNone: nil)
        #expect(number == nil)
        let text: String? = entity.typedContent(ifNone: nil)
        #expect(text == "text")
        let missing: [String: Any]? = entity.typedContent()
        #expect(missing == nil)
        let harness = Harness()
        let empty: String? = harness.service.resource("/none").typedContent()
        #expect(empty == nil)
    }
}
