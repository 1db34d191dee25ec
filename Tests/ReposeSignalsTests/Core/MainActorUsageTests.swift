import Testing

@testable import ReposeSignals

/// A view model as the resource layer and apps write them: main-actor isolated, holding states and signals as
/// stored properties, observing with itself as owner, capturing them in main-actor closures. That this file
/// compiles in Swift 6 mode without warnings is half of the test.
@MainActor
final class StubViewModel {
    let query = MutableState("")
    let results: State<[String]>
    private(set) var title = ""
    private(set) var subscription: Subscription?
    private let scheduler: TestScheduler

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
        results = query.state.signal
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .map { query in query.isEmpty ? [] : ["\(query) 1", "\(query) 2"] }
            .hold(initial: [])
        results.observe(owner: self) { model, results in
            model.title = "\(results.count) results"
        }
        subscription = query.state.signal.observe { [weak self] _ in self?.title = "searching" }
    }

    func type(_ text: String) {
        query.value = text
    }
}

@Suite("Main-actor usage")
@MainActor
struct MainActorUsageTests {
    @Test("signals and states work as stored properties of a main-actor view model")
    func viewModel() {
        let scheduler = TestScheduler()
        let model = StubViewModel(scheduler: scheduler)
        #expect(model.title == "0 results")
        model.type("swift")
        #expect(model.title == "searching")
        scheduler.advance(by: .milliseconds(300))
        #expect(model.results.value == ["swift 1", "swift 2"])
        #expect(model.title == "2 results")
    }

    @Test("S1 a main-actor view model is freed, and its observations end, when the app lets go of it")
    func viewModelFreed() {
        let scheduler = TestScheduler()
        var model: StubViewModel? = StubViewModel(scheduler: scheduler)
        let weakModel = WeakReference(model)
        let query = model?.query
        model = nil
        #expect(weakModel.object == nil)
        query?.value = "x"
        scheduler.run()
        #expect(query?.state.signal.observerCount == 0)
    }

    @Test("a main-actor closure can capture and drive a source")
    func closures() {
        let source = SignalSource<Int>()
        let recorder = RecordingObserver<Int>()
        let subscription = source.signal.observe(recorder.handler)
        let sendTwice: @MainActor (Int) -> Void = { value in
            source.send(value)
            source.send(value)
        }
        sendTwice(4)
        #expect(recorder.values == [4, 4])
        _ = subscription
    }
}
