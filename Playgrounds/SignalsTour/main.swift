// SignalsTour: a walk through the ReposeSignals operators. Run it with `swift run SignalsTour`.
import Observation
import ReposeSignals

func step(_ title: String) {
    print("\n== \(title)")
}

// A signal is a stream of values that never fails or completes. A SignalSource creates one and sends into it;
// observers are called synchronously, in the order they subscribed.
step("SignalSource and observe")
let taps = SignalSource<String>()
var subscriptions: [Subscription] = []
subscriptions.append(taps.signal.observe { print("first observer got \($0)") })
subscriptions.append(taps.signal.observe { print("second observer got \($0)") })
taps.send("tap 1")

// Owner-scoped observation ends by itself when the owner goes away: no subscription to keep. When the closure
// works on its owner, take the owner as the closure's first parameter rather than capturing it: a captured owner
// would be kept alive by its own observation, for ever.
step("observe(owner:)")
final class Screen {
    var seen: [String] = []
    deinit { print("the screen is freed") }
}
var screen: Screen? = Screen()
taps.signal.observe(owner: screen ?? Screen()) { screen, tap in
    screen.seen.append(tap)
    print("screen saw \(tap); \(screen.seen.count) so far")
}
taps.send("tap 2")
screen = nil
taps.send("tap 3 (the screen is gone, so only the two observers above print)")

// map, filter and compactMap derive new signals. A chain stays connected while its subscription lives.
step("map, filter, compactMap")
let numbers = SignalSource<String>()
subscriptions.append(
    numbers.signal
        .compactMap { Int($0) }
        .filter { $0.isMultiple(of: 2) }
        .map { "even number \($0)" }
        .observe { print($0) })
for text in ["1", "two", "4", "6"] { numbers.send(text) }

// A State is a current value plus its changes; observing replays the current value first.
step("MutableState and State")
let query = MutableState("")
subscriptions.append(query.state.observe { print("query is now \"\($0)\"") })
query.value = "sw"

// removeDuplicates skips values equal to the previous one; every assignment notifies otherwise.
step("removeDuplicates")
subscriptions.append(query.state.removeDuplicates().observe { print("distinct query \"\($0)\"") })
query.value = "sw"
query.value = "swift"

// combineLatest pairs the latest values. One change that reaches both inputs emits once, never a stale pair.
step("combineLatest (glitch-free)")
let celsius = MutableState(20.0)
let readout = celsius.state.map { "\($0) °C" }.combineLatest(celsius.state.map { "\($0 * 9 / 5 + 32) °F" })
subscriptions.append(readout.observe { print("\($0) = \($1)") })
celsius.value = 100

// merge interleaves signals; scan folds them into a running total; prepend gives every observer a start value.
step("merge, scan, prepend")
let deposits = SignalSource<Int>()
let withdrawals = SignalSource<Int>()
subscriptions.append(
    deposits.signal.merge(with: withdrawals.signal.map { -$0 })
        .scan(100, +)
        .prepend(100)
        .observe { print("balance \($0)") })
deposits.send(50)
withdrawals.send(30)

// flatMapLatest follows the signal for the newest value and drops the previous one at once.
step("flatMapLatest")
let channels = ["news": SignalSource<String>(), "sport": SignalSource<String>()]
let selected = SignalSource<String>()
subscriptions.append(
    selected.signal
        .flatMapLatest { name in channels[name]?.signal ?? Signal<String>.merge([]) }
        .observe { print("watching: \($0)") })
selected.send("news")
channels["news"]?.send("headline")
selected.send("sport")
channels["news"]?.send("this news item is not printed")
channels["sport"]?.send("goal!")

// Time operators take a scheduler. TestScheduler has virtual time, so this tour runs instantly.
step("debounce with a TestScheduler")
let scheduler = TestScheduler()
let typed = SignalSource<String>()
subscriptions.append(
    typed.signal.debounce(for: .milliseconds(300), scheduler: scheduler)
        .observe { print("search for \"\($0)\" at \(scheduler.now)") })
for text in ["s", "sw", "swi", "swift"] {
    typed.send(text)
    scheduler.advance(by: .milliseconds(100))
}
scheduler.advance(by: .milliseconds(300))

// A fresh TestScheduler starts its virtual clock at zero.
step("throttle and delay")
let dragScheduler = TestScheduler()
let drags = SignalSource<Int>()
subscriptions.append(
    drags.signal.throttle(for: .seconds(1), scheduler: dragScheduler, latest: true)
        .observe { print("throttled position \($0) at \(dragScheduler.now)") })
subscriptions.append(
    drags.signal.delay(for: .seconds(2), scheduler: dragScheduler)
        .observe { print("delayed position \($0) at \(dragScheduler.now)") })
for position in 1...4 {
    drags.send(position)
    dragScheduler.advance(by: .milliseconds(400))
}
dragScheduler.run()

// ImmediateScheduler ignores delays: time operators let every value through at once.
step("ImmediateScheduler")
let instant = SignalSource<Int>()
subscriptions.append(
    instant.signal.debounce(for: .seconds(5), scheduler: ImmediateScheduler()).observe { print("immediately \($0)") })
instant.send(1)
instant.send(2)

