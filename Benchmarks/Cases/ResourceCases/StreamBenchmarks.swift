import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let firstPieceRatio = CustomMetric(name: "First piece, Repose ÷ URLSession (‰)")
let firstPieceReposeTime = CustomMetric(name: "First piece, Repose (µs)")

func streamBenchmarks() {
    // Each sample streams 100 MiB from loopback twice, back to back, alternating which goes first: a streamed
    // request whose pieces a task counts off the main actor, against a URLSession data task of a session of its own
    // whose delegate only counts bytes. Each side starts on the main actor and counts where it receives. The ratio is of the whole times (its inverse is the throughput's); the first
    // piece's ratio is of the times from the start to the first bytes in the app's hands.
    let metrics = [pairedRatio, pairedDifference, firstPieceRatio, firstPieceReposeTime]
    mainActorBenchmark("Stream 100 MB/paired", configuration(.one, metrics: metrics, seconds: 10)) { measured in
        guard let resource = Loopback.service?.resource("/100m") else { return }
        let url = resource.url
        let clock = ContinuousClock()
        reposeFirst.toggle()
        let order = reposeFirst ? [true, false] : [false, true]
        var times: [Bool: (first: Duration, whole: Duration)] = [:]
        await measured.runTask {
            for isRepose in order {
                let started = clock.now
                let (count, first) =
                    isRepose
                    ? await readStreamed(resource.streamRequest(), clock) : await CountingDelegate.read(url, clock)
                blackHole(count)
                times[isRepose] = (first - started, clock.now - started)
            }
        }
        guard let repose = times[true], let direct = times[false] else { return }
        measured.record(pairedRatio, nanoseconds(repose.whole) * 1_000 / max(nanoseconds(direct.whole), 1))
        measured.record(pairedDifference, nanoseconds(repose.whole) - nanoseconds(direct.whole))
        measured.record(firstPieceRatio, nanoseconds(repose.first) * 1_000 / max(nanoseconds(direct.first), 1))
        measured.record(firstPieceReposeTime, nanoseconds(repose.first) / 1_000)
    }
}

let peakResidentGrowth = CustomMetric(name: "Peak resident growth (MiB)")

func slowReaderBenchmarks() {
    // A 1 GiB body (100 MiB in a smoke run) read by a task that pauses 1 ms after each MiB, slower than loopback
    // delivers: the figure is how far the process's resident memory grew above where it started, sampled after each
    // MiB read (Linux; 0 elsewhere). Rule U4 keeps it to about the buffer, the rest of the body waiting on disk.
    let path = isSmokeRun ? "/100m" : "/1g"
    let metrics = [peakResidentGrowth]
    mainActorBenchmark("Stream 1 GiB read slowly", configuration(.one, metrics: metrics, seconds: 1)) { measured in
        guard let resource = Loopback.service?.resource(path) else { return }
        var read: (count: Int, peak: Int) = (0, 0)
        await measured.runTask {
            read = await readSlowly(resource.streamRequest())
        }
        blackHole(read.count)
        measured.record(peakResidentGrowth, read.peak >> 20)
    }
}

/// Reads `streamed` off the main actor, pausing 1 ms after each MiB: the bytes read and the most the resident memory
/// grew.
nonisolated private func readSlowly(_ streamed: StreamedRequest) async -> (Int, Int) {
    let start = residentBytes()
    var (count, nextPause, peak) = (0, 1 << 20, 0)
    do {
        for try await piece in streamed.bytes {
            count += piece.count
            if count >= nextPause {
                nextPause += 1 << 20
                peak = max(peak, residentBytes() - start)
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    } catch {
        return (-1, peak)
    }
    return (count, peak)
}

/// Reads `streamed`'s body off the main actor, counting its bytes: the count and when the first piece came.
nonisolated private func readStreamed(
    _ streamed: StreamedRequest, _ clock: ContinuousClock
) async -> (Int, ContinuousClock.Instant) {
    var count = 0
    var first: ContinuousClock.Instant?
    do {
        for try await piece in streamed.bytes {
            if first == nil { first = clock.now }
            count += piece.count
        }
    } catch {
        return (-1, clock.now)
    }
    return (count, first ?? clock.now)
}

/// A hand-made streaming download: a data task whose delegate counts the bytes as they arrive, and nothing else.
private final class CountingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: the session calls it on its serial delegate queue, one call at a time.
    private static let session = URLSession(
        configuration: .default, delegate: Router(),
        delegateQueue: {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            return queue
        }())
    private let clock: ContinuousClock
    private var count = 0
    private var first: ContinuousClock.Instant?
    private let done: CheckedContinuation<(Int, ContinuousClock.Instant), Never>

    private init(clock: ContinuousClock, done: CheckedContinuation<(Int, ContinuousClock.Instant), Never>) {
        self.clock = clock
        self.done = done
    }

    static func read(_ url: URL, _ clock: ContinuousClock) async -> (Int, ContinuousClock.Instant) {
        await withCheckedContinuation { continuation in
            let task = session.dataTask(with: url)
            let counter = CountingDelegate(clock: clock, done: continuation)
            Router.lock.withLock { Router.delegates[task.taskIdentifier] = counter }
            task.resume()
        }
    }

    func received(_ data: Data) {
        if first == nil { first = clock.now }
        count += data.count
    }

    func finished() {
        done.resume(returning: (count, first ?? clock.now))
    }

    /// The session's one delegate, handing each task's calls to its counter.
    private final class Router: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        static let lock = NSLock()
        nonisolated(unsafe) static var delegates: [Int: CountingDelegate] = [:]  // touched only under `lock`

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            Self.lock.withLock { Self.delegates[dataTask.taskIdentifier] }?.received(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            Self.lock.withLock { Self.delegates.removeValue(forKey: task.taskIdentifier) }?.finished()
        }
    }
}
