import Testing

@testable import ReposeSignals

/// A view model as apps write them: its observation updates its own properties.
private final class NameModel {
    var name = ""
    var updates = 0
}

@Suite("Observing with an owner that the closure receives")
struct OwnerPassingTests {
    let source = SignalSource<String>()

    @Test("S1 the owner-receiving form hands the closure its owner and every value, in order")
    func passesOwner() {
        let model = NameModel()
        source.signal.observe(owner: model) { model, name in
            model.name = name
            model.updates += 1
        }
        source.send("Ada")
        source.send("Grace")
        #expect(model.name == "Grace")
        #expect(model.updates == 2)
    }

    @Test("S1 an owner whose closure works on it through the parameter is freed, and its subscription ends")
    func freesOwner() {
        var model: NameModel? = NameModel()
        let weakModel = WeakReference(model)
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        if let model {
            source.signal.observe(owner: model) { [probe] model, name in
                probe?.touch()
                model.name = name
            }
        }
        probe = nil
        source.send("Ada")
        #expect(model?.name == "Ada")
        model = nil
        #expect(weakModel.object == nil)
        source.send("Grace")
        #expect(weakProbe.object == nil)
        #expect(source.signal.observerCount == 0)
    }

    @Test("S1 a dead owner's observation ends before any delivery when the signal is swept")
    func sweptWithoutDelivery() {
        var model: NameModel? = NameModel()
        if let model { source.signal.observe(owner: model) { model, name in model.name = name } }
        model = nil
        #expect(source.signal.observerCount == 1)
        source.signal.endObserversWithDeadOwners()
        #expect(source.signal.observerCount == 0)
    }

    @Test("S2 the owner-receiving form can be cancelled early; releasing its subscription changes nothing")
    func cancelEarly() {
        let model = NameModel()
        var kept: Subscription? = source.signal.observe(owner: model) { model, _ in model.updates += 1 }
        let cancelled = source.signal.observe(owner: model) { model, name in model.name = name }
        source.send("Ada")
        kept = nil
        cancelled.cancel()
        source.send("Grace")
        #expect(model.updates == 2)
        #expect(model.name == "Ada")
        _ = kept
    }

    @Test("S6 a state replays its current value to the owner-receiving form, then every change")
    func stateReplays() {
        let name = MutableState("Ada")
        let model = NameModel()
        name.state.observe(owner: model) { model, name in
            model.name = name
            model.updates += 1
        }
        #expect(model.name == "Ada")
        name.value = "Grace"
        #expect(model.name == "Grace")
        #expect(model.updates == 2)
    }

    @Test("S1 a state's owner-receiving observation frees its owner")
    func stateFreesOwner() {
        let name = MutableState("Ada")
        var model: NameModel? = NameModel()
        let weakModel = WeakReference(model)
        if let model { name.state.observe(owner: model) { model, name in model.name = name } }
        model = nil
        #expect(weakModel.object == nil)
        name.value = "Grace"
        #expect(name.state.signal.observerCount == 0)
    }

    @Test("S1 a derived state's owner-receiving observation disconnects from its source once the owner is gone")
    func derivedDisconnects() {
        let count = MutableState(1)
        let doubled = count.state.map { $0 * 2 }
        var model: NameModel? = NameModel()
        if let model { doubled.observe(owner: model) { model, value in model.updates = value } }
        #expect(model?.updates == 2)
        #expect(count.state.signal.observerCount == 1)
        model = nil
        count.value = 2
        #expect(count.state.signal.observerCount == 0)
    }

    @Test("S1 S2 a dead owner's closure released by a sweep may cancel another observer of the same signal")
    func sweepReleasingAnotherSubscription() {
        final class Holder {
            var subscription: Subscription?
        }
        var model: NameModel? = NameModel()
        var holder: Holder? = Holder()
        // The owner-scoped closure alone holds the plain observer's subscription: releasing it cancels that observer.
        if let model { source.signal.observe(owner: model) { [holder] _, _ in _ = holder } }
        holder?.subscription = source.signal.observe { _ in }
        holder = nil
        model = nil
        source.signal.endObserversWithDeadOwners()
        #expect(source.signal.observerCount == 0)
    }

    @Test("S1 S8 sweeping a source ends dead owners' observations through derived signals and disconnects them")
    func sweepReachesDerivedSignals() {
        let other = SignalSource<String>()
        var model: NameModel? = NameModel()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        let keep = NameModel()
        if let model {
            source.signal.map { $0.uppercased() }.removeDuplicates()
                .observe(owner: model) { [probe] model, name in
                    probe?.touch()
                    model.name = name
                }
            source.signal.combineLatest(other.signal).observe(owner: model) { model, _ in model.updates += 1 }
        }
        source.signal.map(\.count).observe(owner: keep) { keep, count in keep.updates = count }
        probe = nil
        #expect(source.signal.observerCount == 3)
        model = nil
        source.signal.endObserversWithDeadOwners()
        #expect(source.signal.observerCount == 1)  // only the live owner's chain is still linked
        #expect(other.signal.observerCount == 0)
        #expect(weakProbe.object == nil)
        source.send("Ada")
        #expect(keep.updates == 3)
    }

    @Test("A closure that captures its owner strongly keeps it alive: the trap the owner-receiving form avoids")
    func strongCaptureLeaks() {
        var model: NameModel? = NameModel()
        let weakModel = WeakReference(model)
        if let model { source.signal.observe(owner: model) { name in model.name = name } }
        model = nil
        source.send("Ada")
        #expect(weakModel.object?.name == "Ada")
        #expect(source.signal.observerCount == 1)
    }
}
