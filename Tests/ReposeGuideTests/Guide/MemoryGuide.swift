// The Swift blocks of Docs/Memory.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

@MainActor
func memoryGuideDroppingAService() -> Request? {
    var api: Service? = Service(baseURL: "https://api.example.com/v1")
    let request = api?.resource("/me").load()
    api = nil  // the service, its resources and, once the load ends, its URLSession are freed
    return request
}

/// The view model of the Memory page's closures: one that leaks, one that does not.
final class MemoryGuideModel {
    var name = ""

    /// The trap: the closure captures its owner, so the owner is never freed.
    func leak(_ state: State<String>) {
        state.observe(owner: self) { value in self.name = value }  // self is never freed
    }

    /// The fix: the closure receives its owner.
    func bind(_ state: State<String>) {
        state.observe(owner: self) { model, value in model.name = value }
    }
}
