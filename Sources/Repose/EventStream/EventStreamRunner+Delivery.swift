import Foundation

/// The events a runner has received and not yet delivered, and the turn of delivery under way.
struct EventBacklog {
    private var events: [EventStream.Event] = []
    private var head = 0
    /// A turn is scheduled, or its effects are being prepared off the main actor: later events wait behind it.
    var isBusy = false
    /// The effects of the turn whose parsing runs off the main actor.
    var preparing: [EffectWork] = []
    var planned: [PlannedEffect] = []
    /// The attempt's end, when it came while events still waited: it is told after them.
    var pendingEnd: ResponseInfo?
    /// Counts the backlog's resets: work started before one finds the count changed and does nothing.
    private(set) var epoch = 0

    var isEmpty: Bool { head == events.count }

    mutating func append(_ new: [EventStream.Event]) {
        events.append(contentsOf: new)
    }

    mutating func next() -> EventStream.Event? {
        guard head < events.count else { return nil }
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

    /// Drops everything: the stream stopped.
    mutating func reset() {
        self = EventBacklog(epoch: epoch + 1)
    }

    private init(epoch: Int) {
        self.epoch = epoch
    }

    init() {}
}

/// How a stream's events reach the app (rule V3): in turns of bounded work, each behind whatever else the main actor
/// has to do, so that a flood of events cannot hold it; and with what their effects must parse (the JSON that names a
/// resource, the data that replaces its content) parsed off it, as a load's body is. Effects that parse nothing run
/// in the turn that delivers their event.
extension EventStreamRunner {
    /// A turn ends once it delivered this many events, or once it has run for ``turnBudget``.
    static let eventsPerTurn = 1_000
    static let turnBudget = Duration.milliseconds(4)

    /// Delivers waiting events to the stream's observers, then runs their effects; schedules the next turn while
    /// events wait.
    func deliverTurn() {
        backlog.isBusy = true
        let clock = ContinuousClock()
        let deadline = clock.now + Self.turnBudget
        var work: [EffectWork] = []
        var delivered = 0
        while isRunning, delivered < Self.eventsPerTurn, let event = backlog.next() {
            delivered += 1
            onEvent?(event)
            if let list = effects[event.type], !list.isEmpty {
                work.append(EffectWork(event: event, effects: list))
            }
            if clock.now >= deadline { break }
        }
        sweepObservers?()
        guard isRunning else { return }
        if work.contains(where: \.parsesSomething) {
            prepare(work)
        } else {
            for effect in plan(
                work, names: work.map { $0.needsName ? EventStream.Event.resourceName(in: $0.event.data) : nil })
            {
                guard isRunning else { return }
                effect.apply(in: self)
            }
            endTurn()
        }
    }

    /// Schedules the next turn while events wait; otherwise tells an end that waited for them.
    private func endTurn() {
        guard backlog.isEmpty else {
            let epoch = backlog.epoch
            MainRoute.send { [weak self] in
                guard let self, backlog.epoch == epoch else { return }
                deliverTurn()
            }
            return
        }
        backlog.isBusy = false
        if let end = backlog.pendingEnd {
            backlog.pendingEnd = nil
            attemptEnded(end)
        }
    }

    /// Reads the names off the main actor, then picks the targets on it; the contents that replace data are parsed
    /// off it again, by each target's pipeline, before any effect of the turn is applied.
    private func prepare(_ work: [EffectWork]) {
        let epoch = backlog.epoch
        backlog.preparing = work
        let sources = work.map { $0.needsName ? $0.event.data : nil }
        DispatchQueue.global(qos: .userInitiated).async {
            let names = sources.map { $0.flatMap(EventStream.Event.resourceName(in:)) }
            MainRoute.send { [weak self] in
                guard let self, backlog.epoch == epoch else { return }
                let planned = plan(backlog.preparing, names: names)
                backlog.preparing = []
                let jobs = planned.flatMap { $0.replacements }
                guard !jobs.isEmpty else { return finish(planned, outcomes: []) }
                backlog.planned = planned
                DispatchQueue.global(qos: .userInitiated).async {
                    let outcomes = jobs.map { $0.processor.process(.success($0.body)) }
                    MainRoute.send { [weak self] in
                        guard let self, backlog.epoch == epoch else { return }
                        let planned = backlog.planned
                        backlog.planned = []
                        finish(planned, outcomes: outcomes)
                    }
                }
            }
        }
    }

    private func finish(_ planned: [PlannedEffect], outcomes: [ResponseProcessor.Outcome]) {
        var outcomes = outcomes[...]
        for effect in planned {
            guard isRunning else { return }
            if effect.replacesContent {
                effect.replace(with: outcomes.prefix(effect.targets.count))
                outcomes = outcomes.dropFirst(effect.targets.count)
            } else {
                effect.apply(in: self)
            }
        }
        endTurn()
    }

    /// What each effect of `work` acts on, in order: the resources its closure picks, or the one its event names.
    private func plan(_ work: [EffectWork], names: [String?]) -> [PlannedEffect] {
        zip(work, names).flatMap { item, name in
            let named = name.flatMap(core.resource(named:)).map { [$0] } ?? []
            return item.effects.map { effect in
                PlannedEffect(event: item.event, effect: effect, targets: effect.resources?(item.event) ?? named)
            }
        }
    }
}

/// One delivered event and the effects its type has.
struct EffectWork {
    let event: EventStream.Event
    let effects: [EventStream.Effect]

    /// Whether an effect acts on the resource the event names.
    var needsName: Bool { effects.contains { $0.resources == nil } }

    /// Whether applying the effects parses the event's data: its JSON names the resource, or it replaces content.
    var parsesSomething: Bool {
        effects.contains(where: \.replacesContent)
            || (needsName && event.data.first(where: { !$0.isWhitespace }) == "{")
    }
}

/// An effect with its targets picked, on its way to being applied.
@MainActor
struct PlannedEffect {
    let event: EventStream.Event
    let effect: EventStream.Effect
    let targets: [Resource]

    var replacesContent: Bool { effect.replacesContent }

    /// The parses a content replacement needs, one per target, each by the target's pipeline; none for another
    /// effect.
    var replacements: [(processor: ResponseProcessor, body: NetworkResponse)] {
        guard case .replaceContent(let contentType) = effect.action else { return [] }
        return targets.map { $0.eventContentParse(of: event, contentType: contentType) }
    }

    /// Marks stale or reloads the targets.
    func apply(in runner: EventStreamRunner) {
        for resource in targets {
            switch effect.action {
            case .invalidate: resource.invalidateForWrite()
            case .reload: runner.reload(resource)
            case .replaceContent: break
            }
        }
    }

    /// Replaces the targets' content with what their pipelines made of the event's data.
    func replace(with outcomes: ArraySlice<ResponseProcessor.Outcome>) {
        for (resource, outcome) in zip(targets, outcomes) {
            resource.replaceContent(with: outcome, of: event)
        }
    }
}
