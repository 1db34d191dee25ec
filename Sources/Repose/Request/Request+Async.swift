extension Request {
    /// The request's response, once it completes.
    ///
    /// Cancelling the awaiting task cancels the request.
    ///
    /// ```swift
    /// switch await resource.load().response {
    /// case .success(let entity): print(entity.text)
    /// case .failure(let error): print(error.userMessage)
    /// }
    /// ```
    public var response: Response {
        get async { await responseInfo.response }
    }

    /// The response together with whether it brought new data, once the request completes.
    public var responseInfo: ResponseInfo {
        get async {
            if let completedResponse { return completedResponse }
            // The continuation resumes on the main actor, where the info was produced; the transfer box only
            // satisfies the checker for the non-Sendable `Any` content.
            let transfer = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<UncheckedTransfer<ResponseInfo>, Never>) in
                    onCompletion { continuation.resume(returning: UncheckedTransfer($0)) }
                }
            } onCancel: {
                MainRoute.send { self.cancel() }
            }
            return transfer.value
        }
    }

    /// The entity the request produced; throws its ``RequestError`` on failure.
    public var entity: Entity<Any> {
        get async throws(RequestError) { try await response.get() }
    }

    /// The content the request produced, as `type`.
    ///
    /// - Throws: The request's ``RequestError``, or one whose cause is
    ///   ``RequestError/Cause/WrongInputTypeInTranformerPipeline`` when the content has another type (a model read
    ///   without a transformer that makes it): its message names both types.
    public func content<T>(as type: T.Type = T.self) async throws(RequestError) -> T {
        let entity = try await self.entity
        guard let content = entity.content as? T else {
            let cause = RequestError.Cause.WrongInputTypeInTranformerPipeline(
                expectedType: T.self, actualType: Swift.type(of: entity.content), transformer: "content(as:)")
            throw RequestError(userMessage: cause.displayMessage, cause: cause, entity: entity, timestamp: now())
        }
        return content
    }
}
