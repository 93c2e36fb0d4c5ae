import OCRCoordinator
import OCRWire
import Testing

/// Credits, least-recently-used workers, round-robin fairness (principals, then jobs) and priority.
@Suite struct DispatchTests {
    @Test func aWorkerNeverHoldsMoreThanSlotsPlusPrefetch() {
        var h = SchedulerHarness()
        h.ready(1, slots: 2)
        let sent = h.submit("a", pages: 10).tasks
        #expect(sent.count == 3)  // 2 slots + 1 prefetch
        #expect(h.scheduler.workerLoad(h.worker(1))! == (3, 3))
        #expect(h.send(.workerHeartbeat(h.worker(1))).tasks.isEmpty)
        // One result returns one credit: exactly one more task.
        let next = h.succeed(1, sent[0].task).tasks
        #expect(next.map(\.task.pageIndex) == [3])
        #expect(h.scheduler.workerLoad(h.worker(1))! == (3, 3))
    }

    /// Once the pages still waiting fit in the workers' windows, a busy worker takes no page
    /// ahead: a page queued behind a long one would wait while another worker idles.
    @Test func theLastPagesWaitForAFreeSlot() throws {
        var h = SchedulerHarness()
        h.ready(1, slots: 1)
        h.ready(2, slots: 1)
        let first = h.submit("a", pages: 6).tasks
        #expect(first.map(\.task.pageIndex) == [0, 1], "4 pages left fit in two windows of 2: none taken ahead")
        let long = h.succeed(1, first[0].task).tasks
        #expect(long.map(\.to) == [h.worker(1)] && long.map(\.task.pageIndex) == [2])
        // Worker 1 runs page 2 for a long time; the rest go to worker 2 as it frees its slot.
        var task = first[1].task
        for page: UInt32 in 3...5 {
            let next = h.succeed(2, task).tasks
            #expect(next.map(\.to) == [h.worker(2)] && next.map(\.task.pageIndex) == [page])
            #expect(h.scheduler.workerLoad(h.worker(1))! == (1, 2), "nothing queued behind the long page")
            task = try #require(next.first).task
        }
    }

