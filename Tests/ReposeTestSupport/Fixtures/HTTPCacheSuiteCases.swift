import Foundation
import Testing

/// One case of another project's HTTP cache test suite, restated as data: a response (status and headers), how long
/// after it arrived the next `loadIfNeeded()` is judged, and whether that suite reuses the response then. Written
/// from what the cases check, not from their code. `repose` is what Repose does; where it differs, `why` says why
/// (and Docs/Freshness.md lists the same reasons).
///
/// A header value written `{+3600}` or `{-120}` is an HTTP date that many seconds from the moment of receipt.
struct HTTPCacheSuiteCase: Sendable, CustomTestStringConvertible {
    let suite: String
    let name: String
    var status = 200
    let headers: [String: String]
    let after: TimeInterval
    let suiteReuses: Bool
    let reposeReuses: Bool
    var why: String?

    var testDescription: String { "\(suite): \(name) (after \(Int(after)) s)" }
    var agrees: Bool { suiteReuses == reposeReuses }

    /// The headers with their `{±seconds}` dates written out, for a response received at `received`.
    func resolvedHeaders(received: TimeInterval) -> [String: String] {
        headers.mapValues { value in
            guard value.hasPrefix("{"), value.hasSuffix("}"), let offset = Double(value.dropFirst().dropLast()) else {
                return value
            }
            return Self.httpDate(received + offset)
        }
    }

    static func httpDate(_ seconds: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}

extension HTTPCacheSuiteCase {
    static let noLifetime =
        "no lifetime of its own: the configured expirationTime (30 s here) applies, a documented choice"
    static let noHeuristic = "no heuristic lifetime from Last-Modified: the configured expirationTime applies"
    static let errorIsNotData =
        "an error status is never a resource's data: it becomes latestError, retried after retryTime"
    static let successIsData = "a 2xx answer is the resource's data, fresh for the configured time; no status list"

    private static let hcs = "http-cache-semantics"
    private static let okhttp = "http-cache-semantics (okhttp cases)"
    private static let wptFreshness = "WPT fetch/http-cache freshness"
    private static let wptVary = "WPT fetch/http-cache vary"
    private static let wptHeuristic = "WPT fetch/http-cache heuristic"
    private static let day: TimeInterval = 86_400
    private static let oldDate = "Mon, 07 Mar 2016 11:52:56 GMT"
    private static let oldExpires = "Sat, 07 May 2016 15:35:18 GMT"

    static let all: [HTTPCacheSuiteCase] = responseCases + okhttpCases + wptCases + heuristicCases

