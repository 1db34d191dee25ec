import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Every logging suite of this module nests in this one so that they all run one at a time: some of them change the
/// global settings, which the others read. The logging suites of other test modules (the logging page's, and the one
/// over real HTTP) hold the settings as this one does, `.holdsLogSettings`, so they take turns with it. Suites
/// elsewhere cannot reach the recording handlers here: those are either scoped to the test's task, or the test
/// filters for its own marker.
@Suite("Logging", .serialized, .holdsLogSettings)
struct LoggingTests {
    @Test("a disabled category does not build its message")
    func disabledCategoryIsFree() {
        var evaluations = 0
        func message() -> String {
            evaluations += 1
            return "expensive"
        }
        let recorder = RecordingLogHandler()
        ReposeLog.withHandler(recorder.handler) {
            ReposeLog.withEnabled([.network]) {
                ReposeLog.log(.pipeline, message())
                ReposeLog.log([], message())
            }
        }
        ReposeLog.log(.pipeline, message())
        #expect(evaluations == 0)
        #expect(recorder.lines.isEmpty)
    }

    @Test("an enabled category builds its message once and hands category and text to the handler")
    func enabledCategoryReachesHandler() {
        var evaluations = 0
        func message() -> String {
            evaluations += 1
            return "GET https://zingle.frotz/v1/a"
        }
        let recorder = RecordingLogHandler()
        ReposeLog.withHandler(recorder.handler) {
            ReposeLog.withEnabled([.network]) {
                ReposeLog.log(.network, message())
            }
        }
        #expect(evaluations == 1)
        #expect(recorder.lines == ["network: GET https://zingle.frotz/v1/a"])
    }

    @Test("a message in several categories is logged when any of them is enabled")
    func severalCategories() {
        let recorder = RecordingLogHandler()
        ReposeLog.withHandler(recorder.handler) {
            ReposeLog.withEnabled([.cache]) {
                ReposeLog.log([.cache, .pipeline], "one")
                ReposeLog.log([.network, .pipeline], "two")
            }
        }
        #expect(recorder.lines == ["[pipeline, cache]: one"])
    }

    @Test("isEnabled follows the enabled set that applies to the current task")
    func isEnabledFollowsScope() {
        #expect(!ReposeLog.isEnabled(.staleness))
        ReposeLog.withEnabled(.common) {
            #expect(ReposeLog.isEnabled(.staleness))
            #expect(ReposeLog.isEnabled([.cache, .network]))
            #expect(!ReposeLog.isEnabled(.cache))
        }
        #expect(!ReposeLog.isEnabled(.staleness))
    }

    @Test("the global enabled set gates logging and can be read back")
    func globalEnabledSet() {
        let recorder = RecordingLogHandler()
        let previous = ReposeLog.enabled
        defer { ReposeLog.enabled = previous }
        ReposeLog.withHandler(recorder.handler) {
            ReposeLog.enabled = [.pipeline, .cache]
            #expect(ReposeLog.enabled == [.pipeline, .cache])
            ReposeLog.log(.pipeline, "kept")
            ReposeLog.log(.network, "dropped")
            ReposeLog.enabled = []
            ReposeLog.log(.pipeline, "dropped too")
        }
        #expect(recorder.lines == ["pipeline: kept"])
    }

    @Test("a replaced global handler receives the lines, and replacing it again detaches it")
    func globalHandlerReplacement() {
        let recorder = RecordingLogHandler()
        let successor = RecordingLogHandler()
        let marker = UUID().uuidString
        ReposeLog.messageHandler = recorder.handler
        ReposeLog.withEnabled([.configuration]) {
            ReposeLog.log(.configuration, "first \(marker)")
        }
        // Any other handler, the default included, takes over the same way; a recording one keeps the test quiet.
        ReposeLog.messageHandler = successor.handler
        ReposeLog.withEnabled([.configuration]) {
            ReposeLog.log(.configuration, "second \(marker)")
        }
        ReposeLog.messageHandler = ReposeLog.defaultMessageHandler
        #expect(recorder.lines.filter { $0.contains(marker) } == ["configuration: first \(marker)"])
        #expect(successor.lines.filter { $0.contains(marker) } == ["configuration: second \(marker)"])
    }

