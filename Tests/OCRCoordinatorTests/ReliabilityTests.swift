import OCRCoordinator
import OCRWire
import Testing

/// Liveness, retries, failures, duplicates, cancel and deadlines.
@Suite struct ReliabilityTests {
    @Test func aSilentWorkerExpiresAndItsPagesAreRequeuedWithTheNextAttempt() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        h.ready(2, slots: 1)
        let sent = h.submit("a", pages: 3).tasks
        #expect(sent.map(\.to) == [h.worker(1), h.worker(2)])
        // Worker 2 keeps heartbeating and finishes its page; worker 1 goes silent.
        for second in 1...3 {
            h.now = .seconds(second)
            h.heartbeat(2)
            let out = h.tick(at: .seconds(second))
            #expect(out.disconnects.isEmpty, "worker 1 is silent for \(second) s: not dead yet (liveness 3)")
        }
        let third = h.succeed(2, sent[1].task).tasks
        #expect(third.map(\.task.pageIndex) == [2])
        h.now = .milliseconds(3500)
        h.heartbeat(2)
        let out = h.tick(at: .seconds(4))
        #expect(out.disconnects == [h.worker(1)])
        #expect(h.scheduler.workerLoad(h.worker(1)) == nil)
        // Page 0 waits for worker 2, then goes out again as attempt 2.
        let retry = h.succeed(2, third[0].task).tasks
        #expect(retry.map(\.task.pageIndex) == [0])
        #expect(retry[0].task.attempt == 2)
        #expect(retry[0].to == h.worker(2))
        h.succeed(2, retry[0].task)
        #expect(h.log.finished.map(\.state) == [.succeeded])
    }

    @Test func heartbeatsGoToEveryWorkerEachInterval() {
        var h = SchedulerHarness()
        h.ready(1)
        h.ready(2)
        #expect(Set(h.tick(at: .seconds(1)).heartbeats) == [h.worker(1), h.worker(2)])
        #expect(h.tick(at: .milliseconds(1500)).heartbeats.isEmpty)
        #expect(h.tick(at: .seconds(2)).heartbeats.count == 2)
        #expect(h.log.ticks.last == .seconds(3))
    }

    @Test func anAnnouncedHeartbeatIntervalCannotStretchTheExpiry() {
        var h = SchedulerHarness()
        h.send(.workerReady(h.worker(1), Ready.with { $0.workerUid = 1; $0.slots = 1; $0.heartbeatIntervalMs = .max }))
        h.submit("a", pages: 2)
        #expect(h.tick(at: .seconds(3)).disconnects.isEmpty)
        // Silent for more than liveness (3) x the coordinator's 1 s: dead, its pages queued again.
        #expect(h.tick(at: .seconds(4)).disconnects == [h.worker(1)])
        #expect(h.ready(2, slots: 2).tasks.map(\.task.pageIndex).sorted() == [0, 1])
    }

    @Test func aPageThatFailsMaxAttemptsTimesIsFailedAndTheJobIsPartial() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        var task = h.submit("a", pages: 3, maxAttempts: 2).tasks[0].task
        var attempts: [UInt32] = []
        while true {
            if task.pageIndex == 1 {
                attempts.append(task.attempt)
                let out = h.fail(1, task, .internal, "engine crashed")
                guard let next = out.tasks.first else { break }
                task = next.task
            } else {
                guard let next = h.succeed(1, task).tasks.first else { break }
                task = next.task
            }
        }
        #expect(attempts == [1, 2])
        let failed = h.log.failed
        #expect(failed.count == 1)
        #expect(failed[0].pageIndex == 1)
        #expect(failed[0].file == "a.tiff")
        #expect(failed[0].filePage == 2)
        #expect(failed[0].attempts == 2)
        #expect(failed[0].status?.code == .internal)
        #expect(failed[0].status?.file == "a.tiff")
        #expect(failed[0].status?.pageIndex == 1)
        #expect(failed[0].status?.message.contains("page 2 (a.tiff page 2) failed after 2 attempts: engine crashed") == true)
        #expect(h.log.completed.map(\.pageIndex).sorted() == [0, 2])
        let finished = h.log.finished
        #expect(finished.count == 1)
        #expect(finished[0].state == .partial)
        #expect(finished[0].pagesDone == 2)
        #expect(finished[0].pagesFailed == 1)
        let job = h.scheduler.getJob(GetJobRequest.with { $0.jobId = "a"; $0.includePageStates = true }).value!
        #expect(job.state == .partial)
        #expect(job.pageStates == [.done, .failed, .done])
        #expect(job.finishedUnixMs == 1_700_000_000_000)
    }

    @Test func aWorkerLostOnEveryAttemptFailsThePage() {
        // Like a fault engine that kills its worker on one page every time.
        var h = SchedulerHarness()
        h.submit("a", pages: 1)
        var time = Duration.zero
        for attempt: UInt32 in 1...3 {
            let name = UInt8(attempt)
            let task = h.ready(name, slots: 1).tasks
            #expect(task.map(\.task.attempt) == [attempt])
            time += .seconds(5)
            #expect(h.tick(at: time).disconnects == [h.worker(name)])
        }
        #expect(h.log.finished.map(\.state) == [.failed])
        #expect(h.log.failed.first?.status?.code == .unavailable)
    }

    @Test func nonRetryableErrorsFailThePageAtOnce() {
        for code: StatusCode in [.invalidArgument, .resourceExhausted, .failedPrecondition, .outOfRange] {
            var h = SchedulerHarness()
            h.ready(1, slots: 2)
            let tasks = h.submit("a", pages: 2).tasks
            let out = h.fail(1, tasks[0].task, code, "bad page")
            #expect(out.tasks.isEmpty, "no retry for \(code.name)")
            #expect(out.failed.map(\.attempts) == [1])
            #expect(out.failed.first?.status?.code == code)
            #expect(out.failed.first?.status?.message == "bad page")
            h.succeed(1, tasks[1].task)
            #expect(h.log.finished.map(\.state) == [.partial])
        }
    }

    @Test func aJobWhosePagesAllFailIsFailed() {
        var h = SchedulerHarness()
        h.ready(1, slots: 2)
        let tasks = h.submit("a", pages: 2).tasks
        for t in tasks { h.fail(1, t.task, .invalidArgument, "corrupt image") }
        let finished = h.log.finished
        #expect(finished.map(\.state) == [.failed])
        #expect(finished.first?.status?.code == .invalidArgument)
        #expect(finished.first?.status?.message.hasPrefix("2 of 2 pages failed") == true)
    }

    @Test(arguments: [StatusCode.cancelled, .unavailable])
    func aPageGivenBackCostsNoAttemptAndItsWorkerGetsNoMore(code: StatusCode) {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        let task = h.submit("a", pages: 2, maxAttempts: 1).tasks[0].task
        let out = h.fail(1, task, code, "worker is shutting down")
        #expect(out.failed.isEmpty)
        #expect(out.tasks.isEmpty, "a worker that gave a page back is shutting down: no more tasks")
        let retry = h.ready(2, slots: 1).tasks[0]
        #expect(retry.to == h.worker(2))
        #expect(retry.task.pageIndex == 0 && retry.task.attempt == 2)
        h.succeed(2, retry.task)
        h.succeed(2, h.log.tasks.last!.task)
        // With max_attempts 1 the page still succeeded: the give-back spent nothing.
        #expect(h.log.finished.map(\.state) == [.succeeded])
    }

    @Test func aSecondAnswerToATaskGetsDisconnectAndIsNotRecorded() {
        var h = SchedulerHarness()
        h.ready(1, slots: 1)
        let tasks = h.submit("a", pages: 2).tasks
        #expect(h.succeed(1, tasks[0].task, text: "first").completed.count == 1)
        let again = h.succeed(1, tasks[0].task, text: "second")
        #expect(again.disconnects == [h.worker(1)])
        #expect(again.events.isEmpty)
        // Its other task went back to the queue (no attempt spent) and goes to the next worker.
        let retry = h.ready(2, slots: 1).tasks[0].task
        #expect(retry.pageIndex == 1)
        h.succeed(2, retry)
        let replay = h.scheduler.watchReplay("a", fromPage: 0).value!
        #expect(replay.events.compactMap { $0.pageCompleted?.result?.text } == ["first", "ok"])
        #expect(h.scheduler.store.job("a")?.pagesDone == 2)
    }

    @Test func lateResultsFromAPresumedDeadWorkerAreIgnored() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        let first = h.submit("a", pages: 1).tasks[0].task
        h.tick(at: .seconds(5))  // worker 1 expires
        let retry = h.ready(2, slots: 1).tasks[0].task
        #expect(retry.attempt == 2)
        // Worker 1 comes back from the dead with its old result: told to reconnect, not recorded.
        let late = h.succeed(1, first, text: "late")
        #expect(late.disconnects == [h.worker(1)])
        #expect(late.events.isEmpty)
        #expect(h.succeed(2, retry, text: "fresh").completed.map(\.text) == ["fresh"])
        #expect(h.log.completed.count == 1)
    }

    /// PROTOCOL.md: only the connection holding a task may answer it. Each forgery gets
    /// Disconnect, is never recorded, and the real holder's answer still counts.
    @Test(arguments: ["another worker's task", "unknown job", "wrong attempt", "same uid, new socket"])
    func aResultForATaskTheWorkerDoesNotHoldIsRefused(forgery: String) {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1, uid: 42)
        let task = h.submit("a", pages: 1).tasks[0].task
        #expect(task.attempt == 1)
        var forged = task
        var from: UInt8 = 2
        switch forgery {
        case "another worker's task": h.ready(2, slots: 1)
        case "unknown job": h.ready(2, slots: 1); forged.jobId = "nope"
        case "wrong attempt": from = 1; forged.attempt = 7
        default: h.ready(2, slots: 1, uid: 42)  // the same uid from a new identity: a new registration
        }
        let out = h.succeed(from, forged, text: "forged")
        #expect(out.disconnects == [h.worker(from)])
        #expect(out.completed.isEmpty)
        #expect(!h.log.completed.contains { $0.text == "forged" })
        // The page is still the holder's (or, when the holder was the one refused or replaced,
        // back in the queue for the next worker) and finishes with real text.
        if let holder = h.scheduler.workerLoad(h.worker(1)), holder.held == 1 {
            h.succeed(1, task, text: "real")
        } else {
            let retry = h.ready(3, slots: 1).tasks[0].task
            h.succeed(3, retry, text: "real")
        }
        #expect(h.log.completed.map(\.text) == ["real"])
        #expect(h.log.finished.map(\.state) == [.succeeded])
    }

    @Test func clusterStatusShowsWhatEachWorkerAnnounced() throws {
        var h = SchedulerHarness()
        h.send(.workerReady(h.worker(1), Ready.with {
            $0.workerUid = 7; $0.slots = 2; $0.hostname = "scan-host"; $0.labels = ["zone": "b"]; $0.languages = ["eng"]
        }))
        let workers = h.scheduler.clusterStatus(now: .zero).workers
        try #require(workers.count == 1)
        #expect(workers[0].hostname == "scan-host")
        #expect(workers[0].labels == ["zone": "b"])
        #expect(workers[0].address == "", "the peer address is not known; the hostname is not passed off as it")
        #expect(workers[0].uid == 7 && workers[0].slots == 2)
    }

    @Test func welcomeTellsEachWorkerTheLinksHeartbeatRules() {
        var h = SchedulerHarness { $0.heartbeatInterval = .seconds(4); $0.liveness = 3 }
        let plain = h.ready(1).welcomes
        #expect(plain.map(\.to) == [h.worker(1)])
        #expect(plain.first?.welcome.heartbeatIntervalMs == 4000)
        #expect(plain.first?.welcome.liveness == 3)
        #expect(plain.first?.welcome.slots == 1)
        // A worker asking for longer gets the coordinator's interval; the Welcome comes before any task.
        h.submit("a", pages: 3)
        let slow = h.send(.workerReady(h.worker(2), Ready.with { $0.workerUid = 2; $0.slots = 1; $0.heartbeatIntervalMs = 9000 }))
        #expect(slow.welcomes.first?.welcome.heartbeatIntervalMs == 4000)
        let order = slow.compactMap { d -> String? in
            switch d { case .sendWelcome: "welcome"; case .sendTask: "task"; default: nil }
        }
        #expect(order.first == "welcome")
        let greedy = h.send(.workerReady(h.worker(3), Ready.with { $0.workerUid = 3; $0.slots = 1; $0.heartbeatIntervalMs = .max }))
        #expect(greedy.welcomes.first?.welcome.heartbeatIntervalMs == 4000)
        // Judged by the Welcome's rules, 4 s x 3, whatever each asked for.
        #expect(h.tick(at: .seconds(11)).disconnects.isEmpty)
        #expect(Set(h.tick(at: .seconds(16)).disconnects) == [h.worker(1), h.worker(2), h.worker(3)])
    }

    @Test func cancelStopsQueuedPagesAndReachesRunningOnes() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        h.ready(2, slots: 1)
        let running = h.submit("a", pages: 5).tasks
        let out = h.send(.cancelJob(request: 9, jobID: "a"))
        #expect(Set(out.cancels.map(\.to)) == [h.worker(1), h.worker(2)])
        #expect(Set(out.cancels.map(\.cancel.pageIndex)) == [0, 1])
        #expect(out.finished.map(\.state) == [.cancelled])
        #expect(out.finished.first?.status?.code == .cancelled)
        let job = out.cancelReplies.first?.value
        #expect(job?.state == .cancelled)
        let states = h.scheduler.getJob(GetJobRequest.with { $0.jobId = "a"; $0.includePageStates = true }).value!.pageStates
        #expect(states == Array(repeating: .cancelled, count: 5))
        // Workers keep their credit until they answer the cancel; late answers are not recorded.
        #expect(h.scheduler.workerLoad(h.worker(1))! == (1, 1))
        #expect(h.submit("b", pages: 2).tasks.isEmpty)
        let answer = h.fail(1, running[0].task, .cancelled)
        #expect(answer.events.isEmpty)
        #expect(answer.tasks.map(\.task.jobId) == ["b"])
        #expect(h.succeed(2, running[1].task).events.isEmpty)
        // Cancelling again is harmless; an unknown job is NOT_FOUND.
        #expect(h.send(.cancelJob(request: 10, jobID: "a")).cancelReplies.first?.value?.state == .cancelled)
        #expect(h.send(.cancelJob(request: 11, jobID: "zz")).cancelReplies.first?.error?.code == .notFound)
        #expect(h.scheduler.store.queuedPages == 0)
    }

    @Test func jobDeadlineGivesRemainingTimeAndExpiresTheJob() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.submit("a", pages: 4, timeout: .seconds(5), options: RecognitionOptions.with { $0.pageTimeoutMs = 3000 })
        h.ready(1, slots: 1)
        let t0 = h.log.tasks[0].task
        #expect(t0.remainingMs == 3000)  // page timeout is shorter
        h.now = .milliseconds(3500)
        let t1 = h.succeed(1, t0).tasks[0].task
        #expect(t1.remainingMs == 1500)  // job deadline is shorter
        let out = h.tick(at: .seconds(5))
        #expect(out.finished.map(\.state) == [.expired])
        #expect(out.finished.first?.status?.code == .deadlineExceeded)
        #expect(out.cancels.map(\.cancel.pageIndex) == [1])
        #expect(h.succeed(1, t1).events.isEmpty)
        let job = h.scheduler.store.job("a", includePageStates: true)!
        #expect(job.pageStates == [.done, .cancelled, .cancelled, .cancelled])
        #expect(job.pagesDone == 1)
    }

    @Test func theDeadlineIsScheduledAsATick() {
        var h = SchedulerHarness()
        h.tick(at: .zero)
        h.now = .milliseconds(100)
        let out = h.submit("a", pages: 1, timeout: .milliseconds(300))
        #expect(out.ticks == [.milliseconds(400)])
    }

    @Test func aJobPastItsDeadlineIsNotDispatched() {
        var h = SchedulerHarness()
        h.submit("a", pages: 1, timeout: .seconds(1))
        h.now = .seconds(2)  // no tick happened in between
        let out = h.ready(1, slots: 1)
        #expect(out.tasks.isEmpty)
        #expect(out.finished.map(\.state) == [.expired])
    }

    @Test func unknownWorkersAndProtocolErrorsGetDisconnect() {
        var h = SchedulerHarness()
        #expect(h.heartbeat(9).disconnects == [h.worker(9)])
        #expect(h.send(.workerReady(h.worker(8), Ready.with { $0.workerUid = 0; $0.slots = 1 })).disconnects == [h.worker(8)])
        #expect(h.send(.workerReady(h.worker(8), Ready.with { $0.workerUid = 5; $0.slots = 0 })).disconnects == [h.worker(8)])
        // A second Ready on a live connection: disconnected, its page requeued without penalty.
        h.ready(1, slots: 1)
        let task = h.submit("a", pages: 1, maxAttempts: 1).tasks[0].task
        #expect(h.ready(1, slots: 1).disconnects == [h.worker(1)])
        #expect(h.scheduler.workerLoad(h.worker(1)) == nil)
        let again = h.ready(2, slots: 1).tasks
        #expect(again.map(\.task.pageIndex) == [task.pageIndex])
        #expect(h.send(.workerProtocolError(h.worker(2), reason: "bad frame")).disconnects == [h.worker(2)])
        #expect(h.scheduler.workerCount == 0)
        #expect(SchedulerEvent(from: h.worker(3), message: WorkerMessage()).isProtocolError)
    }

    @Test func progressIsCoalescedAndSequencesAreMonotonic() {
        var h = SchedulerHarness()
        h.ready(1, slots: 4)
        let tasks = h.submit("a", pages: 4).tasks
        for t in tasks.prefix(3) { h.succeed(1, t.task) }
        h.tick(at: h.log.ticks.last!)
        #expect(h.log.progress.count == 1)
        #expect(h.log.progress.last?.pagesDone == 3)
        #expect(h.log.progress.last?.pagesRunning == 1)
        h.succeed(1, tasks[3].task)
        let sequences = h.log.events.map(\.sequence)
        #expect(sequences == Array(1...UInt64(sequences.count)))
        #expect(h.log.events.last?.finished?.state == .succeeded)
    }
}

extension SchedulerEvent {
    var isProtocolError: Bool { if case .workerProtocolError = self { true } else { false } }
}
