import OCRPageEngine
import OCRWire
import Testing
@testable import OCRWorker

/// The link state machine alone: no sockets, no threads, time as an argument.
@Suite("WorkerLink state machine")
struct WorkerLinkTests {
    /// Link time: a `Duration` since the shell started (no clock is read in these tests).
    static func at(_ ms: Int) -> Duration { .milliseconds(ms) }

    static let workerID: UInt64 = 0xABCD_0000_1234

    static func makeLink(stuckGrace: Duration = .seconds(60)) -> WorkerLink {
        WorkerLink(configuration: .init(slots: 2, languages: ["eng"], version: "t", hostname: "h",
                                               heartbeatInterval: .milliseconds(1000), liveness: 3,
                                               drainTimeout: .milliseconds(5000), maxHeldTasks: 3,
                                               stuckGrace: stuckGrace),
                          workerID: workerID)
    }

    static func sent(_ directives: [WorkerLink.Directive]) -> [WorkerMessage] {
        directives.compactMap { if case .send(let m) = $0 { m } else { nil } }
    }
    static func connects(_ directives: [WorkerLink.Directive]) -> [UInt64] {
        directives.compactMap { if case .connect(let connection) = $0 { connection } else { nil } }
    }
    static func runs(_ directives: [WorkerLink.Directive]) -> [(WorkerLink.TaskKey, UInt64, PageControl)] {
        directives.compactMap { if case .run(_, let key, let connection, let control, _) = $0 { (key, connection, control) } else { nil } }
    }
    static func stops(_ directives: [WorkerLink.Directive]) -> Bool {
        directives.contains { if case .stop = $0 { true } else { false } }
    }
    static func task(_ page: UInt32) -> WorkerLink.Event {
        .received(CoordinatorMessage.with { $0.command = .task(pageTask(page)) })
    }
    static let heartbeat = WorkerLink.Event.received(CoordinatorMessage.with { $0.command = .heartbeat(Heartbeat()) })

    @Test("start: connection 1, and Ready announces the process's worker uid")
    func start() {
        var link = Self.makeLink()
        let directives = link.handle(.start, now: Self.at(0))
        #expect(Self.connects(directives) == [1])
        #expect(Self.sent(directives).first?.ready?.workerUid == Self.workerID)
        #expect(Self.sent(directives).first?.ready?.heartbeatIntervalMs == 1000)
        #expect(link.handle(.start, now: Self.at(1)).isEmpty, "a link starts once")
    }

