import Testing

@testable import Repose
@testable import ReposeTestSupport

extension LoggingTests {
    @Suite("Log categories")
    struct CategoryTests {
        typealias Category = ReposeLog.Category

        @Test("the presets nest: common within detailed within all")
        func presetsNest() {
            #expect(Category().isEmpty)
            #expect(Category.common == [.network, .stateChanges, .staleness])
            #expect(Category.common.isSubset(of: .detailed))
            #expect(Category.detailed == Category.all.subtracting(.networkDetails))
            #expect(Category.detailed.isStrictSubset(of: .all))
        }

        @Test("all holds nine distinct single categories")
        func allCategories() {
            let singles: [Category] = [
                .network, .networkDetails, .pipeline, .stateChanges, .observers, .staleness, .cache, .configuration,
                .signals,
            ]
            #expect(Set(singles).count == 9)
            #expect(singles.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
            #expect(Category(singles) == .all)
        }

        static let descriptions: [(Category, String)] = [
            (.network, "network"),
            (.networkDetails, "networkDetails"),
            (.configuration, "configuration"),
            (.signals, "signals"),
            (Category(), "[]"),
            ([.staleness, .network], "[network, staleness]"),
            (Category(rawValue: 1 << 20), "[0x100000]"),
        ]

        @Test("a category describes itself by name, a set by its names in brackets", arguments: descriptions)
        func description(category: Category, expected: String) {
            #expect(category.description == expected)
        }
    }
}
