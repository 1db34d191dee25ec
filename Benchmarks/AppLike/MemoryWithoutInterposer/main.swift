import Foundation
import ResourceCases

// The memory case without the malloc interposer, which the two drivers link to count allocations: it adds a 16-byte
// header to every allocation, so their "Bytes per resource" includes 16 bytes per allocation that an app does not
// pay. This executable links no interposer and runs the case as AppLikeBenchmarks does (main thread, outside any
// task), once after a warm-up.
//
//   swift run --disable-sandbox -c release MemoryWithoutInterposer

let caseName = "Memory per resource with data and observer"

Task { @MainActor in
    guard let memoryCase = resourceCases().first(where: { $0.name == caseName }) else {
        print("MemoryWithoutInterposer: no case named \(caseName)")
        exit(1)
    }
    for pass in ["warm-up", "measured"] {
        var figures: [String] = []
        let measured = Measured(
            iterations: 1, mode: .appLike, start: {}, stop: {},
            record: { metric, value in figures.append("\(metric.name) \(value)") })
        await memoryCase.body(measured)
        if pass == "measured" { print("\(caseName), no interposer: \(figures.joined(separator: ", "))") }
    }
    exit(0)
}

RunLoop.main.run()
