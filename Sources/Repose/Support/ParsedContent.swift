/// Content as the pipeline left it, inside a value that crosses isolation boundaries: a ``RequestError``'s error
/// body and a ``ResourceState``'s data and content. It is typed `Any` (or the app's content type), which the
/// compiler cannot check, so this wrapper is the one place that vouches for it, and everything else in those values
/// is checked.
///
/// Safe: the content is made once, by a `Sendable` transformer or by the app (a local override, a snapshot it
/// builds), and Repose never mutates it afterwards; it only copies the values that hold it. Repose's own
/// transformers make values (`Data`, `String`, JSON collections, `Decodable` models). What this cannot vouch for is
/// content the app makes of a mutable class and mutates after handing it over.
struct ParsedContent<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
