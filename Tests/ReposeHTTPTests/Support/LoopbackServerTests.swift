import Foundation
import Testing

@testable import ReposeTestSupport

@Suite("LoopbackServer")
struct LoopbackServerTests {
    @Test("a server listens on a port of 127.0.0.1 and its process ends when stopped")
    func startAndStop() async throws {
        let server = try await LoopbackServer()
        #expect(server.port > 0)
        #expect(server.url("/echo?a=b").absoluteString == "http://127.0.0.1:\(server.port)/echo?a=b")
        #expect(server.isRunning)
        server.stop()
        server.stop()
        await server.exited()
        #expect(!server.isRunning)
    }

    @Test("dropping the last reference to a server ends its process")
    func deinitStops() async throws {
        var server: LoopbackServer? = try await LoopbackServer()
        weak var weakServer: LoopbackServer?
        weakServer = server
        let exit = try #require(server).exitSignal
        server = nil
        #expect(weakServer == nil)
        await exit.wait()
    }

    @Test("two servers get different ports")
    func distinctPorts() async throws {
        async let first = LoopbackServer()
        async let second = LoopbackServer()
        let (one, two) = try await (first, second)
        #expect(one.port != two.port)
    }
}
