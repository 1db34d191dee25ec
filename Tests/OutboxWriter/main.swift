// A child process for the outbox's kill test (OutboxKillTests): it queues writes through the outbox of a service
// over a folder as fast as it can, printing a line after each `request` returns, until the test kills it with
// SIGKILL. Its network is offline: each write is tried once and waits. At each attempt it prints whether the write's
// line was in the folder's journal when the request left.
//
// Usage: repose-outbox-writer <directory> <count>
import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
import ReposeStorage
#endif

/// An offline network that reports, for each request, whether its write was on disk as it left.
struct CheckingNetwork: NetworkingProvider {
    struct Task: NetworkingTask {
        func cancel() {}
    }

    let folder: URL

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        let key = request.value(forHTTPHeaderField: "Idempotency-Key") ?? "none"
        let journal = (try? Data(contentsOf: folder.appendingPathComponent("mutations.journal"))) ?? Data()
        let onDisk =
            String(decoding: journal, as: UTF8.self).contains("\n+\(key) ")
            || journal.starts(with: Data("+\(key) ".utf8))
        FileHandle.standardOutput.write(Data("sent \(key) \(onDisk ? "on-disk" : "NOT-ON-DISK")\n".utf8))
        DispatchQueue.global().async { sink.finish(URLError(.notConnectedToInternet)) }
        return Task()
    }
}

@MainActor
func run() async {
    guard CommandLine.arguments.count == 3, let count = Int(CommandLine.arguments[2]) else {
        FileHandle.standardError.write(Data("usage: repose-outbox-writer <directory> <count>\n".utf8))
        exit(2)
    }
    let folder = URL(fileURLWithPath: CommandLine.arguments[1])
    let service = Service(
        baseURL: "https://writer.test",
        options: .init(
            networking: CheckingNetwork(folder: folder), reconnected: nil, becameActive: nil, outbox: .files(in: folder)
        ))
    service.configure("/notes/**") { $0.usesOutbox = true }
    for index in 0..<count {
        service.resource("/notes/\(index % 7)").request(.post, json: ["i": index])
        FileHandle.standardOutput.write(Data("made \(index)\n".utf8))  // unbuffered: the test sees it at once
        if index % 5 == 0 { await Task.yield() }  // lets flushes land and attempts leave between writes
    }
    FileHandle.standardOutput.write(Data("done\n".utf8))
    try? await Task.sleep(for: .seconds(30))  // bounded: the test kills it long before
}

await run()
