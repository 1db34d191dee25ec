import Testing

@testable import ReposeSignals

@Suite("Key-path forms")
struct KeyPathTests {
    struct User: Equatable {
        let id: Int
        let name: String
    }

    let source = SignalSource<User>()

    @Test("S19 map(\\.name) maps a signal and a state through a key path")
    func mapKeyPath() {
        let names = RecordingObserver<String>()
        let subscription = source.signal.map(\.name).observe(names.handler)
        source.send(User(id: 1, name: "Ada"))
        let user = MutableState(User(id: 2, name: "Grace"))
        let name: State<String> = user.state.map(\.name)
        #expect(names.values == ["Ada"])
        #expect(name.value == "Grace")
        _ = subscription
    }

    @Test("S19 removeDuplicates(by: \\.id) skips a value whose key equals the previous one's")
    func removeDuplicatesByKey() {
        let users = RecordingObserver<String>()
        let subscription = source.signal.removeDuplicates(by: \.id).map(\.name).observe(users.handler)
        source.send(User(id: 1, name: "Ada"))
        source.send(User(id: 1, name: "Ada L."))
        source.send(User(id: 2, name: "Grace"))
        #expect(users.values == ["Ada", "Grace"])
        _ = subscription
    }

    @Test("S7 S19 a state's removeDuplicates(by: \\.id) compares the first change with the current value")
    func stateRemoveDuplicatesByKey() {
        let user = MutableState(User(id: 1, name: "Ada"))
        let names = RecordingObserver<String>()
        let subscription = user.state.removeDuplicates(by: \.id).map(\.name).observe(names.handler)
        user.value = User(id: 1, name: "Ada L.")
        user.value = User(id: 2, name: "Grace")
        #expect(names.values == ["Ada", "Grace"])
        _ = subscription
    }

    @Test("S19 the two-value form of removeDuplicates(by:) still applies to a signal of pairs")
    func pairsStillCompare() {
        let pairs = SignalSource<(Int, Int)>()
        var received: [Int] = []
        let subscription = pairs.signal.removeDuplicates { $0.0 == $1.0 }.observe { received.append($0.1) }
        pairs.send((1, 1))
        pairs.send((1, 2))
        pairs.send((2, 3))
        #expect(received == [1, 3])
        _ = subscription
    }
}
