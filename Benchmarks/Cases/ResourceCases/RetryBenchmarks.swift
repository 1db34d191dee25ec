import Foundation
import Repose

// What retries and authentication cost a load that needs neither: the same stub load, one after another on one
// resource, with no policy, with a retry policy that is on but never retries (every answer is a 200), and with an
// authenticator whose credential is never refused. The first is the baseline: with no policy a request is built
// exactly as before. The figures are in Docs/Performance.md.
func retryBenchmarks() {
    let cases: [(String, @MainActor @Sendable (inout Configuration) -> Void)] = [
        ("Stub load, retry policy off (per load)", { _ in }),
        ("Stub load, retry policy on, not retrying (per load)", { $0.retryPolicy = RetryPolicy() }),
        (
            "Stub load, authenticator on, not refreshing (per load)",
            { $0.authenticator = Authenticator(credential: "token") { _ in "token" } }
        ),
    ]
    for (name, configure) in cases {
        mainActorBenchmark(name, configuration(.kilo, seconds: 3)) { measured in
            let service = stubbedService()
            service.configure { configure(&$0) }
            let resource = service.resource("/users/42")
            await resource.loadAndWait()  // builds the configuration once, as a resource's first load does
            let chain = Array(repeating: resource, count: measured.iterations.count)
            await measured.run { done in loadInSequence(chain, then: done) }
        }
    }
}
