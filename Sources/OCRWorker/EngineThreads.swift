import OCRBasics
import OCRPageEngine
import OCRZeroMQ
import Foundation
import OCRWire

/// One task handed to the engine threads.
struct EngineWork: Sendable {
    var task: PageTask
    var key: WorkerLink.TaskKey
    /// The connection the task arrived on (its results are dropped if that connection ended).
    var connection: UInt64
    /// The worker's `worker_uid`, stamped on the result.
    var workerID: UInt64
    var control: PageControl
    var receivedAt: ContinuousClock.Instant
}

/// The worker's engine threads: one per slot, each with the engine its factory makes on it,
/// running tasks one at a time from one FIFO (`DedicatedThreads`).
final class EngineThreads: Sendable {
    private let threads: DedicatedThreads<any PageEngine>
    private let began: @Sendable (EngineWork) -> Void
    private let finished: @Sendable (EngineWork, Result<PageResult, OCRError>) -> Void

    /// Starts `slots` threads and waits until every engine has been made; throws the first
    /// factory error. `began` is called on the engine thread as it begins a task, `finished`
    /// when it is done.
    init(slots: Int, factory: PageEngineFactory,
         began: @escaping @Sendable (EngineWork) -> Void = { _ in },
         finished: @escaping @Sendable (EngineWork, Result<PageResult, OCRError>) -> Void) throws {
        threads = try DedicatedThreads(count: slots, name: "ocr.engine") { slot in try factory.make(slot) }
        self.began = began
        self.finished = finished
    }

    /// Queues a task for the next free engine.
    func push(_ work: EngineWork) {
        threads.submit { [began, finished] engine in finished(work, Self.execute(work, on: engine, began: began)) }
    }

    /// Takes no more tasks and drops the queued ones (their tasks were already given back).
    func close() { threads.close(discardingQueued: true) }

    /// Waits for the threads to end (after `close`); `false` if some are still inside an engine
    /// that ignores cancellation after `timeout`.
    func join(timeout: Duration) -> Bool { threads.join(timeout: timeout) }

    /// Runs one task and turns whatever the engine does into an outcome that names the page.
    static func execute(_ work: EngineWork, on engine: any PageEngine,
                        began: @Sendable (EngineWork) -> Void = { _ in }) -> Result<PageResult, OCRError> {
        let task = work.task
        let control = work.control
        let started = ContinuousClock.now
        control.begin(at: started)
        began(work)
        if let code = control.stopCode { return .failure(control.stopError(code, task: task)) }
        do {
            var page = try engine.recognize(task: task, control: control)
            page.pageIndex = task.pageIndex
            if page.file.isEmpty { page.file = task.file }
            if page.filePage == 0 { page.filePage = task.filePage }
            page.workerUid = work.workerID
            page.attempt = task.attempt
            var timings = page.timings ?? Timings()
            timings.queueUs = task.queuedUs &+ UInt64(clamping: (started - work.receivedAt).microseconds)
            if timings.totalUs == 0 { timings.totalUs = UInt64(clamping: (ContinuousClock.now - started).microseconds) }
            page.timings = timings
            return .success(page)
        } catch var error as OCRError {
            // Whatever an engine throws once the page was stopped reports why it was stopped.
            if let code = control.stopCode { error = control.stopError(code, task: task) }
            if error.pageIndex == nil { error.pageIndex = Int(task.pageIndex) }
            if error.file == nil, !task.file.isEmpty { error.file = task.file }
            return .failure(error)
        } catch {
            if let code = control.stopCode { return .failure(control.stopError(code, task: task)) }
            return .failure(OCRError(.internal, "engine failed: \(error)",
                                     file: task.file.isEmpty ? nil : task.file, page: Int(task.pageIndex)))
        }
    }
}