    private static let responseCases: [HTTPCacheSuiteCase] = [
        .init(
            suite: hcs, name: "simple miss", headers: [:], after: 0, suiteReuses: false, reposeReuses: true,
            why: noLifetime),
        .init(
            suite: hcs, name: "simple hit", headers: ["Cache-Control": "public, max-age=999999"], after: 999_000,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "weird syntax", headers: ["Cache-Control": ",,,,max-age =  456      ,"],
            after: 455, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "quoted syntax", headers: ["Cache-Control": "  max-age = \"678\"      "],
            after: 677, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "IIS", headers: ["Cache-Control": "private, public, max-age=259200"],
            after: 259_000, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "pre-check tolerated",
            headers: ["Cache-Control": "pre-check=0, post-check=0, no-store, no-cache, max-age=100"], after: 0,
            suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "cache with expires", headers: ["Date": "{0}", "Expires": "{2}"], after: 1,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "cache with expires relative to date", headers: ["Date": "{-3}", "Expires": "{0}"],
            after: 2, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "cache expires no date", headers: ["Cache-Control": "public", "Expires": "{3600}"],
            after: 3_590, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "Ages, still fresh", headers: ["Cache-Control": "max-age=100", "Age": "50"],
            after: 48, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "Ages, then stale", headers: ["Cache-Control": "max-age=100", "Age": "50"],
            after: 53, suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "Age can make stale", headers: ["Cache-Control": "max-age=100", "Age": "101"],
            after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "Age not always stale", headers: ["Cache-Control": "max-age=20", "Age": "15"],
            after: 0, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "Bogus age ignored", headers: ["Cache-Control": "max-age=20", "Age": "golden"],
            after: 0, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "cache old files", headers: ["Date": "{0}", "Last-Modified": oldDate], after: 100,
            suiteReuses: true, reposeReuses: false, why: noHeuristic),
        .init(
            suite: hcs, name: "immutable simple hit", headers: ["Cache-Control": "immutable, max-age=999999"],
            after: 999_000, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "immutable can expire", headers: ["Cache-Control": "immutable, max-age=0"],
            after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "cache immutable files",
            headers: ["Date": "{0}", "Cache-Control": "immutable", "Last-Modified": "{0}"], after: 100,
            suiteReuses: true, reposeReuses: false,
            why: "immutable without max-age gets that library's own minimum (a day); here the configured time"),
        .init(
            suite: hcs, name: "pragma: no-cache", headers: ["Pragma": "no-cache", "Last-Modified": oldDate],
            after: 0, suiteReuses: false, reposeReuses: true,
            why: "Pragma has no defined meaning in a response (RFC 9111 §5.4 is about requests)"),
        .init(
            suite: hcs, name: "blank cache-control and pragma: no-cache",
            headers: ["Cache-Control": "", "Pragma": "no-cache", "Last-Modified": "{-10}"], after: 0,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "no-store", headers: ["Cache-Control": "no-store, public, max-age=1"], after: 0,
            suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "observe private cache", headers: ["Cache-Control": "private, max-age=1234"],
            after: 1_200, suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "don't share cookies (private cache)",
            headers: ["Set-Cookie": "foo=bar", "Cache-Control": "max-age=99"], after: 90, suiteReuses: true,
            reposeReuses: true),
        .init(
            suite: hcs, name: "miss max-age=0", headers: ["Cache-Control": "public, max-age=0"], after: 0,
            suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "uncacheable 503", status: 503, headers: ["Cache-Control": "public, max-age=1000"],
            after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "uncacheable 412", status: 412, headers: ["Cache-Control": "public, max-age=1000"],
            after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "expired expires cached with max-age",
            headers: ["Cache-Control": "public, max-age=9999", "Expires": oldExpires], after: 9_000,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: hcs, name: "expired expires cached with s-maxage (private cache)",
            headers: ["Cache-Control": "public, s-maxage=9999", "Expires": oldExpires], after: 0,
            suiteReuses: false, reposeReuses: false),
        .init(
            suite: hcs, name: "max-age wins over future expires",
            headers: ["Cache-Control": "public, max-age=333", "Expires": "{3600}"], after: 340,
            suiteReuses: false, reposeReuses: false),
    ]

    private static let okhttpCases: [HTTPCacheSuiteCase] = [
        .init(
            suite: okhttp, name: "default expiration date fully cached for less than 24 hours",
            headers: ["Last-Modified": "{-105}", "Date": "{-5}"], after: 4, suiteReuses: true, reposeReuses: true),
        .init(
            suite: okhttp, name: "default expiration date fully cached for more than 24 hours",
            headers: ["Last-Modified": "{\(-105 * day)}", "Date": "{\(-5 * day)}"], after: 4 * day,
            suiteReuses: true, reposeReuses: false, why: noHeuristic),
        .init(
            suite: okhttp, name: "max age in the past with date header but no last modified header",
            headers: ["Date": "{-120}", "Cache-Control": "max-age=60"], after: 0, suiteReuses: true,
            reposeReuses: true),
        .init(
            suite: okhttp, name: "maxAge timetolive", headers: ["Date": "{120}", "Cache-Control": "max-age=60"],
            after: 59, suiteReuses: true, reposeReuses: true),
        .init(
            suite: okhttp, name: "stale-while-revalidate timetolive",
            headers: ["Date": "{120}", "Cache-Control": "max-age=60, stale-while-revalidate=200"], after: 0,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: okhttp, name: "max age preferred over lower shared max age",
            headers: ["Date": "{-120}", "Cache-Control": "s-maxage=60, max-age=180"], after: 170,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: okhttp, name: "max age preferred over higher max age",
            headers: ["Age": "360", "Cache-Control": "s-maxage=60, max-age=180"], after: 0, suiteReuses: false,
            reposeReuses: false),
        .init(
            suite: okhttp, name: "etag and expiration date in the future",
            headers: ["ETag": "v1", "Last-Modified": "{-7200}", "Expires": "{3600}"], after: 3_500,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: okhttp, name: "must-revalidate with an Age past max-age",
            headers: ["Cache-Control": "max-age=120, must-revalidate", "Age": "360"], after: 0, suiteReuses: false,
            reposeReuses: false),
    ]

