// The Swift blocks of Docs/Inspector.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

/// The page prints the table; in the test run that would only be noise.
private func print(_ items: Any...) {}

@MainActor
func inspectorGuide(_ api: Service) -> (failing: [String], busiest: ResourceSnapshot?) {
    let snapshot = api.inspect()
    print(snapshot)  // a table, one resource per line
    let failing = snapshot.resources.filter(\.hasError).map(\.url)
    let busiest = snapshot.resources.max { $0.observerCount < $1.observerCount }
    return (failing, busiest)
}
