import Foundation

/// The service's one source of time: its scheduler. Every timestamp (data, errors, cancellations, progress
/// sampling) and every timer reads it, so a test on a ``TestScheduler`` sees virtual time everywhere.
enum ServiceClock {
    /// Seconds since 1970, read from `scheduler`.
    ///
    /// A virtual scheduler's time is taken as is: a test that wants dates starts it at, say, `.seconds(1000)`. A
    /// real one counts from an origin of its own, so the date is read once, here, to place that origin; after that
    /// the clock advances with the scheduler alone, and never jumps when the device's date is changed.
    static func reading(_ scheduler: any Scheduler & Sendable) -> @Sendable () -> TimeInterval {
        if scheduler.usesVirtualTime {
            return { seconds(scheduler.now) }
        }
        let origin = Date().timeIntervalSince1970 - seconds(scheduler.now)
        return { origin + seconds(scheduler.now) }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (whole, attoseconds) = duration.components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}
