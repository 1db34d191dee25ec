import Foundation
import Repose
import ReposeLists

// Paged lists and resource groups: appending a page to a long list, what a list keeps per item beyond the decoded
// items, and what one member's event costs a group of 1,000.

func listBenchmarks() {
    listAppendBenchmarks()
    listMemoryBenchmarks()
    groupBenchmarks()
}

/// An item as an app decodes it: small, with an id.
struct ListItem: Decodable {
    let id: Int
    let name: String
}

/// Pages `/list/1` … `/list/<count>` of `size` items each, fresh in their service for an hour, each naming the next
/// in a `Link` header. Page content is `[ListItem]` as a configured `Decodable` transformer leaves it, or JSON bytes
/// when `asJSON` (the list decodes them). Built once per shape and kept for every sample.
@MainActor
final class ListFixture {
    let service: Service
    let pages: [Resource]

    private static var built: [String: ListFixture] = [:]

    static func pages(_ count: Int, of size: Int, asJSON: Bool = false) -> ListFixture {
        let key = "\(count) \(size) \(asJSON)"
        if let fixture = built[key] { return fixture }
        let fixture = ListFixture(count: count, size: size, asJSON: asJSON)
        built = [key: fixture]  // one shape at a time keeps the machine's memory in check
        return fixture
    }

    private init(count: Int, size: Int, asJSON: Bool) {
        let service = stubbedService()
        service.configure("/list/*") { $0.expirationTime = 3600 }
        self.service = service
        pages = (1...count).map { service.resource("/list/\($0)") }
        for (index, page) in pages.enumerated() {
            let ids = (index * size)..<((index + 1) * size)
            let items = ids.map { ListItem(id: $0, name: "item") }
            let content: Any =
                asJSON
                ? Data(("[" + ids.map { #"{"id":\#($0),"name":"item"}"# }.joined(separator: ",") + "]").utf8) : items
            let headers = index + 1 < count ? ["Link": "</list/\(index + 2)>; rel=\"next\""] : [:]
            page.overrideLocalData(
                with: Entity<Any>(content: content, contentType: "application/json", headers: headers))
        }
    }

    /// A new list over the pages, observed as a view would, holding the first `count` pages.
    func list(holding count: Int, id: Bool = false) -> (PagedList<ListItem>, Subscription) {
        let options: PagedList<ListItem>.Options = id ? .init(id: \.id) : .init()
        let list = service.pagedList(startingAt: pages[0], items: [ListItem].self, options: options)
        let subscription = list.state.observe { blackHole($0.items.count) }
        for _ in 1..<count { list.loadMore() }
        return (list, subscription)
    }
}

func listAppendBenchmarks() {
    // Each sample builds a list of 10,000 items (100 pages of 100) unmeasured, then appends page 101: decoding
    // (none: the content is already `[ListItem]`), the page book, the new snapshot and its delivery to one observer.
    for (name, id) in [
        ("List append page of 100 to 10000", false), ("List append page of 100 to 10000, with id", true),
    ] {
        mainActorBenchmark(name, configuration(.one)) { measured in
            let fixture = ListFixture.pages(101, of: 100)
            let (list, subscription) = fixture.list(holding: 100, id: id)
            await measured.run { list.loadMore() }
            precondition(list.state.value.items.count == 10_100)
            subscription.cancel()
        }
    }
    // The same when the page's content is JSON bytes, which the list decodes on the main actor.
    mainActorBenchmark("List append page of 100 to 10000, decoding JSON", configuration(.one)) { measured in
        let fixture = ListFixture.pages(101, of: 100, asJSON: true)
        let (list, subscription) = fixture.list(holding: 100)
        await measured.run { list.loadMore() }
        precondition(list.state.value.items.count == 10_100)
        subscription.cancel()
    }
}

let bytesPerItem = CustomMetric(name: "Bytes per item")

func listMemoryBenchmarks() {
    // What a list adds per item to the pages' decoded items, which the pages hold anyway: 100,000 items in 1,000
    // pages of 100. The pages exist before the measurement; the list, its snapshot and its pages' observers are
    // measured, in live heap bytes once the list holds every page.
    let pageCount = isSmokeRun ? 10 : 1_000
    let metrics = [bytesPerItem]
    for (name, id) in [("List memory per item", false), ("List memory per item, with id", true)] {
        mainActorBenchmark(name, configuration(.one, metrics: metrics)) { measured in
            let fixture = ListFixture.pages(pageCount, of: 100)
            let before = allocatedBytes()
            var held: (PagedList<ListItem>, Subscription)?
            await measured.run { held = fixture.list(holding: pageCount, id: id) }
            guard let (list, subscription) = held else { return }
            measured.record(bytesPerItem, (allocatedBytes() - before) / (pageCount * 100))
            precondition(list.state.value.items.count == pageCount * 100)
            subscription.cancel()
        }
    }
}

func groupBenchmarks() {
    // One member's event reaching a group of 1,000 members observed by one subscriber; the figure is per event.
    // The baseline is the same event with no group: the difference is what the group costs.
    for (name, grouped) in [
        ("Group of 1000 per member event", true), ("Group member event baseline (no group)", false),
    ] {
        mainActorBenchmark(name, configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(1_000, observed: false)
            let group = grouped ? ResourceGroup(fixture.resources) : nil
            let subscription = group?.state.observe { blackHole($0.hasAllData) }
            let entity = Entity<Any>(content: "data", contentType: "text/plain")
            await measured.run {
                for index in measured.iterations { fixture.resources[index % 1_000].overrideLocalData(with: entity) }
            }
            subscription?.cancel()
            blackHole(group)
        }
    }
    // 1,000 members loading at once: 2,000 events (requested, then new data) reach the group; the figure is per
    // batch, to compare with `Stub load 1000 at once (per batch)`, the same loads without a group.
    mainActorBenchmark("Group of 1000 loading at once (per batch)", configuration(.one)) { measured in
        let service = stubbedService()
        service.cachedResourceCountLimit = 2_000
        let resources = paths(1_000).map { service.resource($0) }
        let group = ResourceGroup(resources)
        let subscription = group.state.observe { blackHole($0.isLoading) }
        await measured.run { done in loadAll(resources, then: done) }
        precondition(group.state.value.hasAllData)
        subscription.cancel()
    }
}