    @Test func prefetchIsConfigurable() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 4)
        #expect(h.submit("a", pages: 10).tasks.count == 4)
    }

    @Test func tasksSpreadOverEveryWorkerBeforeAnyGetsASecond() {
        var h = SchedulerHarness()
        for w: UInt8 in 1...3 { h.ready(w, slots: 1) }
        let sent = h.submit("a", pages: 12).tasks
        #expect(sent.map(\.to) == [1, 2, 3, 1, 2, 3].map { h.worker($0) })
    }

    @Test func leastRecentlyUsedWorkerGetsTheNextTask() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        for w: UInt8 in 1...3 { h.ready(w, slots: 1) }
        let first = h.submit("a", pages: 3).tasks
        #expect(first.map(\.to) == [1, 2, 3].map { h.worker($0) })
        // Workers free up in the order 3, 1, 2; more work then goes to them in that order.
        h.succeed(3, first[2].task)
        h.succeed(1, first[0].task)
        h.succeed(2, first[1].task)
        let next = h.submit("b", pages: 3).tasks
        #expect(next.map(\.to) == [3, 1, 2].map { h.worker($0) })
    }

    @Test func idleWorkersAreUsedInArrivalOrder() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(7, slots: 1)
        h.ready(5, slots: 1)
        #expect(h.submit("a", pages: 1).tasks.map(\.to) == [h.worker(7)])
    }

    @Test func equalPrioritiesTakeTurnsPageByPage() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.submit("big", pages: 1000)
        h.submit("s1", pages: 1)
        h.submit("s2", pages: 2)
        h.ready(1, slots: 1)
        var order: [String] = []
        var current = h.log.tasks.last!.task
        order.append("\(current.jobId):\(current.pageIndex)")
        for _ in 0..<6 {
            current = h.succeed(1, current).tasks.first!.task
            order.append("\(current.jobId):\(current.pageIndex)")
        }
        #expect(order == ["big:0", "s1:0", "s2:0", "big:1", "s2:1", "big:2", "big:3"])
        // The small jobs finished after 5 dispatches although the big job came first.
        #expect(h.log.finished.count == 2)
    }

    /// Pages dispatched to one 1-slot worker, as "job:page", answering each at once.
    private static func serveOneByOne(_ h: inout SchedulerHarness, count: Int) -> [String] {
        var current = h.log.tasks.last!.task
        var order = ["\(current.jobId):\(current.pageIndex)"]
        for _ in 1..<count {
            current = h.succeed(1, current).tasks.first!.task
            order.append("\(current.jobId):\(current.pageIndex)")
        }
        return order
    }

    @Test func principalsTakeTurnsWhateverNumberOfJobsEachQueued() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        // Client A queues five jobs before client B queues one: B still gets every other page.
        for j in 0..<5 { h.submit("a\(j)", pages: 10, owner: "A") }
        h.submit("b", pages: 3, owner: "B")
        h.ready(1, slots: 1)
        let order = Self.serveOneByOne(&h, count: 8)
        #expect(order == ["a0:0", "b:0", "a1:0", "b:1", "a2:0", "b:2", "a3:0", "a4:0"])
    }

    @Test func aPrincipalsJobsShareItsTurnsRoundRobin() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.submit("a1", pages: 10, owner: "A")
        h.submit("a2", pages: 10, owner: "A")
        h.submit("b", pages: 10, owner: "B")
        h.submit("c", pages: 10, owner: "C")
        h.ready(1, slots: 1)
        let order = Self.serveOneByOne(&h, count: 9)
        #expect(order == ["a1:0", "b:0", "c:0", "a2:0", "b:1", "c:1", "a1:1", "b:2", "c:2"])
    }

    @Test func aLateClientWaitsAtMostOnePagePerOtherClient() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        h.submit("huge", pages: 20_000, owner: "A")
        for j in 0..<50 { h.submit("many\(j)", pages: 1, owner: "B") }
        h.submit("late", pages: 1, owner: "C")
        var current = h.log.tasks.last!.task
        var order = ["\(current.jobId):\(current.pageIndex)"]
        while current.jobId != "late" {
            current = h.succeed(1, current).tasks.first!.task
            order.append("\(current.jobId):\(current.pageIndex)")
        }
        // huge:0 was running when B and C arrived; then one page of A and one of B had their turns.
        #expect(order == ["huge:0", "huge:1", "many0:0", "late:0"])
    }

    @Test func aPassedOverJobKeepsItsOwnersTurn() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1, languages: ["eng"])
        h.ready(2, slots: 1, languages: ["deu"])
        let german = RecognitionOptions.with { $0.languages = "deu" }
        // Both workers are busy with A's first pages; then B's German job and C's English one wait.
        h.submit("a", pages: 10, owner: "A")
        h.submit("a-de", pages: 10, owner: "A", options: german)
        h.submit("b-de", pages: 10, owner: "B", options: german)
        h.submit("c", pages: 10, owner: "C")
        let held = h.log.tasks.map { "\($0.task.jobId):\($0.task.pageIndex)" }
        #expect(held == ["a:0", "a-de:0"])
        // The English worker frees up twice: A's turn (its English job), then B's German job
        // is passed over and C's turn comes.
        let english = h.succeed(1, h.log.tasks[0].task).tasks
        #expect(english.map(\.task.jobId) == ["a"])
        #expect(h.succeed(1, english[0].task).tasks.map(\.task.jobId) == ["c"])
        // The German worker frees up: B's German job kept its turn ahead of A's.
        let germanNext = h.succeed(2, h.log.tasks[1].task).tasks.map(\.task.jobId)
        #expect(germanNext == ["b-de"])
    }

    @Test func aSmallJobSubmittedLateIsNotStarvedByABigOne() {
        var h = SchedulerHarness()
        for w: UInt8 in 1...2 { h.ready(w, slots: 2) }
        var inFlight = h.submit("big", pages: 1000).tasks
        #expect(inFlight.count == 6)
        h.submit("small", pages: 1)
        // Round-robin: the big job had its turn before "small" arrived, so "small" gets the
        // second credit that comes back.
        var next: [String] = []
        for _ in 0..<2 {
            let (to, task) = inFlight.removeFirst()
            let more = h.succeed(to == h.worker(1) ? 1 : 2, task).tasks
            inFlight += more
            next += more.map(\.task.jobId)
        }
        #expect(next == ["big", "small"])
    }

    @Test func higherPriorityJobsGoFirst() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.submit("low", pages: 3, priority: 0)
        h.submit("high", pages: 2, priority: 5)
        h.submit("mid", pages: 1, priority: 2)
        h.ready(1, slots: 1)
        var current = h.log.tasks.last!.task
        var order = ["\(current.jobId):\(current.pageIndex)"]
        for _ in 0..<5 {
            current = h.succeed(1, current).tasks.first!.task
            order.append("\(current.jobId):\(current.pageIndex)")
        }
        #expect(order == ["high:0", "high:1", "mid:0", "low:0", "low:1", "low:2"])
    }

    @Test func aTaskCarriesThePageItsOptionsAndItsWaitingTime() {
        var h = SchedulerHarness()
        let options = RecognitionOptions.with { $0.languages = "eng+deu"; $0.detectOnly = true }
        h.submit("a", pages: 2, options: options)
        h.now = .milliseconds(250)
        let task = h.ready(1, slots: 1).tasks[0].task
        #expect(task.jobId == "a")
        #expect(task.pageIndex == 0)
        #expect(task.attempt == 1)
        #expect(task.file == "a.tiff")
        #expect(task.filePage == 1)
        #expect(task.format == .tiff)
        #expect(task.content == [0x49, 0x49, 0x2A, 0x00])
        #expect(task.options == options)
        #expect(task.remainingMs == 0)
        #expect(task.queuedUs == 250_000)
    }
}

