import Foundation
import ReposeSignals

#if canImport(Network)
import Network
#endif

#if canImport(UIKit) && !os(watchOS)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

// The one place where a service listens to the system: memory warnings, the network coming back, the app becoming
// active. Each is an Apple default; elsewhere (Linux) there is none unless the app gives one.

extension Service {
    /// Loads every observed resource whose data is stale: the network came back, or the app became active
    /// (rule R8). Resources nobody observes wait for their next `loadIfNeeded()`.
    public func loadStaleObservedResources() {
        for resource in resourceTable.allResources where resource.isObserved {
            resource.loadIfNeeded()
        }
    }

    /// The service's outbox: the writes kept until the server has them (see ``Outbox``).
    public var outbox: Outbox {
        core.writes.outbox(of: core)
    }

    /// Makes `trigger` send what the outbox keeps waiting, for as long as this service lives (rule M8).
    func sendOutbox(on trigger: Signal<Void>?) {
        trigger?.observe(owner: self) { [weak self] in
            self?.core.writes.outbox?.resumeWaiting()
        }
    }

    /// Makes every signal in `triggers` call ``loadStaleObservedResources()`` for as long as this service lives.
    func reloadStaleResources(on triggers: [Signal<Void>?]) {
        for trigger in triggers.compactMap({ $0 }) {
            trigger.observe(owner: self) { [weak self] in self?.loadStaleObservedResources() }
        }
    }
}

extension Service.Options {
    /// Sends when the network becomes usable again after it was not: the network path monitor on Apple platforms,
    /// `nil` (nothing) elsewhere. The default of ``reconnected``.
    @MainActor
    public static func systemReconnections() -> Signal<Void>? {
        #if canImport(Network)
        Signal<Void> { send in
            let deliver = UncheckedTransfer(send)
            let monitor = NWPathMonitor()
            let last = PathStatus()
            monitor.pathUpdateHandler = { path in
                // Called on the main queue (see `start` below), one update at a time.
                let usable = path.status == .satisfied
                if usable, last.wasUsable == false { deliver.value(()) }
                last.wasUsable = usable
            }
            monitor.start(queue: .main)
            return { monitor.cancel() }
        }
        #else
        nil
        #endif
    }

    /// Sends when the app becomes active: the application's activation notification on iOS, tvOS, visionOS and
    /// macOS, `nil` (nothing) elsewhere. The default of ``becameActive``.
    @MainActor
    public static func systemActivations() -> Signal<Void>? {
        #if canImport(UIKit) && !os(watchOS)
        notifications(named: UIApplication.didBecomeActiveNotification)
        #elseif canImport(AppKit)
        notifications(named: NSApplication.didBecomeActiveNotification)
        #else
        nil
        #endif
    }

    /// A signal that sends for each notification named `name`, observed only while the signal has observers.
    static func notifications(named name: Notification.Name) -> Signal<Void> {
        Signal<Void> { send in
            let deliver = UncheckedTransfer(send)
            let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                deliver.value(())
            }
            return { NotificationCenter.default.removeObserver(token) }
        }
    }
}

#if canImport(Network)
/// Whether the network was usable at the previous update. Safe: only touched by the monitor's updates, which
/// arrive one at a time on the main queue.
private final class PathStatus: @unchecked Sendable {
    var wasUsable: Bool?
}
#endif

#if canImport(UIKit) && !os(watchOS)
extension Service {
    /// On a system memory warning, releases the resources nobody uses; observed ones stay.
    func flushOnMemoryWarnings() -> (any NSObjectProtocol)? {
        NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
        ) { [weak self] _ in
            // Delivered on the main queue (queue: .main), which is the main actor's executor.
            MainActor.assumeIsolated { self?.flushUnusedResources() }
        }
    }
}
#else
extension Service {
    /// No system memory warnings here: `cachedResourceCountLimit` and `flushUnusedResources()` do the job.
    func flushOnMemoryWarnings() -> (any NSObjectProtocol)? {
        nil
    }
}
#endif
