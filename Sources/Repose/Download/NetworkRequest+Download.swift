import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A download is a network request whose body streams to a file (rule X2): built, decorated, retried, measured,
/// logged and brought back to the main actor like any request of its resource, so a 401 renews the credential,
/// ``Request/repeated()`` downloads again and a ``Configuration/retryPolicy`` sends a failed attempt again, into a
/// fresh temporary file. Only the transfer differs: the provider's streaming call
/// (``NetworkingProvider/startStreaming(_:response:body:completion:)``) hands the body over piece by piece, so that
/// memory stays flat however large the body. Every attempt that does not end in success removes its file: what the
/// app finds at the destination is whole.
extension NetworkRequest {
    /// Starts the current attempt of a download into a new temporary file beside `destination`; `nil`, with the
    /// failure posted, when that file cannot be made.
    func startDownload(to destination: URL, metrics: MetricsRecorder?) -> (any NetworkingTask)? {
        let now = resource.core.now
        let file: DownloadFile
        do {
            file = try DownloadFile(destination: destination)
        } catch {
            let message = RequestError.displayMessage(for: error) ?? NetworkErrorMessages.generalMessage
            post(.response(.failure(RequestError(userMessage: message, cause: error, timestamp: now()))))
            return nil
        }
        downloadFile = file
        let state = DownloadTransfer(file: file)
        // Progress a hundred times at most, through the request's inbox like any request's. The provider holds this
        // request (strongly) until the transfer ends, as it does for any request.
        return resource.core.networking.startStreaming(
            urlRequest,
            response: { head in
                state.begin(head)
                metrics?.record(.success(head))
            },
            body: { data in
                metrics?.recordBody(data.count)
                if let sample = state.append(data) { self.receive(sample) }
                // A full disk ends the download at its first failed write, not after the whole body was read: the
                // outcome goes now, and its delivery stops the transfer.
                if state.hasFailed { self.post(.response(state.finish(error: nil, timestamp: now()))) }
            },
            completion: { error in self.post(.response(state.finish(error: error, timestamp: now()))) })
    }
}
