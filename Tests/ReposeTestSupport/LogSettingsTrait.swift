import Testing

/// Runs a suite while no other suite with this trait runs. ReposeLog's enabled set, handler and sensitive names are
/// process-wide: the suites that set them, and those that read them, take turns. `.serialized` orders only the suites
/// nested in one suite, and these are in three test targets, run in one process: the logging suites of
/// ReposeRequestTests, the logging page's test among the guide's, and the logging suite over real HTTP.
struct LogSettingsTrait: SuiteTrait, TestScoping {
    private static let turns = Turns()

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.turns.take()
        do {
            try await function()
        } catch {
            await Self.turns.pass()
            throw error
        }
        await Self.turns.pass()
    }
}

extension Trait where Self == LogSettingsTrait {
    /// The suite has ReposeLog's process-wide settings to itself while it runs (see ``LogSettingsTrait``).
    static var holdsLogSettings: Self { Self() }
}

/// One turn at a time, handed on in the order asked for.
private actor Turns {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }  // the turn is handed over still taken
    }

    func pass() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