/// Adaptive prefetch: fast results widen a worker's window, slow ones keep slots + prefetch.
@Suite struct AdaptivePrefetchTests {
    /// Answers every held task once, `gap` apart, and returns the worker's window afterwards.
    static func run(gap: Duration, results: Int) -> (held: Int, capacity: Int) {
        var h = SchedulerHarness { $0.adaptivePrefetchLimit = 32; $0.pipelineTarget = .milliseconds(2) }
        h.ready(1, slots: 2)
        var held = h.submit("a", pages: 10_000).tasks.map(\.task)
        for _ in 0..<results {
            h.now += gap
            let task = held.removeFirst()
            held += h.succeed(1, task).tasks.map(\.task)
        }
        return h.scheduler.workerLoad(h.worker(1))!
    }

    @Test func fastResultsWidenTheWindowUpToTheLimit() {
        let load = Self.run(gap: .microseconds(50), results: 100)  // 2 ms / 50 us = 40, capped at 32
        #expect(load.capacity == 2 + 32)
        #expect(load.held == load.capacity, "the coordinator filled the wider window")
    }

    @Test func windowFollowsThePace() {
        let load = Self.run(gap: .microseconds(250), results: 100)  // 2 ms / 250 us = 8 tasks beyond the slots
        #expect(load.capacity == 2 + 8)
    }

    @Test func slowPagesKeepSlotsPlusPrefetch() {
        let load = Self.run(gap: .seconds(2), results: 30)  // real OCR pages
        #expect(load == (3, 3))
    }

    @Test func fixedWindowWhenAdaptationIsOff() {
        var h = SchedulerHarness()  // adaptivePrefetchLimit = nil
        h.ready(1, slots: 2)
        var held = h.submit("a", pages: 1000).tasks.map(\.task)
        for _ in 0..<100 {
            h.now += .microseconds(10)
            held += h.succeed(1, held.removeFirst()).tasks.map(\.task)
        }
        #expect(h.scheduler.workerLoad(h.worker(1))! == (3, 3))
    }
}

extension AdaptivePrefetchTests {
    @Test func theWorkersOwnLimitCapsTheWindow() {
        var h = SchedulerHarness { $0.adaptivePrefetchLimit = 32 }
        h.send(.workerReady(h.worker(1), Ready.with { $0.workerUid = 7; $0.slots = 2; $0.maxTasks = 5 }))
        var held = h.submit("a", pages: 1000).tasks.map(\.task)
        for _ in 0..<100 {
            h.now += .microseconds(10)
            held += h.succeed(1, held.removeFirst()).tasks.map(\.task)
        }
        #expect(h.scheduler.workerLoad(h.worker(1))! == (5, 5), "never more than Ready.max_tasks")
    }
}
