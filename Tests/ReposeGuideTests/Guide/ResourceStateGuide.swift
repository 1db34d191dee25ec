// The Swift blocks of Docs/ResourceState.md, verbatim: GuideSnippetTests checks that every block appears here.
import Repose

@testable import ReposeTestSupport

@MainActor
enum ResourceStateGuide {
    static func loading(_ resource: Resource) {
        resource.loadIfNeeded()  // call it freely: in viewWillAppear, on every tap, 50 times a second
        resource.load()  // always sends a request (pull to refresh)
        resource.invalidate()  // mark stale now, load on the next loadIfNeeded()
    }

    static func changingLocally(_ resource: Resource, updatedProfile: [String: Any], entity: Entity<Any>) {
        resource.overrideLocalContent(with: updatedProfile)  // keeps content type and headers, stamps "now"
        resource.overrideLocalData(with: entity)  // installs exactly this entity
        resource.wipe()  // cancels requests, clears data and error
    }
}
