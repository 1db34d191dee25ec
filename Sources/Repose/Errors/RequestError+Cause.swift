import Foundation

extension RequestError {
    /// The specific causes Repose itself reports in ``RequestError/cause``. Match on them with `is` or `as?`.
    ///
    /// Only Repose makes them, apart from ``ResponseTooLarge``, which a networking provider of your own reports
    /// when a body passes the request's limit.
    public enum Cause {
        /// The request's URL was missing or could not be parsed.
        public struct InvalidURL: Error, DisplayableCause {
            /// The text that was supposed to be a URL, if any.
            public let urlSource: String?
            var displayMessage: String { "The address of this request is not a valid URL." }
        }

        /// A text body could not be encoded in the requested encoding.
        public struct UnencodableText: Error, DisplayableCause {
            /// The encoding that was asked for.
            public let encoding: String.Encoding
            /// The text that did not fit it.
            public let text: String
            var displayMessage: String { "The text could not be encoded for sending." }
        }

        /// A file part of a multipart request is missing, unreadable, or not a regular file.
        public struct UnreadableMultipartFile: Error, DisplayableCause {
            /// The file that could not be read.
            public let fileURL: URL
            var displayMessage: String {
                "The file “\(fileURL.lastPathComponent)” could not be read for upload."
            }
        }

        /// A part of a multipart request cannot be written as `multipart/form-data`.
        public struct InvalidMultipartPart: Error, DisplayableCause {
            /// What is wrong with it.
            public let reason: String
            var displayMessage: String { "The upload could not be prepared. \(reason)" }
        }

        /// A JSON body contained something that is not JSON.
        public struct InvalidJSONObject: Error, DisplayableCause {
            var displayMessage: String { "The request body cannot be sent as JSON." }
        }

        /// A URL-encoded body contained a string that cannot be percent-encoded.
        public struct NotURLEncodable: Error, DisplayableCause {
            /// The string that could not be encoded.
            public let offendingString: String
            var displayMessage: String { "The request parameters cannot be URL-encoded." }
        }

        /// The request was cancelled before it completed.
        public struct RequestCancelled: Error, DisplayableCause {
            /// The error the networking layer reported for the cancellation, if any.
            public let networkError: (any Error)?
            var displayMessage: String { "The request was cancelled." }
        }

        /// The response's body was larger than the request's ``Configuration/maximumResponseSize``.
        ///
        /// The transfer was stopped as soon as the body passed the limit (or at once, when its announced length
        /// already did), and what had arrived was dropped. The limit counts the body as delivered, after any
        /// `Content-Encoding` such as gzip was undone.
        public struct ResponseTooLarge: Error, DisplayableCause {
            /// The limit that was passed, in bytes.
            public let maximumSize: Int
            public init(maximumSize: Int) { self.maximumSize = maximumSize }
            var displayMessage: String { "The server's response was too large." }
        }

        /// The server answered 304 Not Modified, but there was no local data to keep.
        public struct NoLocalDataFor304: Error, DisplayableCause {
            var displayMessage: String { "The server said nothing changed, but there is no saved data." }
        }

        /// The response named a charset that Repose does not know.
        public struct InvalidTextEncoding: Error, DisplayableCause {
            /// The charset name from the response.
            public let encodingName: String
            var displayMessage: String { "The server sent text in an unknown encoding." }
        }

        /// The response's bytes are not valid in the charset it declared.
        public struct UndecodableText: Error, DisplayableCause {
            /// The encoding the bytes were read with.
            public let encoding: String.Encoding
            var displayMessage: String { "The server's text could not be decoded." }
        }

        /// A transformer received content of a type it does not accept.
        public struct WrongInputTypeInTranformerPipeline: Error, DisplayableCause {
            /// The type the transformer accepts.
            public let expectedType: Any.Type
            /// The type it received.
            public let actualType: Any.Type
            /// A description of the transformer.
            public let transformer: String
            /// Names both types, so that a model read without the transformer that makes it says so at once.
            var displayMessage: String {
                "\(RequestError.cannotParseResponseMessage) (expected \(expectedType), got \(actualType))"
            }
        }

        /// A JSON response was a bare value (`17`, `"foo"`, `null`) instead of an object or an array.
        public struct JSONResponseIsNotDictionaryOrArray: Error, DisplayableCause {
            /// The type of the value found.
            public let actualType: Any.Type
            var displayMessage: String { "Cannot parse server response" }
        }

        /// A transformer returned `nil`.
        public struct TransformerReturnedNil: Error, DisplayableCause {
            /// A description of the transformer.
            public let transformer: String
            var displayMessage: String { "Cannot parse server response" }
        }

        /// A `Decodable` model could not be decoded from the response.
        public struct ModelDecodingFailed: Error, DisplayableCause {
            /// The model type.
            public let modelType: Any.Type
            /// The coding path where decoding stopped, e.g. `users[2].email`.
            public let codingPath: String
            /// What the decoder said.
            public let underlying: any Error
            var displayMessage: String { "Cannot parse server response" }
        }
    }
}

/// A cause that carries its own display-ready message: the ``RequestError/userMessage`` of an error made from it.
/// Apps read that message on the error; the cause is for matching.
protocol DisplayableCause {
    var displayMessage: String { get }
}
