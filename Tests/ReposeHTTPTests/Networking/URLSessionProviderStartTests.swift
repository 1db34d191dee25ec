import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider: starting a request never waits for the network")
final class URLSessionProviderStartTests {
    let server: LoopbackServer

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("a request starts while the session's network queue is held by another request's body, and both complete")
    func startWhileTheNetworkIsBusy() async throws {
        // In a child process (`repose-upload-probe gate`): the body stream is read on the session's network queue,
        // which every URLSession of a process shares on Linux, so holding it here would stall the other suites.
        let executable = try ChildProcess.executable(named: "repose-upload-probe")
        let arguments = ["gate", server.url("/sink").absoluteString, server.url("/echo").absoluteString]
        // The leak check at exit would end the probe with its own status under AddressSanitizer.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "detect_leaks=0"].compactMap { $0 }.joined(
            separator: ":")
        // The probe bounds its own waits (two minutes each); this bound is a second guard behind them.
        let (status, output) = try await ChildProcess.offTheTestThreads { [environment] in
            try ChildProcess.run(executable, arguments: arguments, environment: environment, timeout: 300)
        }
        #expect(status == 0, "\(output)")
        // Swift-corelibs-foundation makes a task with a synchronous call onto that queue: had `startTransfer` made it
        // in place, it would have returned only once the held body gave up.
        #expect(output.split(separator: "\n") == ["held true", "second 200", "upload 200"], "\(output)")
    }

    @Test("E11 a queued task cancelled before its turn is never made; cancelled while being made, it is cancelled")
    func queuedTaskCancellation() throws {
        // Without a URLCache, and never invalidated with a cancel: on Linux either can make a cancel that meets the
        // task's end report it after the session has forgotten the task, which stops the process.
        let session = URLSession(configuration: URLSessionProvider.defaultConfiguration)
        defer { session.finishTasksAndInvalidate() }
        let url = try #require(URL(string: "http://127.0.0.1:9/never"))
        let queue = DispatchQueue(label: "test.start")

        let early = URLSessionProvider.QueuedTask(queue: queue)
        early.cancel()
        var made = false
        queue.sync {
            early.run {
                made = true
                return session.dataTask(with: url)
            }
        }
        #expect(!made)

        let meanwhile = URLSessionProvider.QueuedTask(queue: queue)
        var task: URLSessionTask?
        queue.sync {
            meanwhile.run {
                let new = session.dataTask(with: url)
                task = new
                meanwhile.cancel()  // before `run` has the task to cancel
                return new
            }
        }
        queue.sync {}  // the cancellation, queued after the start
        #expect(try #require(task).state != .suspended)
    }
}