    @Test("Welcome sets the link's rules: a coordinator heartbeating every 4 s is not taken for dead at 3 s")
    func welcomeSetsTheSilenceLimit() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        let welcome = WorkerLink.Event.received(CoordinatorMessage.with {
            $0.command = .welcome(Welcome.with { $0.heartbeatIntervalMs = 4000; $0.liveness = 3; $0.slots = 2 })
        })
        _ = link.handle(welcome, now: Self.at(10))
        #expect(link.silenceLimit == .seconds(12))
        // Our own heartbeats keep their 1 s pace (never slower than the link asks).
        #expect(Self.sent(link.handle(.tick, now: Self.at(3000))).first?.heartbeat != nil)
        #expect(link.currentConnection == 1, "still connected after 3 s of coordinator silence")
        _ = link.handle(Self.heartbeat, now: Self.at(4000))
        #expect(link.currentConnection == 1)
        #expect(link.handle(.tick, now: Self.at(15_999)).allSatisfy { if case .closeSocket = $0 { false } else { true } })
        let lost = link.handle(.tick, now: Self.at(16_000))
        #expect(lost.contains { if case .closeSocket = $0 { true } else { false } })
        // A new connection starts from the worker's own rules until its Welcome.
        guard case .backingOff(let until) = link.phase else { Issue.record("not backing off"); return }
        _ = link.handle(.tick, now: until)
        #expect(link.silenceLimit == .seconds(3))
    }

    @Test("a heartbeat only after one interval without sending anything; results count as sending")
    func heartbeatOnlyWhenQuiet() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        #expect(Self.sent(link.handle(.tick, now: Self.at(999))).isEmpty)
        _ = link.handle(Self.heartbeat, now: Self.at(900))
        let beat = Self.sent(link.handle(.tick, now: Self.at(1000)))
        #expect(beat.first?.heartbeat?.sequence == 1)
        // A task is held; its result resets the quiet timer.
        let run = Self.runs(link.handle(Self.task(0), now: Self.at(1500)))
        #expect(Self.sent(link.handle(.tick, now: Self.at(1800))).isEmpty)
        _ = link.handle(Self.heartbeat, now: Self.at(1800))
        let busy = Self.sent(link.handle(.tick, now: Self.at(2000)))
        #expect(busy.first?.heartbeat?.busy == 1, "busy counts the held task")
        let result = Self.sent(link.handle(.finished(run[0].0, connection: 1, .success(PageResult())), now: Self.at(2500)))
        #expect(result.first?.result?.pageIndex == 0)
        _ = link.handle(Self.heartbeat, now: Self.at(2600))
        #expect(Self.sent(link.handle(.tick, now: Self.at(3400))).isEmpty)
        #expect(Self.sent(link.handle(.tick, now: Self.at(3500))).first?.heartbeat?.sequence == 3)
    }

    @Test("silence: reconnect after liveness x interval with backoff 250, 500, 1000 ms ... capped at 8 s; contact resets it")
    func backoff() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        var now = 0
        var delays: [Duration] = []
        for _ in 0..<7 {
            now += 3000
            let lost = link.handle(.tick, now: Self.at(now))
            #expect(lost.contains { if case .closeSocket = $0 { true } else { false } })
            guard case .backingOff(let until) = link.phase else { Issue.record("not backing off"); return }
            delays.append(until - Self.at(now))
            now = Int(until.milliseconds)
            #expect(Self.connects(link.handle(.tick, now: Self.at(now))).count == 1)
        }
        #expect(delays == [250, 500, 1000, 2000, 4000, 8000, 8000].map { .milliseconds($0) })
        _ = link.handle(Self.heartbeat, now: Self.at(now + 10))
        #expect(link.backoff == .milliseconds(250))
    }

    @Test("tasks of a lost connection are given back (UNAVAILABLE) and their results dropped")
    func abandonedResults() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        let run = Self.runs(link.handle(Self.task(0), now: Self.at(10)))
        let lost = link.handle(.received(CoordinatorMessage.with { $0.command = .disconnect(Disconnect()) }), now: Self.at(20))
        #expect(lost.contains { if case .cancel(_, .unavailable) = $0 { true } else { false } })
        #expect(run[0].2.stopCode == nil, "the link only asks; the shell cancels")
        let reconnect = link.handle(.tick, now: Self.at(300))
        #expect(link.currentConnection == 2)
        #expect(Self.sent(reconnect).first?.ready?.workerUid == Self.workerID, "one worker uid for the life of the process")
        let late = link.handle(.finished(run[0].0, connection: 1, .success(PageResult())), now: Self.at(400))
        #expect(Self.sent(late).isEmpty)
    }

    @Test("CancelTask cancels the matching held page only; the result still goes out")
    func cancel() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        _ = link.handle(Self.task(0), now: Self.at(1))
        _ = link.handle(Self.task(1), now: Self.at(1))
        let directives = link.handle(.received(CoordinatorMessage.with {
            $0.command = .cancel(CancelTask.with { $0.jobId = "job-1"; $0.pageIndex = 1 })
        }), now: Self.at(2))
        #expect(directives.count == 1)
        #expect(link.handle(.received(CoordinatorMessage.with {
            $0.command = .cancel(CancelTask.with { $0.jobId = "other"; $0.pageIndex = 1 })
        }), now: Self.at(3)).isEmpty)
    }

    @Test("remaining_ms sets the page deadline from the moment the task arrived")
    func deadline() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        var task = pageTask(0)
        task.remainingMs = 1500
        let directives = link.handle(.received(CoordinatorMessage.with { $0.command = .task(task) }), now: Self.at(100))
        let deadlines = directives.compactMap { if case .run(_, _, _, _, let deadline) = $0 { deadline } else { nil } }
        #expect(deadlines == [Self.at(1600)])
    }

    @Test("more tasks than maxHeldTasks are refused with UNAVAILABLE; duplicates are ignored")
    func refuseBeyondCap() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        for page in UInt32(0)..<3 { #expect(Self.runs(link.handle(Self.task(page), now: Self.at(1))).count == 1) }
        #expect(Self.runs(link.handle(Self.task(0), now: Self.at(2))).isEmpty)
        let refused = Self.sent(link.handle(Self.task(3), now: Self.at(2)))
        #expect(refused.first?.result?.error?.code == .unavailable)
        #expect(refused.first?.result?.error?.pageIndex == 3)
    }

    @Test("drain: refuse new tasks, finish held ones, then Disconnect and stop; the timeout gives pages back")
    func drain() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        let run = Self.runs(link.handle(Self.task(0), now: Self.at(1)))
        #expect(!Self.stops(link.handle(.shutdown, now: Self.at(10))))
        #expect(Self.sent(link.handle(Self.task(1), now: Self.at(20))).first?.result?.error?.code == .unavailable)
        _ = link.handle(Self.heartbeat, now: Self.at(4000))
        let timeout = link.handle(.tick, now: Self.at(5010))
        #expect(timeout.contains { if case .cancel(_, .unavailable) = $0 { true } else { false } })
        let done = link.handle(.finished(run[0].0, connection: 1, .failure(OCRError(.unavailable, "given back"))), now: Self.at(5020))
        let messages = Self.sent(done)
        #expect(messages.count == 2)
        #expect(messages.first?.result?.error?.code == .unavailable)
        #expect(messages.last?.disconnect != nil)
        #expect(Self.stops(done))
        #expect(link.phase == .stopped)
        #expect(link.handle(.tick, now: Self.at(6000)).isEmpty)
    }

    @Test("shutdown while reconnecting stops at once, without a Disconnect")
    func shutdownWhileBackingOff() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        _ = link.handle(.tick, now: Self.at(3000))
        let directives = link.handle(.shutdown, now: Self.at(3001))
        #expect(Self.stops(directives))
        #expect(Self.sent(directives).isEmpty)
    }

    @Test("malformed frames are logged and count as a sign of life, never a crash")
    func malformed() {
        var link = Self.makeLink()
        _ = link.handle(.start, now: Self.at(0))
        _ = link.handle(.malformed("bad signature"), now: Self.at(2900))
        #expect(link.currentConnection == 1)
        #expect(Self.connects(link.handle(.tick, now: Self.at(3000))).isEmpty)
    }

    @Test("an engine that ignores its deadline for stuckGrace: its page fails, the others go back with Disconnect, a wedged stop")
    func wedgedEngine() {
        var link = Self.makeLink(stuckGrace: .milliseconds(1000))
        _ = link.handle(.start, now: Self.at(0))
        let due = Self.runs(link.handle(.received(CoordinatorMessage.with { $0.command = .task(pageTask(0, remainingMs: 500)) }), now: Self.at(1)))
        let other = Self.runs(link.handle(Self.task(1), now: Self.at(1)))
        _ = link.handle(.began(due[0].0, connection: 1), now: Self.at(2))  // an engine thread took the page
        _ = link.handle(Self.heartbeat, now: Self.at(1000))
        // 899 ms past the deadline: still within the grace.
        let early = link.handle(.tick, now: Self.at(1400))
        #expect(Self.sent(early).allSatisfy { $0.result == nil })
        #expect(!link.wedged)
        let late = link.handle(.tick, now: Self.at(1502))
        #expect(link.wedged)
        let failed = Self.sent(late).compactMap(\.result)
        #expect(failed.map(\.pageIndex) == [0])
        #expect(failed.first?.error?.code == .deadlineExceeded)
        #expect(failed.first?.error?.message.contains("did not stop within") == true)
        // The other page is given back without a result of its own (it may be queued behind the
        // stuck thread): Disconnect has the coordinator requeue it without counting a failure.
        #expect(late.contains { if case .cancel(let c, .unavailable) = $0 { c === other[0].2 } else { false } })
        #expect(Self.sent(late).last?.disconnect != nil)
        #expect(Self.stops(late))
        #expect(link.phase == .stopped)
        #expect(due.count == 1)
        // Late results, should they ever come, change nothing.
        #expect(link.handle(.finished(other[0].0, connection: 1, .failure(OCRError(.unavailable, "given back"))), now: Self.at(1510)).isEmpty)
        #expect(link.handle(.finished(due[0].0, connection: 1, .success(PageResult())), now: Self.at(1600)).isEmpty)
    }

    @Test("a cancelled page whose engine keeps running past the grace is stuck too")
    func wedgedAfterCancel() {
        var link = Self.makeLink(stuckGrace: .milliseconds(200))
        _ = link.handle(.start, now: Self.at(0))
        let run = Self.runs(link.handle(Self.task(0), now: Self.at(0)))
        _ = link.handle(.began(run[0].0, connection: 1), now: Self.at(5))
        let cancel = link.handle(.received(CoordinatorMessage.with {
            $0.command = .cancel(CancelTask.with { $0.jobId = "job-1"; $0.pageIndex = 0 })
        }), now: Self.at(10))
        #expect(cancel.contains { if case .cancel(let c, .cancelled) = $0 { c === run[0].2 } else { false } })
        _ = link.handle(.tick, now: Self.at(209))
        #expect(!link.wedged, "199 ms after the cancel: within the grace")
        let late = link.handle(.tick, now: Self.at(210))
        #expect(link.wedged)
        #expect(Self.sent(late).first?.result?.error?.code == .cancelled)
        #expect(Self.stops(late), "nothing else was held: Disconnect and stop at once")
        #expect(Self.sent(late).last?.disconnect != nil)
    }

    @Test("the worker's running-time limit counts from the engine's begin: past it and the grace, the page is stuck")
    func wedgedPastMaxPageTime() {
        var link = WorkerLink(configuration: .init(slots: 1, languages: [], version: "t", hostname: "h",
                                                   heartbeatInterval: .seconds(1), liveness: 3, drainTimeout: .seconds(5),
                                                   maxHeldTasks: 3, maxPageTime: .milliseconds(1000), stuckGrace: .milliseconds(500)),
                              workerID: Self.workerID)
        _ = link.handle(.start, now: Self.at(0))
        let run = Self.runs(link.handle(Self.task(0), now: Self.at(0)))
        _ = link.handle(Self.heartbeat, now: Self.at(2000))
        _ = link.handle(.tick, now: Self.at(2000))
        #expect(!link.wedged, "queued for 2 s without an engine: the limit has not started")
        _ = link.handle(.began(run[0].0, connection: 1), now: Self.at(2000))
        _ = link.handle(Self.heartbeat, now: Self.at(3400))
        _ = link.handle(.tick, now: Self.at(3499))
        #expect(!link.wedged)
        let late = link.handle(.tick, now: Self.at(3500))
        #expect(link.wedged)
        #expect(Self.sent(late).first?.result?.error?.code == .deadlineExceeded)
    }

    @Test("a page given back with a lost connection whose engine never returns also stops the worker")
    func wedgedAfterConnectionLoss() {
        var link = Self.makeLink(stuckGrace: .milliseconds(500))
        _ = link.handle(.start, now: Self.at(0))
        let run = Self.runs(link.handle(Self.task(0), now: Self.at(1)))
        _ = link.handle(.began(run[0].0, connection: 1), now: Self.at(2))
        let lost = link.handle(.tick, now: Self.at(3100))  // coordinator silent: reconnect later
        #expect(lost.contains { if case .cancel(let c, .unavailable) = $0 { c === run[0].2 } else { false } })
        _ = link.handle(.tick, now: Self.at(3340))  // still backing off (reconnect due at 3350)
        #expect(!link.wedged)
        let late = link.handle(.tick, now: Self.at(3600))  // 500 ms after the give-back
        #expect(link.wedged)
        #expect(Self.stops(late))
        #expect(Self.sent(late).isEmpty, "no connection to say anything on")
    }

    @Test("a cancelled page still queued behind long pages is not stuck: no engine has begun it")
    func queuedCancelledPageIsNotStuck() {
        var link = Self.makeLink(stuckGrace: .milliseconds(100))
        _ = link.handle(.start, now: Self.at(0))
        let running = Self.runs(link.handle(Self.task(0), now: Self.at(0)))
        let queued = Self.runs(link.handle(Self.task(1), now: Self.at(0)))
        _ = link.handle(.began(running[0].0, connection: 1), now: Self.at(0))
        _ = link.handle(.received(CoordinatorMessage.with {
            $0.command = .cancel(CancelTask.with { $0.jobId = "job-1"; $0.pageIndex = 1 })
        }), now: Self.at(10))
        _ = link.handle(Self.heartbeat, now: Self.at(2000))
        let later = link.handle(.tick, now: Self.at(2100))
        #expect(!link.wedged)
        #expect(!Self.stops(later))
        // Once an engine takes it and still does not return within the grace, it is.
        _ = link.handle(.began(queued[0].0, connection: 1), now: Self.at(2100))
        _ = link.handle(.tick, now: Self.at(2199))
        #expect(!link.wedged)
        _ = link.handle(.tick, now: Self.at(2200))
        #expect(link.wedged)
    }
}