// hold(initial:) turns any signal into a State that remembers the latest value.
step("hold(initial:)")
let lastTap = taps.signal.hold(initial: "none yet")
print("last tap before: \(lastTap.value)")
taps.send("tap 4")
print("last tap after: \(lastTap.value)")

// withLatestFrom pairs each tap with the form as it is at that moment; typing alone sends nothing.
step("withLatestFrom")
let form = MutableState("draft")
let submit = SignalSource<Void>()
subscriptions.append(
    submit.signal.withLatestFrom(form.state).observe { _, text in print("submitted \"\(text)\"") })
form.value = "final text"
submit.send(())

// sample delivers the latest value at each tick, once per value: a tick with nothing new delivers nothing.
step("sample on a timer")
let clockScheduler = TestScheduler()
let temperature = SignalSource<Int>()
subscriptions.append(
    temperature.signal.sample(Signal.timer(every: .seconds(1), scheduler: clockScheduler))
        .observe { print("sampled \($0) °C at \(clockScheduler.now)") })
temperature.send(19)
temperature.send(21)
clockScheduler.advance(by: .seconds(2))

// zip pairs the n-th values of its inputs; unpaired values wait in a bounded buffer.
step("zip")
let questions = SignalSource<String>()
let answers = SignalSource<Int>()
subscriptions.append(questions.signal.zip(answers.signal).observe { print("\($0) → \($1)") })
questions.send("6 × 7")
questions.send("2 + 2")
answers.send(42)
answers.send(4)

// prefix and first take the beginning of a signal and then finish: the observation ends by itself, and its closure
// is released, with no subscription to keep.
step("prefix and first finish by themselves")
final class Listener {}
final class Probe {
    deinit { print("the first() closure is released") }
}
let listener = Listener()
let events = SignalSource<String>()
events.signal.first().observe(owner: listener) { [probe = Probe()] _, event in
    _ = probe
    print("first event: \(event)")
}
events.send("launch")
events.send("this one is not printed")

// dropFirst and pairwise: skip the beginning, or see each value with the one before it.
step("dropFirst and pairwise")
let readings = SignalSource<Int>()
subscriptions.append(readings.signal.dropFirst().pairwise().observe { print("moved from \($0) to \($1)") })
for reading in [0, 10, 15, 30] { readings.send(reading) }

// collect gathers values into arrays, by count or by time window; an empty window sends nothing.
step("collect")
let logLines = SignalSource<String>()
let batchScheduler = TestScheduler()
subscriptions.append(logLines.signal.collect(count: 2).observe { print("pair of lines: \($0)") })
subscriptions.append(
    logLines.signal.collect(every: .seconds(1), scheduler: batchScheduler).observe { print("one second: \($0)") })
for line in ["a", "b", "c"] { logLines.send(line) }
batchScheduler.advance(by: .seconds(3))

// Key paths work where a closure would: map(\.name), removeDuplicates(by: \.id).
step("key paths")
struct User {
    let id: Int
    let name: String
}
let users = SignalSource<User>()
subscriptions.append(users.signal.removeDuplicates(by: \.id).map(\.name).observe { print("user \($0)") })
users.send(User(id: 1, name: "Ada"))
users.send(User(id: 1, name: "Ada (edited, same id)"))
users.send(User(id: 2, name: "Grace"))

// handleEvents taps a chain: it sees the connection, each value and the end, and changes nothing.
step("handleEvents")
let tapped = SignalSource<Int>()
let tap = tapped.signal.handleEvents(
    receiveSubscription: { print("tap: connected") }, receiveOutput: { print("tap: \($0)") },
    receiveCancel: { print("tap: disconnected") }
).observe { _ in }
tapped.send(1)
tap.cancel()

// Any AsyncSequence becomes a signal, iterated while observed; when the sequence ends, the signal finishes.
step("an AsyncSequence as a signal")
let (stream, continuation) = AsyncStream<String>.makeStream()
let streamed = Signal(stream)
var streamDone = false
streamed.handleEvents(receiveCompletion: { streamDone = true }).observe(owner: listener) { _, message in
    print("streamed: \(message)")
}
continuation.yield("hello")
continuation.yield("world")
continuation.finish()
while !streamDone { await Task.yield() }
print("the stream ended, and so did the signal")

// An expression over @Observable properties becomes a State; a State becomes an @Observable object.
step("Observation both ways")
@Observable final class Cart {
    var items: [String] = []
}
let cart = Cart()
let itemCount = State(tracking: { cart.items.count })
var counted: [Int] = []
subscriptions.append(itemCount.observe { counted.append($0) })
cart.items.append("tea")
while counted.count < 2 { await Task.yield() }
print("item counts seen: \(counted)")
let mirror = ObservableMutableState(query)
withObservationTracking {
    _ = mirror.value
} onChange: {
    print("Observation heard the query change")
}
mirror.value = "typed into a text field"
print("the query state now holds \"\(query.value)\"")

// Cancelling a subscription (or releasing it) ends the observation.
step("cancel")
for subscription in subscriptions { subscription.cancel() }
taps.send("nobody hears this")
print("all subscriptions cancelled; nothing printed for the last tap")
