import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit

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
