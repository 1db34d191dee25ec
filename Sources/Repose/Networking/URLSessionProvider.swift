import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Temporary: replaced by the real provider from the `networking` branch.
public final class URLSessionProvider: NetworkingProvider {
    public init() {}
    public func startRequest(
        _ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
        completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        fatalError("placeholder")
    }
}
