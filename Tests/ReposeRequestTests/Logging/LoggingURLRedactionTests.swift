import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

extension LoggingTests {
    @Suite("URL redaction")
    struct URLRedactionTests {
        /// Each URL and the text Repose writes for it. The names are judged by ``ReposeLog/SensitiveNames/standard``:
        /// a name that merely contains `token` (`tokens_per_page`) is hidden too, on purpose: a page size lost from a
        /// log line costs less than a credential written to one.
        static let cases: [(url: String, loggable: String)] = [
            ("https://zingle.frotz/v1/users?page=2&sort=name", "https://zingle.frotz/v1/users?page=2&sort=name"),
            ("https://me:pa55word@zingle.frotz/v1", "https://me:<redacted>@zingle.frotz/v1"),
            // A user name alone is a token as often as a name (`https://TOKEN@host`): hidden whole.
            ("https://ghp_s3cret@zingle.frotz/v1", "https://<redacted>@zingle.frotz/v1"),
            ("https://me:pa55word@zingle.frotz:8443/v1?a=1", "https://me:<redacted>@zingle.frotz:8443/v1?a=1"),
            ("https://me@zingle.frotz/v1", "https://<redacted>@zingle.frotz/v1"),
            ("https://zingle.frotz/v1?access_token=s3cret", "https://zingle.frotz/v1?access_token=<redacted>"),
            ("https://zingle.frotz/v1?api_key=s3cret&page=2", "https://zingle.frotz/v1?api_key=<redacted>&page=2"),
            ("https://zingle.frotz/v1?apikey=s3cret", "https://zingle.frotz/v1?apikey=<redacted>"),
            ("https://zingle.frotz/v1?X-Api-Key=s3cret", "https://zingle.frotz/v1?X-Api-Key=<redacted>"),
            ("https://zingle.frotz/v1?Access_TOKEN=s3cret", "https://zingle.frotz/v1?Access_TOKEN=<redacted>"),
            ("https://zingle.frotz/v1?access%5Ftoken=s3cret", "https://zingle.frotz/v1?access%5Ftoken=<redacted>"),
            ("https://zingle.frotz/v1?%70assword=s3cret", "https://zingle.frotz/v1?%70assword=<redacted>"),
            (
                "https://zingle.frotz/v1?a=1&password=s3cret&client_secret=s3cret&b=2",
                "https://zingle.frotz/v1?a=1&password=<redacted>&client_secret=<redacted>&b=2"
            ),
            ("https://zingle.frotz/v1?cookie=s3cret", "https://zingle.frotz/v1?cookie=<redacted>"),
            ("https://zingle.frotz/v1?token=a=s3cret", "https://zingle.frotz/v1?token=<redacted>"),
            ("https://zingle.frotz/v1?tokens_per_page=20", "https://zingle.frotz/v1?tokens_per_page=<redacted>"),
            ("https://zingle.frotz/v1?token&token=", "https://zingle.frotz/v1?token&token="),
            ("https://zingle.frotz/v1?id=1#section-2", "https://zingle.frotz/v1?id=1#section-2"),
            (
                "https://zingle.frotz/cb#access_token=s3cret&state=xyz",
                "https://zingle.frotz/cb#access_token=<redacted>&state=xyz"
            ),
            (
                "https://me:pa55word@zingle.frotz/v1?session_token=s3cret#id_token=s3cret",
                "https://me:<redacted>@zingle.frotz/v1?session_token=<redacted>#id_token=<redacted>"
            ),
            ("https://zingle.frotz/v1/authorization?x=1", "https://zingle.frotz/v1/authorization?x=1"),
        ]

        @Test("describe(url) hides the user-info password and the values of sensitive parameters", arguments: cases)
        func describesURL(url: String, loggable: String) throws {
            let parsed = try #require(URL(string: url))
            #expect(ReposeLog.describe(url: parsed) == loggable)
        }

        @Test("URLs inside free text are redacted where they stand, and the rest of the text is kept")
        func urlsInText() {
            let text = #"failed: "https://me:pa55word@zingle.frotz/v1?token=s3cret", then https://x.y/?a=1. Done"#
            #expect(
                ReposeLog.redactingURLs(in: text)
                    == #"failed: "https://me:<redacted>@zingle.frotz/v1?token=<redacted>", then https://x.y/?a=1. Done"#
            )
            #expect(ReposeLog.redactingURLs(in: "no address here") == "no address here")
            let error = "UserInfo={NSErrorFailingURLStringKey=https://zingle.frotz/?api_key=s3cret}"
            #expect(
                ReposeLog.redactingURLs(in: error)
                    == "UserInfo={NSErrorFailingURLStringKey=https://zingle.frotz/?api_key=<redacted>}")
        }

        @Test("header and parameter names are judged by one rule: exact names, and names containing a fragment")
        func standardNames() {
            let names = ReposeLog.SensitiveNames.standard
            for name in [
                "Authorization", "proxy-authorization", "COOKIE", "Set-Cookie", "X-Auth-Token", "client_secret",
                "X-API-Key", "api_key", "ApiKey", "Password", "db.password", " Cookie ",
            ] {
                #expect(names.contains(name), "\(name)")
            }
            for name in ["Accept", "X-Authorization-Hint", "Cookie-Policy", "ETag", "page", "api", "key"] {
                #expect(!names.contains(name), "\(name)")
            }
        }

        @Test("the sensitive names can be extended, and then apply to headers and to URLs alike")
        func configurableNames() throws {
            let standard = ReposeLog.sensitiveNames
            defer { ReposeLog.sensitiveNames = standard }
            ReposeLog.sensitiveNames.exactNames.insert("X-Session")
            ReposeLog.sensitiveNames.fragments.insert("signature")
            #expect(ReposeLog.redactingHeaders(["x-session": "s3cret"]) == ["x-session": "<redacted>"])
            let url = try #require(URL(string: "https://zingle.frotz/f?X-Amz-Signature=s3cret&x-session=s3cret"))
            #expect(
                ReposeLog.describe(url: url)
                    == "https://zingle.frotz/f?X-Amz-Signature=<redacted>&x-session=<redacted>")
        }
    }
}
