/// Repose's logging switchboard: which categories are logged, where the lines go, and which secrets are hidden.
///
/// Logging is off until you enable some categories, typically once at startup:
///
/// ```swift
/// ReposeLog.enabled = .common                    // or [.network, .stateChanges], .detailed, .all
/// ReposeLog.messageHandler = { category, message in
///     logger.info("\(category): \(message)")      // e.g. a swift-log or os.Logger logger
/// }
/// ```
///
/// A disabled category costs one atomic load and a bit test per log call; the message is not built. Settings may
/// be changed at any time from any thread, and log calls may come from any thread.
///
/// Secrets are replaced by `<redacted>` in every line Repose writes, and in the descriptions of resources,
/// requests, errors and entities: the values of sensitive headers, the password in a URL, and the values of
/// sensitive URL parameters. ``sensitiveNames`` says which names are sensitive; ``redactsSecrets`` turns hiding
/// off while debugging.
public enum ReposeLog {
    /// Receives every enabled log line: its category and the message text, without any prefix.
    ///
    /// Called on whatever thread logged the message, so it must be safe to call concurrently.
    public typealias MessageHandler = @Sendable (Category, String) -> Void

    /// The categories that are logged. Empty (``Category/none``) by default.
    public static var enabled: Category {
        get { settings.enabled }
        set { settings.enabled = newValue }
    }

    /// Where log lines go. Defaults to ``defaultMessageHandler``, which prints to standard output.
    ///
    /// The handler is never called while Repose holds a lock, so it may itself log or change settings.
    public static var messageHandler: MessageHandler {
        get { settings.handler }
        set { settings.handler = newValue }
    }

    /// Whether secrets are replaced by `<redacted>` in the text Repose writes. `true` by default; set it to
    /// `false` to see credentials while debugging.
    ///
    /// It applies to every line Repose builds itself, to the descriptions of resources, requests, errors and
    /// entities, and to ``describe(headers:redacting:)``, ``describe(url:redacting:)`` and their siblings.
    /// Messages you pass to ``log(_:_:)`` are handed over as they are.
    public static var redactsSecrets: Bool {
        get { settings.redactsSecrets }
        set { settings.redactsSecrets = newValue }
    }

    /// The former name of ``redactsSecrets``, from when only headers were redacted.
    @available(*, deprecated, renamed: "redactsSecrets")
    public static var redactsSensitiveHeaders: Bool {
        get { redactsSecrets }
        set { redactsSecrets = newValue }
    }

    /// Which header and URL parameter names carry secrets; ``SensitiveNames/standard`` by default.
    ///
    /// Extend it for an API that sends credentials under names of its own:
    ///
    /// ```swift
    /// ReposeLog.sensitiveNames.exactNames.insert("X-Session")
    /// ```
    public static var sensitiveNames: SensitiveNames {
        get { settings.sensitiveNames }
        set { settings.sensitiveNames = newValue }
    }

    /// Prints each line to standard output with a short prefix, such as `[Repose:network] GET https://…`.
    public static let defaultMessageHandler: MessageHandler = { category, message in
        print(defaultLine(category, message))
    }

    /// Whether a message in `category` would be logged here: on this task, with the current settings.
    ///
    /// Use it to skip expensive preparation that the message text alone does not cover.
    public static func isEnabled(_ category: Category) -> Bool {
        LogSettings.handler(for: category) != nil
    }

    /// Logs `message` in `category` if that category is enabled.
    ///
    /// The message is only built when it will be logged, so interpolating expensive descriptions is free while
    /// the category is off. A message in several categories is logged when any of them is enabled. The text is
    /// not rewritten: format headers with ``describe(headers:redacting:)`` and URLs with
    /// ``describe(url:redacting:)`` to keep credentials out of it.
    ///
    /// - Parameters:
    ///   - category: What the message is about, usually a single category.
    ///   - message: The text, built only if the message is logged.
    public static func log(_ category: Category, _ message: @autoclosure () -> String) {
        guard let handler = LogSettings.handler(for: category) else { return }
        handler(category, message())
    }

    static func defaultLine(_ category: Category, _ message: String) -> String {
        "[Repose:\(category)] \(message)"
    }

    static let settings = LogSettings()
}
