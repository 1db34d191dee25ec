import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Resource group tally: counts kept one member at a time")
struct ResourceGroupTallyTests {
    final class Member {}

    typealias Status = ResourceGroupTally.Status

    let members = (0..<3).map { _ in Member() }
    func id(_ index: Int) -> ObjectIdentifier { ObjectIdentifier(members[index]) }
    func url(_ index: Int) -> URL { URL(string: "https://x.example/\(index)") ?? URL(fileURLWithPath: "/") }
    func error(_ status: Int) -> RequestError { RequestError(httpStatusCode: status, entity: nil) }

    @Test("counts follow each member's status, and removing a member takes back what it counted")
    func counts() {
        var tally = ResourceGroupTally()
        tally.add(id(0), url: url(0), status: Status(isLoading: true), error: nil)
        tally.add(id(1), url: url(1), status: Status(hasData: true), error: nil)
        tally.add(id(1), url: url(1), status: Status(isLoading: true), error: nil)  // already a member
        #expect(tally.memberCount == 2 && tally.loadingCount == 1 && tally.dataCount == 1)
        tally.update(id(0), to: Status(hasData: true), error: nil)
        #expect(tally.loadingCount == 0 && tally.dataCount == 2)
        tally.remove(id(0))
        tally.remove(id(0))
        #expect(tally.memberCount == 1 && tally.dataCount == 1)
        tally.update(id(0), to: Status(isLoading: true), error: nil)  // no longer a member: ignored
        #expect(tally.loadingCount == 0)
    }

    @Test("errors are read only when they change, and the first is the earliest member's")
    func errors() {
        var tally = ResourceGroupTally()
        for index in 0..<3 {
            tally.add(id(index), url: url(index), status: Status(), error: nil)
        }
        var reads = 0
        func read(_ status: Int) -> RequestError {
            reads += 1
            return error(status)
        }
        tally.update(id(2), to: Status(hasError: true), error: read(502))
        tally.update(id(1), to: Status(hasError: true), error: read(501))
        tally.update(id(1), to: Status(hasError: true), error: read(999))  // same status, not an error event
        #expect(reads == 2 && tally.firstError?.httpStatusCode == 501)
        tally.update(id(1), to: Status(hasError: true), replacesError: true, error: read(503))
        #expect(reads == 3 && tally.firstError?.httpStatusCode == 503)
        #expect(tally.errors[url(2)]?.httpStatusCode == 502 && tally.errors.count == 2)
        tally.update(id(1), to: Status(hasData: true), error: read(0))
        #expect(reads == 3 && tally.firstError?.httpStatusCode == 502 && tally.errors.count == 1)
        tally.remove(id(2))
        #expect(tally.firstError == nil && tally.errors.isEmpty)
    }
}
