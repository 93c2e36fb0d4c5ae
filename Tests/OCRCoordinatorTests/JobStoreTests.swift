import OCRCoordinator
import OCRWire
import Testing

/// Submission, queries and the store's bookkeeping.
@Suite struct JobStoreTests {
    @Test func theSameJobKeyReturnsTheFirstJob() {
        var h = SchedulerHarness()
        let first = h.submit("j1", pages: 3, key: "scan-42", digest: 7).submitReplies[0].value!
        #expect(first.jobId == "j1" && first.pageCount == 3 && !first.existing)
        let again = h.submit("j2", pages: 3, key: "scan-42", digest: 7).submitReplies[0].value!
        #expect(again.jobId == "j1" && again.pageCount == 3 && again.existing)
        #expect(h.scheduler.store.queuedPages == 3)
        #expect(h.scheduler.store.job("j2") == nil)
        let different = h.submit("j3", pages: 1, key: "scan-42", digest: 8).submitReplies[0].error
        #expect(different?.code == .alreadyExists)
        #expect(h.scheduler.store.job("j1")?.jobKey == "scan-42")
    }

    @Test func submissionsAreValidated() {
        var h = SchedulerHarness()
        #expect(h.submit("a", pages: 0).submitReplies[0].error?.code == .invalidArgument)
        h.submit("a", pages: 1)
        #expect(h.submit("a", pages: 1).submitReplies[0].error?.code == .alreadyExists)
    }

    @Test func theQueueIsBounded() {
        var h = SchedulerHarness { $0.maxQueuedPages = 10; $0.prefetch = 0 }
        #expect(h.submit("a", pages: 8).submitReplies[0].value != nil)
        let refused = h.submit("b", pages: 5).submitReplies[0].error
        #expect(refused?.code == .resourceExhausted)
        #expect(refused?.details["max_queued_pages"] == "10")
        #expect(h.submit("c", pages: 2).submitReplies[0].value != nil)
        // Dispatched pages no longer count as queued.
        h.ready(1, slots: 5)
        #expect(h.scheduler.store.queuedPages == 5)
        #expect(h.submit("b", pages: 5).submitReplies[0].value != nil)
        #expect(h.submit("d", pages: 1).submitReplies[0].error?.code == .resourceExhausted)
    }

    @Test func listJobsIsNewestFirstWithAStateFilterAndALimit() {
        var h = SchedulerHarness()
        for i in 0..<5 { h.submit("j\(i)", pages: 1) }
        h.send(.cancelJob(request: 1, jobID: "j1"))
        h.send(.cancelJob(request: 2, jobID: "j3"))
        let all = h.scheduler.listJobs(ListJobsRequest())
        #expect(all.jobs.map(\.jobId) == ["j4", "j3", "j2", "j1", "j0"])
        let cancelled = h.scheduler.listJobs(ListJobsRequest.with { $0.states = [.cancelled] })
        #expect(cancelled.jobs.map(\.jobId) == ["j3", "j1"])
        let two = h.scheduler.listJobs(ListJobsRequest.with { $0.limit = 2; $0.states = [.queued] })
        #expect(two.jobs.map(\.jobId) == ["j4", "j2"])
        #expect(h.scheduler.getJob(GetJobRequest.with { $0.jobId = "nope" }).error?.code == .notFound)
    }