    @Test("the guide's set-up lines compile and change the enabled set as described")
    func guideSnippets() {
        let previous = ReposeLog.enabled
        defer { ReposeLog.enabled = previous }
        ReposeLog.enabled = .common
        #expect(ReposeLog.enabled.description == "[network, stateChanges, staleness]")
        ReposeLog.enabled = [.network, .stateChanges]
        ReposeLog.enabled.insert(.observers)
        #expect(ReposeLog.enabled == [.network, .stateChanges, .observers])
        ReposeLog.enabled = []
        #expect(ReposeLog.enabled.isEmpty)
    }

    @Test("the default handler prefixes each line with Repose and the category")
    func defaultLineFormat() {
        #expect(ReposeLog.defaultLine(.network, "GET https://x.y/z") == "[Repose:network] GET https://x.y/z")
        #expect(ReposeLog.defaultLine(.stateChanges, "") == "[Repose:stateChanges] ")
    }

    @Test("nested scopes keep what the outer scope set and the inner one did not")
    func nestedScopes() {
        let outer = RecordingLogHandler()
        let inner = RecordingLogHandler()
        ReposeLog.withHandler(outer.handler) {
            ReposeLog.withEnabled([.observers]) {
                ReposeLog.withEnabled([.cache]) {
                    ReposeLog.log(.cache, "a")
                    ReposeLog.log(.observers, "b")
                    ReposeLog.withHandler(inner.handler) { ReposeLog.log(.cache, "c") }
                }
                ReposeLog.log(.observers, "d")
            }
        }
        #expect(outer.lines == ["cache: a", "observers: d"])
        #expect(inner.lines == ["cache: c"])
    }

    @Test("a scope ends when its operation throws")
    func scopeEndsOnThrow() {
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try ReposeLog.withEnabled(.all) { throw Boom() }
        }
        #expect(!ReposeLog.isEnabled(.network))
    }

    @Test("lines logged from child tasks off the main actor reach the scoped handler")
    func childTasksInheritScope() async {
        let recorder = RecordingLogHandler()
        await ReposeLog.withEnabled([.pipeline]) {
            await ReposeLog.withHandler(recorder.handler) {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<50 {
                        group.addTask { ReposeLog.log(.pipeline, "line \(index)") }
                    }
                }
            }
        }
        #expect(Set(recorder.lines) == Set((0..<50).map { "pipeline: line \($0)" }))
    }

    @Test("settings may change on one thread while other threads log")
    func concurrentChanges() async {
        let recorder = RecordingLogHandler()
        let previous = ReposeLog.enabled
        let handler = ReposeLog.messageHandler
        let quiet: ReposeLog.MessageHandler = { _, _ in }
        await ReposeLog.withEnabled([.pipeline]) {
            await ReposeLog.withHandler(recorder.handler) {
                await withTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            for index in 0..<500 { ReposeLog.log(.pipeline, "\(worker).\(index)") }
                        }
                    }
                    group.addTask {
                        // `cache` is a category nothing else logs yet, so other suites stay quiet meanwhile.
                        for round in 0..<200 {
                            ReposeLog.enabled = round.isMultiple(of: 2) ? [.cache] : []
                            ReposeLog.messageHandler = round.isMultiple(of: 2) ? quiet : handler
                            ReposeLog.withEnabled([]) { ReposeLog.log(.pipeline, "never") }
                        }
                    }
                }
            }
        }
        ReposeLog.enabled = previous
        ReposeLog.messageHandler = handler
        #expect(recorder.lines.count == 2000)
        #expect(!recorder.lines.contains("pipeline: never"))
    }

    @Test("a detached task does not see the scope of the task that started it")
    func detachedTasksKeepGlobalSettings() async {
        let recorder = RecordingLogHandler()
        await ReposeLog.withEnabled(.all) {
            await ReposeLog.withHandler(recorder.handler) {
                await Task.detached { ReposeLog.log(.network, "elsewhere") }.value
                ReposeLog.log(.network, "here")
            }
        }
        #expect(recorder.lines == ["network: here"])
    }
}
