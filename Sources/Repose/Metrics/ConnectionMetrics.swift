import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the connection that carried a request's last attempt was made, where the platform reports it: on Apple
/// platforms from `URLSessionTaskMetrics`; Linux's Foundation reports nothing, so ``RequestMetrics/connection`` is
/// `nil` there.
public struct ConnectionMetrics: Sendable, Hashable {
    /// Seconds spent resolving the host's name; `nil` when no lookup was made (a reused connection, an address).
    public var domainLookup: TimeInterval?
    /// Seconds spent opening the connection, the TLS handshake included; `nil` when an open one was reused.
    public var connect: TimeInterval?
    /// Seconds of the TLS handshake, a part of ``connect``; `nil` without TLS.
    public var secureConnection: TimeInterval?
    /// Whether a connection already open was reused.
    public var isReused: Bool
    /// The protocol as the platform names it (`http/1.1`, `h2`, `h3`), when it says.
    public var networkProtocol: String?

    /// Creates connection metrics; the URLSession provider makes them for you, this is for tests and custom
    /// providers.
    public init(
        domainLookup: TimeInterval? = nil, connect: TimeInterval? = nil, secureConnection: TimeInterval? = nil,
        isReused: Bool = false, networkProtocol: String? = nil
    ) {
        self.domainLookup = domainLookup
        self.connect = connect
        self.secureConnection = secureConnection
        self.isReused = isReused
        self.networkProtocol = networkProtocol
    }
}

extension ConnectionMetrics {
    /// The phases of `transaction`: the last transaction of a task's metrics, the one that brought its answer.
    init(_ transaction: URLSessionTaskTransactionMetrics) {
        func seconds(_ start: Date?, _ end: Date?) -> TimeInterval? {
            guard let start, let end else { return nil }
            return end.timeIntervalSince(start)
        }
        self.init(
            domainLookup: seconds(transaction.domainLookupStartDate, transaction.domainLookupEndDate),
            connect: seconds(transaction.connectStartDate, transaction.connectEndDate),
            secureConnection: seconds(transaction.secureConnectionStartDate, transaction.secureConnectionEndDate),
            isReused: transaction.isReusedConnection, networkProtocol: transaction.networkProtocolName)
    }
}