    @Test func getJobReportsTheJob() {
        var h = SchedulerHarness()
        h.now = .seconds(2)
        h.send(.submitJob(JobSubmission(request: 1, jobID: "a", jobKey: "k", files: ["x.pdf", "y.png"],
                                        pages: SchedulerHarness.pages(2, file: "x.pdf") + SchedulerHarness.pages(1, file: "y.png"),
                                        options: RecognitionOptions.with { $0.languages = "deu" }, priority: 3)))
        let job = h.scheduler.getJob(GetJobRequest.with { $0.jobId = "a"; $0.includePageStates = true }).value!
        #expect(job.state == .queued)
        #expect(job.pageCount == 3)
        #expect(job.files == ["x.pdf", "y.png"])
        #expect(job.priority == 3)
        #expect(job.createdUnixMs == 1_700_000_002_000)
        #expect(job.options?.languages == "deu")
        #expect(job.pageStates == [.pending, .pending, .pending])
        h.ready(1, slots: 2)
        let running = h.scheduler.getJob(GetJobRequest.with { $0.jobId = "a"; $0.includePageStates = true }).value!
        #expect(running.state == .running)
        #expect(running.pageStates == [.dispatched, .dispatched, .pending])
        #expect(h.scheduler.getJob(GetJobRequest.with { $0.jobId = "a" }).value!.pageStates.isEmpty)
    }

    @Test func watchReplaysRecordedPagesFromAPage() {
        var h = SchedulerHarness()
        h.ready(1, slots: 3)
        let tasks = h.submit("a", pages: 4).tasks
        h.succeed(1, tasks[2].task, text: "p2")
        h.fail(1, tasks[1].task, .invalidArgument)
        h.succeed(1, tasks[0].task, text: "p0")
        let partial = h.scheduler.watchReplay("a", fromPage: 1).value!
        #expect(!partial.finished)
        #expect(partial.events.map { $0.pageCompleted?.result?.pageIndex ?? $0.pageFailed!.pageIndex } == [1, 2])
        // Replayed events keep the sequence numbers they were first sent with.
        #expect(partial.events.map(\.sequence) == [2, 1])
        h.succeed(1, h.log.tasks.last!.task, text: "p3")
        let full = h.scheduler.watchReplay("a", fromPage: 0).value!
        #expect(full.finished)
        #expect(full.events.count == 5)
        #expect(full.events.last?.finished?.state == .partial)
        #expect(full.events.first?.pageCompleted?.result?.text == "p0")
        #expect(full.events.first?.pageCompleted?.result?.file == "a.tiff")
        #expect(h.scheduler.watchReplay("zz", fromPage: 0).error?.code == .notFound)
    }

    @Test func clusterStatusFigures() {
        var h = SchedulerHarness()
        h.ready(1, slots: 2)
        h.ready(2, slots: 4)
        let tasks = h.submit("a", pages: 40).tasks
        #expect(tasks.count == 8)
        // 6 results spread over the first two seconds.
        for (i, t) in tasks.prefix(6).enumerated() {
            h.now = .milliseconds(300 * Int64(i + 1))
            h.succeed(t.to == h.worker(1) ? 1 : 2, t.task)
        }
        h.now = .seconds(2)
        let status = h.scheduler.clusterStatus(now: h.now)
        #expect(status.workers.count == 2)
        #expect(status.workers.map(\.slots) == [2, 4])
        #expect(status.totalSlots == 6)
        #expect(status.busySlots == 6)  // 8 tasks held, at most `slots` count as busy
        #expect(status.workers.map(\.busy) == [3, 5])
        #expect(status.queueDepth == 40 - 8 - 6)
        #expect(status.activeJobs == 1)
        #expect(status.pagesDone == 6)
        #expect(status.pagesPerSecond == 3)
        #expect(status.uptimeMs == 2000)
        #expect(status.workers.map(\.pagesDone).reduce(0, +) == 6)
        // Ten seconds later the window has moved past them.
        #expect(h.scheduler.clusterStatus(now: .seconds(13)).pagesPerSecond == 0)
    }

    @Test func oldFinishedJobsAreEvictedBeyondTheRetentionLimit() {
        var h = SchedulerHarness { $0.retainedFinishedJobs = 2 }
        for i in 0..<4 {
            h.submit("j\(i)", pages: 1, key: "k\(i)")
            h.send(.cancelJob(request: 1, jobID: "j\(i)"))
        }
        #expect(h.scheduler.listJobs(ListJobsRequest()).jobs.map(\.jobId) == ["j3", "j2"])
        #expect(h.scheduler.store.jobID(forKey: "k0") == nil)
        #expect(h.scheduler.store.jobID(forKey: "k3") == "j3")
    }

