/// An object that writes to a shared log when it is used and when it is freed.
///
/// Captured by an observer's closure, it shows exactly when that closure was released relative to other events,
/// and whether the closure still ran after its context would have been freed.
final class RecordingProbe {
    let name: String
    let log: RecordingLog

    init(_ name: String, log: RecordingLog) {
        self.name = name
        self.log = log
    }

    deinit {
        log.append("\(name) freed")
    }

    func note(_ event: String) {
        log.append("\(name) \(event)")
    }
}
