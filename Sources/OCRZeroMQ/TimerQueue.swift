import OCRBasics


/// Identifies a timer scheduled on a `SocketLoop`.
package struct TimerID: Hashable, Sendable {
    let raw: UInt64
}

/// Deadlines of a loop's timers: a binary min-heap ordered by (deadline, scheduling order), with
/// cancelled timers removed lazily. Pure value type, no clock: times are arguments.
struct TimerQueue<Payload> {
    struct Timer {
        var deadline: ContinuousClock.Instant
        var interval: Duration?
        var payload: Payload
    }

    private struct HeapEntry: Comparable {
        var deadline: ContinuousClock.Instant
        var sequence: UInt64
        var id: TimerID

        static func < (a: HeapEntry, b: HeapEntry) -> Bool {
            a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
        }
        static func == (a: HeapEntry, b: HeapEntry) -> Bool { a.sequence == b.sequence }
    }

    private var heap = Heap<HeapEntry>()
    private var timers: [TimerID: Timer] = [:]
    private var sequence: UInt64 = 0
    private var nextID: UInt64 = 0

    var count: Int { timers.count }

    /// Schedules `payload` at `deadline`, then every `interval` after it when one is given.
    mutating func schedule(at deadline: ContinuousClock.Instant, every interval: Duration? = nil, _ payload: Payload) -> TimerID {
        nextID += 1
        let id = TimerID(raw: nextID)
        timers[id] = Timer(deadline: deadline, interval: interval, payload: payload)
        push(deadline: deadline, id: id)
        return id
    }

    /// Removes a timer; `false` if it already fired (one-shot) or was cancelled.
    @discardableResult
    mutating func cancel(_ id: TimerID) -> Bool {
        timers.removeValue(forKey: id) != nil
    }

    /// The earliest deadline of a live timer.
    mutating func nextDeadline() -> ContinuousClock.Instant? {
        dropStale()
        return heap.min?.deadline
    }

    /// Removes and returns the earliest timer due at `now`, re-arming it first if it repeats
    /// (at its next period, or `now + interval` if it fell more than a period behind, so a stalled
    /// loop does not fire a burst). Timers scheduled during a pass get a later sequence number, so
    /// a pass that stops at `sequenceLimit` never runs a timer scheduled by another timer.
    mutating func popDue(now: ContinuousClock.Instant, sequenceLimit: UInt64) -> (TimerID, Payload)? {
        dropStale()
        guard let top = heap.min, top.deadline <= now, top.sequence < sequenceLimit,
              let timer = timers[top.id] else { return nil }
        heap.popMin()
        if let interval = timer.interval {
            var next = timer.deadline + interval
            if next <= now { next = now + interval }
            timers[top.id]?.deadline = next
            push(deadline: next, id: top.id)
        } else {
            timers[top.id] = nil
        }
        return (top.id, timer.payload)
    }

    /// The sequence number the next scheduled timer will get (a bound for `popDue`).
    var sequenceMark: UInt64 { sequence }

    // MARK: Heap

    private mutating func dropStale() {
        while let top = heap.min {
            if let timer = timers[top.id], timer.deadline == top.deadline { return }
            heap.popMin()
        }
    }

    private mutating func push(deadline: ContinuousClock.Instant, id: TimerID) {
        heap.insert(HeapEntry(deadline: deadline, sequence: sequence, id: id))
        sequence += 1
    }
}
