import Testing

@testable import ReposeSignals

@Suite("ReposeSignals")
struct PlaceholderTests {
    @Test("the module links") func links() { #expect(Bool(true)) }
}
