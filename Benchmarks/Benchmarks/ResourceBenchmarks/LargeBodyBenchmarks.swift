import Benchmark
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
    // Wall clock is the end-to-end time of one load of a 1 MB JSON body through the stub provider; the custom
    // metric is the CPU time the main thread spent on it. The main thread is otherwise idle while the load runs,
    // so its CPU time is the main actor's share: parsing must not be in it.
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput, mainActorNanoseconds]
    mainActorBenchmark("Load 1 MB JSON", configuration(.one, metrics: metrics, seconds: 3)) { measured in
        let service = stubbedService(body: .data(megabyteOfJSON, contentType: "application/json"))
        let resource = service.resource("/large")
        measured.start()
        let cpuBefore = threadCPUNanoseconds()
        await resource.loadAndWait()
        let cpuAfter = threadCPUNanoseconds()
        measured.stop()
        measured.record(mainActorNanoseconds, cpuAfter - cpuBefore)
        blackHole(resource.jsonArray.count)
    }
}
