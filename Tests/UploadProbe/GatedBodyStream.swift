import Foundation

/// A request body whose first read blocks until `release()` is called (or 120 s pass), then ends the body.
///
/// URLSession reads a body stream on its own network queue, which every session of the process shares on Linux:
/// while `read` blocks, that queue is held, which is why this runs only in a process of its own. `status` is only
/// touched by the session, on that queue; what the caller reads is behind a lock or a semaphore.
final class GatedBodyStream: InputStream {
    private let reading = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let holding = NSLock()
    private var held = false
    private var status: Stream.Status = .notOpen

    init() {
        super.init(data: Data())
    }

    /// Whether a read is blocked at the gate right now.
    var isHolding: Bool { holding.withLock { held } }

    /// Blocks until the session reads the body; `false` if it did not within `seconds`.
    func waitUntilReading(seconds: Int) -> Bool {
        reading.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Lets the blocked read end the body.
    func release() {
        released.signal()
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open else { return 0 }
        holding.withLock { held = true }
        reading.signal()
        // The probe releases it as soon as the second request's start returns; bounded, so that a start that waits
        // for this queue ends the probe with `held false` instead of a deadlock.
        _ = released.wait(timeout: .now() + .seconds(120))
        holding.withLock { held = false }
        status = .atEnd
        return 0
    }
}
