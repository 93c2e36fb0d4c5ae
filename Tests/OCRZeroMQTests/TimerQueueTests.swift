import OCRTestSupport
import Testing
@testable import OCRZeroMQ

/// The loop's timer heap, without a loop or a clock: times are arguments.
@Suite("TimerQueue (pure)")
struct TimerQueueTests {
    let t0 = ContinuousClock.now

    func drain(_ queue: inout TimerQueue<String>, at now: ContinuousClock.Instant) -> [String] {
        let mark = queue.sequenceMark
        var fired: [String] = []
        while let (_, name) = queue.popDue(now: now, sequenceLimit: mark) { fired.append(name) }
        return fired
    }

    @Test("fires in deadline order, ties in scheduling order, nothing early")
    func order() {
        var queue = TimerQueue<String>()
        _ = queue.schedule(at: t0 + .milliseconds(30), "c")
        _ = queue.schedule(at: t0 + .milliseconds(10), "a")
        _ = queue.schedule(at: t0 + .milliseconds(20), "b1")
        _ = queue.schedule(at: t0 + .milliseconds(20), "b2")
        do { let result = queue.nextDeadline(); #expect(result == t0 + .milliseconds(10)) }
        #expect(drain(&queue, at: t0 + .milliseconds(5)) == [])
        #expect(drain(&queue, at: t0 + .milliseconds(20)) == ["a", "b1", "b2"])
        #expect(drain(&queue, at: t0 + .seconds(1)) == ["c"])
        do { let result = queue.nextDeadline(); #expect(result == nil) }
        #expect(queue.count == 0)
    }

    @Test("cancelled timers neither fire nor hold the next deadline")
    func cancel() {
        var queue = TimerQueue<String>()
        let early = queue.schedule(at: t0 + .milliseconds(10), "early")
        _ = queue.schedule(at: t0 + .milliseconds(50), "late")
        do { let result = queue.cancel(early); #expect(result) }
        do { let result = queue.cancel(early); #expect(!result) }
        do { let result = queue.nextDeadline(); #expect(result == t0 + .milliseconds(50)) }
        #expect(drain(&queue, at: t0 + .seconds(1)) == ["late"])
    }

    @Test("repeating timers re-arm once per pass and skip missed periods instead of bursting")
    func repeating() {
        var queue = TimerQueue<String>()
        let id = queue.schedule(at: t0 + .milliseconds(10), every: .milliseconds(10), "tick")
        #expect(drain(&queue, at: t0 + .milliseconds(10)) == ["tick"])
        do { let result = queue.nextDeadline(); #expect(result == t0 + .milliseconds(20)) }
        // The loop stalled for 100 ms: one tick, then the next one period from now.
        #expect(drain(&queue, at: t0 + .milliseconds(120)) == ["tick"])
        do { let result = queue.nextDeadline(); #expect(result == t0 + .milliseconds(130)) }
        do { let result = queue.cancel(id); #expect(result) }
        do { let result = queue.nextDeadline(); #expect(result == nil) }
    }

    @Test("a timer scheduled during a pass waits for the next pass")
    func scheduledDuringPass() {
        var queue = TimerQueue<String>()
        _ = queue.schedule(at: t0, "first")
        let mark = queue.sequenceMark
        do { let result = queue.popDue(now: t0, sequenceLimit: mark)?.1; #expect(result == "first") }
        _ = queue.schedule(at: t0, "again")  // e.g. schedule(after: .zero) from a timer body
        do { let result = queue.popDue(now: t0, sequenceLimit: mark); #expect(result == nil) }
        #expect(drain(&queue, at: t0) == ["again"])
    }
}