    private static let wptCases: [HTTPCacheSuiteCase] = [
        .init(
            suite: wptFreshness, name: "reuses a response with a future Expires",
            headers: ["Date": "{0}", "Expires": "{\(30 * day)}"], after: 0, suiteReuses: true, reposeReuses: true),
        .init(
            suite: wptFreshness, name: "does not reuse a response with a past Expires",
            headers: ["Date": "{0}", "Expires": "{\(-30 * day)}"], after: 0, suiteReuses: false,
            reposeReuses: false),
        .init(
            suite: wptFreshness, name: "does not reuse a response with a present Expires",
            headers: ["Date": "{0}", "Expires": "{0}"], after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: wptFreshness, name: "does not reuse a response with an invalid Expires",
            headers: ["Expires": "0"], after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: wptFreshness, name: "reuses a response with positive max-age",
            headers: ["Cache-Control": "max-age=3600"], after: 0, suiteReuses: true, reposeReuses: true),
        .init(
            suite: wptFreshness, name: "does not reuse a response with max-age=0",
            headers: ["Cache-Control": "max-age=0"], after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: wptFreshness, name: "reuses positive max-age with a past Expires",
            headers: ["Cache-Control": "max-age=3600", "Expires": "{-10000}"], after: 0, suiteReuses: true,
            reposeReuses: true),
        .init(
            suite: wptFreshness, name: "reuses positive max-age with an invalid Expires",
            headers: ["Cache-Control": "max-age=3600", "Expires": "0"], after: 0, suiteReuses: true,
            reposeReuses: true),
        .init(
            suite: wptFreshness, name: "does not reuse max-age=0 with a future Expires",
            headers: ["Cache-Control": "max-age=0", "Expires": "{10000}"], after: 0, suiteReuses: false,
            reposeReuses: false),
        .init(
            suite: wptFreshness, name: "does not prefer s-maxage over max-age",
            headers: ["Cache-Control": "max-age=1, s-maxage=3600"], after: 3, suiteReuses: false,
            reposeReuses: false),
        .init(
            suite: wptFreshness, name: "does not reuse when Age is greater than the lifetime",
            headers: ["Cache-Control": "max-age=3600", "Age": "12000"], after: 0, suiteReuses: false,
            reposeReuses: false),
        .init(
            suite: wptFreshness, name: "does not store no-store",
            headers: ["Cache-Control": "no-store"], after: 0, suiteReuses: false, reposeReuses: false),
        .init(
            suite: wptFreshness, name: "does not store no-store, even with max-age and Expires",
            headers: ["Cache-Control": "max-age=10000, no-store", "Expires": "{10000}"], after: 0,
            suiteReuses: false, reposeReuses: false),
        .init(
            suite: wptFreshness, name: "stores no-cache, but revalidates upon use",
            headers: ["Cache-Control": "no-cache", "ETag": "abcd"], after: 0, suiteReuses: false,
            reposeReuses: false),
        .init(
            suite: wptFreshness, name: "revalidates no-cache, even with max-age and Expires",
            headers: ["Cache-Control": "max-age=10000, no-cache", "Expires": "{10000}", "ETag": "abcd"], after: 0,
            suiteReuses: false, reposeReuses: false),
        .init(
            suite: wptVary, name: "reuses a Vary response when the request matches",
            headers: ["Expires": "{5000}", "Last-Modified": "{-3000}", "Vary": "Foo"], after: 0,
            suiteReuses: true, reposeReuses: true),
        .init(
            suite: wptVary, name: "does not use a Vary response with a field value of *",
            headers: ["Expires": "{5000}", "Last-Modified": "{-3000}", "Vary": "*"], after: 0,
            suiteReuses: false, reposeReuses: false),
    ]

    private static let heuristicCases: [HTTPCacheSuiteCase] =
        [
            .init(
                suite: wptHeuristic, name: "reuses an unknown status (299) with Cache-Control: public", status: 299,
                headers: ["Last-Modified": "{-300}", "Cache-Control": "public"], after: 0, suiteReuses: true,
                reposeReuses: true),
            .init(
                suite: wptHeuristic, name: "does not reuse an unknown status (299) without public", status: 299,
                headers: ["Last-Modified": "{-300}"], after: 0, suiteReuses: false, reposeReuses: true,
                why: successIsData),
        ]
        + [(200, true), (203, true), (204, true), (201, false), (202, false)].map { status, suiteReuses in
            .init(
                suite: wptHeuristic, name: "a \(status) with Last-Modified", status: status,
                headers: ["Last-Modified": "{-300}"], after: 0, suiteReuses: suiteReuses, reposeReuses: true,
                why: suiteReuses ? nil : successIsData)
        }
        + [
            (404, true), (405, true), (410, true), (414, true), (501, true), (403, false), (502, false),
            (503, false), (504, false),
        ].map { status, suiteReuses in
            .init(
                suite: wptHeuristic, name: "a \(status) with Last-Modified", status: status,
                headers: ["Last-Modified": "{-300}"], after: 0, suiteReuses: suiteReuses, reposeReuses: false,
                why: suiteReuses ? errorIsNotData : nil)
        }
}
