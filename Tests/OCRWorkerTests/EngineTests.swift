import OCRBasics
import OCRTestSupport
import OCRZeroMQ
import Foundation
import OCRPageEngine
import OCRWire
import Testing
@testable import OCRWorker

@Suite("Engines and PageControl", .blocking)
struct EngineTests {
    @Test("cancel wakes a sleeping page at once and reports the cancel code; hooks run once")
    func cancelWakesSleep() throws {
        let control = PageControl()
        let hooks = Locked(0)
        control.onCancel { hooks.withLock { $0 += 1 } }
        let task = pageTask(5)
        let cancelled = DispatchSemaphore(value: 0)
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            control.cancel(.cancelled)
            control.cancel(.unavailable)
            cancelled.signal()
        }
        thread.start()
        // An hour's sleep: only the cancel's wake-up ends it (`finishes` gives up after 20 s).
        finishes("a sleep woken by cancel") {
            #expect(throws: OCRError(.cancelled, "page was cancelled", file: "scan.tiff", page: 5)) {
                try control.sleep(for: .seconds(3600), task)
            }
        }
        cancelled.wait()
        #expect(control.stopCode == .cancelled)
        #expect(hooks.withLock { $0 } == 1)
        let late = Locked(false)
        control.onCancel { late.withLock { $0 = true } }
        #expect(late.withLock { $0 }, "a hook added after the cancel runs at once")
    }

    @Test("the deadline stops a page with DEADLINE_EXCEEDED")
    func deadline() throws {
        let control = PageControl(deadline: .now + .milliseconds(50))
        #expect(!control.isCancelled)
        #expect(throws: OCRError.self) { try control.sleep(for: .seconds(10), pageTask(0)) }
        #expect(control.stopCode == .deadlineExceeded)
        #expect(control.remaining == .zero)
    }

    @Test("the worker's running-time limit starts when the engine begins the page and names itself when it stops it")
    func maxRunTime() throws {
        let control = PageControl(deadline: nil, maxRunTime: .milliseconds(60))
        #expect(control.deadline == nil, "queued pages do not use up the limit")
        let work = EngineWork(task: pageTask(3), key: .init(jobID: "job-1", pageIndex: 3, attempt: 1), connection: 9, workerID: 9, control: control, receivedAt: .now)
        let before = ContinuousClock.now
        let outcome = EngineThreads.execute(work, on: HangingEngine(page: 3))
        let took = ContinuousClock.now - before
        #expect(took >= .milliseconds(60), "stopped before the limit")  // the hanging engine returns only when stopped
        guard case .failure(let error) = outcome else { Issue.record("a page past the limit must fail"); return }
        #expect(error.code == .deadlineExceeded)
        #expect(error.message.contains("--max-page-ms"))
        #expect(error.file == "scan.tiff")
        #expect(error.pageIndex == 3)
        // A sooner deadline from the task wins, with the plain message.
        let task = PageControl(deadline: .now + .milliseconds(20), maxRunTime: .seconds(30))
        task.begin()
        #expect(throws: OCRError.self) { try task.sleep(for: .seconds(10), pageTask(0)) }
        #expect(task.stopError(.deadlineExceeded, task: pageTask(0)).message == "page deadline exceeded")
    }

    @Test("a task already cancelled never reaches the engine")
    func cancelledBeforeStart() {
        final class MustNotRun: PageEngine {
            func recognize(task: PageTask, control: PageControl) throws -> PageResult {
                Issue.record("engine ran a cancelled task")
                return PageResult()
            }
        }
        let control = PageControl()
        control.cancel(.unavailable)
        let work = EngineWork(task: pageTask(2), key: .init(jobID: "job-1", pageIndex: 2, attempt: 1), connection: 9, workerID: 9, control: control, receivedAt: .now)
        let outcome = EngineThreads.execute(work, on: MustNotRun())
        #expect(throws: OCRError.self) { try outcome.get() }
        if case .failure(let error) = outcome {
            #expect(error.code == .unavailable)
            #expect(error.pageIndex == 2)
        }
    }
}
