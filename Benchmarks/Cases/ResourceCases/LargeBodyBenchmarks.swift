import Foundation
import Repose
import ReposeTesting

/// About 1 MB of JSON: an array of small objects, as a list endpoint returns.
let megabyteOfJSON: Data = {
    var text = "["
    var index = 0
    while text.utf8.count < 1_000_000 {
        if index > 0 { text += "," }
        text += #"{"id":\#(index),"name":"item \#(index)","active":true,"tags":["a","b"],"score":\#(index % 97).5}"#
        index += 1
    }
    return Data((text + "]").utf8)
}()

func largeBodyBenchmarks() {
    // Wall clock is the end-to-end time of one load of a 1 MB JSON body through the stub provider. The custom
    // metric is the main actor's share, timed where it happens: the `load()` call, plus the completion from the
    // first observer notification to the last completion hook. Not timed: the few assignments between the hop's
    // start and that first notification. Parsing happens between the two parts, off the main actor.
    let metrics = [mainActorNanoseconds]
    mainActorBenchmark("Load 1 MB JSON", configuration(.one, metrics: metrics, seconds: 3)) { measured in
        let service = stubbedService(body: .data(megabyteOfJSON, contentType: "application/json"))
        let resource = service.resource("/large")
        let owner = Owner()
        var notified = ContinuousClock.now
        resource.addObserver(owner: owner) { _, event in
            if case .newData = event { notified = ContinuousClock.now }
        }
        let clock = ContinuousClock()
        var callTime = Duration.zero
        var completionTime = Duration.zero
        await measured.run { done in
            let started = clock.now
            resource.load().onCompletion { _ in
                completionTime = clock.now - notified
                done()
            }
            callTime = clock.now - started
        }
        measured.record(mainActorNanoseconds, nanoseconds(callTime + completionTime))
        blackHole(resource.jsonArray.count)
    }
}
