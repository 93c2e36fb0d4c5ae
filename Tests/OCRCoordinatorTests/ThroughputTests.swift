import OCRBasics
import OCRCoordinator
import OCRPages
import OCRWire
import OCRTestSupport
import Testing

/// Measures how many dispatch + result cycles per second the pure state machine handles. It
/// prints figures; it asserts only correctness (timing assertions would be flaky on shared CI).
@Suite(.blocking) struct ThroughputTests {
    /// 400 workers with 4 slots, 50 jobs of 2,000 pages each (100,000 page tasks), every task
    /// answered with a result as soon as it is sent, with a tick every 1,000 results.
    @Test func dispatchAndResultCyclesPerSecond() {
        var settings = SchedulerSettings()
        settings.maxQueuedPages = 1_000_000
        settings.maxPagesPerPrincipal = 1_000_000
        var scheduler = Scheduler(settings: settings)
        var now = Duration.zero
        var outstanding = Deque<(WorkerIdentity, PageTask)>()
        func collect(_ out: [SchedulerDirective]) {
            for case .sendTask(let to, let task) in out { outstanding.append((to, task)) }
        }
        let workers = 400, jobs = 50, pagesPerJob = 2_000
        for w in 0..<workers {
            let identity = WorkerIdentity(withUnsafeBytes(of: UInt32(w).bigEndian, Array.init))
            collect(scheduler.handle(.workerReady(identity, Ready.with { $0.workerUid = UInt64(w + 1); $0.slots = 4 }), now: now))
        }
        let content = [UInt8](repeating: 0xAB, count: 2_000)
        for j in 0..<jobs {
            let pages = (0..<pagesPerJob).map { PageDescriptor(file: "f\(j).tiff", filePage: $0 + 1, content: content, format: .tiff) }
            collect(scheduler.handle(.submitJob(JobSubmission(jobID: "job-\(j)", pages: pages)), now: now))
        }
        let clock = ContinuousClock()
        let start = clock.now
        var cycles = 0, finished = 0
        let pageResult = PageResult.with { $0.text = "hello"; $0.width = 2480; $0.height = 3508 }
        while let (to, task) = outstanding.popFirst() {
            now += .microseconds(50)
            let out = scheduler.handle(.taskResult(to, TaskResult.with {
                $0.jobId = task.jobId; $0.pageIndex = task.pageIndex; $0.attempt = task.attempt
                $0.outcome = .result(pageResult)
            }), now: now)
            for directive in out {
                switch directive {
                case .sendTask(let to, let task): outstanding.append((to, task))
                case .emit(let event) where event.finished != nil: finished += 1
                default: break
                }
            }
            cycles += 1
            if cycles % 1_000 == 0 { _ = scheduler.handle(.tick, now: now) }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(cycles == jobs * pagesPerJob)
        #expect(finished == jobs)
        let rate = Double(cycles) / seconds
        #if DEBUG
        let mode = "debug"
        #else
        let mode = "release"
        #endif
        print("scheduler throughput (\(mode)): \(cycles) dispatch+result cycles in \((seconds * 100).rounded() / 100) s = \(Int(rate)) cycles/s (\(workers) workers x 4 slots, \(jobs) jobs x \(pagesPerJob) pages)")
    }
}