    @Test func finishedJobsAreEvictedOnceOlderThanTheRetention() {
        var h = SchedulerHarness { $0.retention = .seconds(60) }
        h.submit("old", pages: 1)
        h.send(.cancelJob(request: 1, jobID: "old"))
        h.tick(at: .seconds(30))
        h.submit("new", pages: 1)
        h.send(.cancelJob(request: 2, jobID: "new"))
        h.submit("running", pages: 1)
        h.tick(at: .seconds(59))
        #expect(h.scheduler.listJobs(ListJobsRequest()).jobs.map(\.jobId) == ["running", "new", "old"])
        h.tick(at: .seconds(61))
        #expect(h.scheduler.listJobs(ListJobsRequest()).jobs.map(\.jobId) == ["running", "new"])
        h.tick(at: .seconds(3600))
        #expect(h.scheduler.listJobs(ListJobsRequest()).jobs.map(\.jobId) == ["running"], "an unfinished job is never evicted")
    }

    @Test func overTheJournalBudgetTheOldestFinishedJobsGoFirst() {
        var h = SchedulerHarness { $0.retention = nil; $0.journalChanges = true }
        for i in 0..<5 {
            h.submit("j\(i)", pages: 1)
            h.send(.cancelJob(request: 1, jobID: "j\(i)"))
        }
        h.submit("running", pages: 1)
        let out = h.send(.evictFinished(count: 3))
        #expect(out.compactMap { if case .journal(.evicted(let id)) = $0 { id } else { nil } } == ["j0", "j1", "j2"])
        h.send(.evictFinished(count: 10))
        #expect(h.scheduler.listJobs(ListJobsRequest()).jobs.map(\.jobId) == ["running"])
    }

    @Test func everyChangeCanBeJournaledAndReplayedIntoAnEmptyStore() {
        var h = SchedulerHarness { $0.journalChanges = true }
        h.ready(1, slots: 2)
        let tasks = h.submit("a", pages: 3).tasks
        h.succeed(1, tasks[0].task)
        h.fail(1, tasks[1].task, .internal)
        h.send(.cancelJob(request: 1, jobID: "a"))
        var copy = JobStore()
        for case .journal(let change) in h.log { #expect(copy.apply(change).applied) }
        #expect(copy.job("a", includePageStates: true) == h.scheduler.store.job("a", includePageStates: true))
        #expect(copy.replay("a") == h.scheduler.store.replay("a"))
    }

    @Test func illegalTransitionsAreIgnored() {
        var store = JobStore()
        #expect(!store.apply(.completed(jobID: "x", page: 0, result: PageResult(), at: .zero)).applied)
        store.apply(.accepted(AcceptedJob(jobID: "a", jobKey: "", files: ["f"], pages: SchedulerHarness.pages(1, file: "f"),
                                          options: nil, priority: 0, maxAttempts: 3, deadline: nil, labels: [:],
                                          requestDigest: 0, createdAt: .zero, createdUnixMs: 0)))
        #expect(!store.apply(.requeued(jobID: "a", page: 0, failure: nil, at: .zero)).applied)  // not dispatched
        #expect(!store.apply(.dispatched(jobID: "a", page: 5, workerUID: 1, at: .zero)).applied)  // no such page
        #expect(store.apply(.completed(jobID: "a", page: 0, result: PageResult(), at: .zero)).applied)
        #expect(!store.apply(.failed(jobID: "a", page: 0, status: Status(), at: .zero)).applied)  // already final
        #expect(store.apply(.finished(jobID: "a", state: .succeeded, status: Status(), unixMs: 0, at: .zero)).applied)
        #expect(!store.apply(.finished(jobID: "a", state: .cancelled, status: Status(), unixMs: 0, at: .zero)).applied)
        #expect(store.job("a")?.state == .succeeded)
        #expect(store.ignoredChanges == 5)
    }
}
