import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Resource {
    /// Sends a request whose body is `data`, with `contentType` as its `Content-Type`.
    ///
    /// ```swift
    /// avatar.request(.put, data: pngData, contentType: "image/png")
    /// ```
    ///
    /// The `Content-Type` given here beats a configured header of the same name, but the ad hoc mutation and the
    /// configured mutators run later and may change it.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - data: The exact bytes to send.
    ///   - contentType: The body's media type.
    ///   - change: What to show on the resource while the request is on its way; `nil` for nothing.
    ///   - target: The resource the change shows on, when it is not this one.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - options: Whether the outbox may keep the request, and what its success makes stale.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        data: Data,
        contentType: String,
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        send(
            method, body: (data, contentType),
            RequestCall(
                change: change, target: target, headers: headers, options: options, requestMutation: requestMutation))
    }

    /// Sends a request whose body is `text` in `encoding`, labelled `contentType; charset=<encoding's name>`.
    ///
    /// ```swift
    /// note.request(.put, text: "Remember the milk")   // text/plain; charset=utf-8
    /// ```
    ///
    /// If some character cannot be written in `encoding`, the returned request has already failed with
    /// ``RequestError/Cause/UnencodableText``, and nothing is sent.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - text: The body.
    ///   - contentType: The media type, without a charset; Repose adds the encoding's IANA name.
    ///   - encoding: How to turn the text into bytes; UTF-8 by default.
    ///   - change: What to show on the resource while the request is on its way; `nil` for nothing.
    ///   - target: The resource the change shows on, when it is not this one.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - options: Whether the outbox may keep the request, and what its success makes stale.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        text: String,
        contentType: String = "text/plain",
        encoding: String.Encoding = .utf8,
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        let fullContentType = TextDecoding.charsetName(for: encoding).map { "\(contentType); charset=\($0)" }
        return send(
            method, contentType: fullContentType ?? contentType,
            RequestCall(
                change: change, target: target, headers: headers, options: options, requestMutation: requestMutation)
        ) {
            try RequestBody.text(text, encoding: encoding)
        }
    }

    /// Sends a request whose body is `json`, a dictionary or array of JSON values, as compact JSON.
    ///
    /// ```swift
    /// profile.request(.patch, json: ["name": "Ada", "langs": ["en", "fr"]])
    /// ```
    ///
    /// Keys are sorted, so the same value always gives the same bytes. If the value is not JSON (a `Date`, a
    /// `NaN`, a non-string key…), the returned request has already failed with
    /// ``RequestError/Cause/InvalidJSONObject``, and nothing is sent. `Encodable` values take the other overload,
    /// the one with an `encoder:`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - json: A dictionary or an array made of strings, numbers, booleans, `NSNull` and nested collections.
    ///   - contentType: The media type; `application/json` by default.
    ///   - change: What to show on the resource while the request is on its way; `nil` for nothing.
    ///   - target: The resource the change shows on, when it is not this one.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - options: Whether the outbox may keep the request, and what its success makes stale.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        json: Any,
        contentType: String = "application/json",
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        send(
            method, contentType: contentType,
            RequestCall(
                change: change, target: target, headers: headers, options: options, requestMutation: requestMutation)
        ) {
            try RequestBody.json(json)
        }
    }

    /// Sends a request whose body is `json` encoded by a `JSONEncoder`.
    ///
    /// ```swift
    /// struct NewPost: Encodable { var title: String }
    /// posts.request(.post, json: NewPost(title: "Hello"))
    /// ```
    ///
    /// Without an encoder, the body is compact, with sorted keys and unescaped slashes. If encoding fails, the
    /// returned request has already failed with ``RequestError/Cause/InvalidJSONObject`` (or the `RequestError`
    /// the value itself threw), and nothing is sent.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - json: The value to encode.
    ///   - encoder: The encoder, with its own strategies and formatting; `nil` for the compact default.
    ///   - contentType: The media type; `application/json` by default.
    ///   - change: What to show on the resource while the request is on its way; `nil` for nothing.
    ///   - target: The resource the change shows on, when it is not this one.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - options: Whether the outbox may keep the request, and what its success makes stale.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request<Body: Encodable>(
        _ method: RequestMethod,
        json: Body,
        encoder: JSONEncoder? = nil,
        contentType: String = "application/json",
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        send(
            method, contentType: contentType,
            RequestCall(
                change: change, target: target, headers: headers, options: options, requestMutation: requestMutation)
        ) {
            try RequestBody.json(json, encoder: encoder ?? Self.defaultJSONEncoder())
        }
    }

    /// Sends a request whose body is `params` as an HTML form (`application/x-www-form-urlencoded`).
    ///
    /// ```swift
    /// login.request(.post, urlEncoded: ["user": name, "password": password])
    /// ```
    ///
    /// Everything but letters, digits and `-._~` is percent-encoded (a space is `%20`), and the escaped
    /// `key=value` pairs are sorted by their bytes, so equal fields always give equal bodies.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - params: The form fields.
    ///   - change: What to show on the resource while the request is on its way; `nil` for nothing.
    ///   - target: The resource the change shows on, when it is not this one.
    ///   - headers: Headers of this request only, set after the configured ones and the body's `Content-Type`.
    ///   - options: Whether the outbox may keep the request, and what its success makes stale.
    ///   - requestMutation: A last change to this request before the configured mutators run.
    @discardableResult
    public func request(
        _ method: RequestMethod,
        urlEncoded params: [String: String],
        showing change: OptimisticChange? = nil,
        on target: Resource? = nil,
        headers: [String: String] = [:],
        options: RequestOptions = RequestOptions(),
        requestMutation: @escaping RequestMutation = { _ in }
    ) -> Request {
        send(
            method, contentType: RequestBody.urlEncodedContentType,
            RequestCall(
                change: change, target: target, headers: headers, options: options, requestMutation: requestMutation)
        ) {
            try RequestBody.urlEncoded(params)
        }
    }

    /// The request, already failed, of a body that could not be encoded or prepared: nothing is sent.
    func failedEncoding(_ error: any Error) -> Request {
        var failure = RequestError(wrapping: error, fallbackMessage: "The request body could not be encoded.")
        failure.timestamp = core.now()
        return Resource.failedRequest(returning: failure)
    }

    private static func defaultJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
