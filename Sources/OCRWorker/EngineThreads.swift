import OCRBasics
import OCRZeroMQ
import Foundation
import OCRWire

/// One task handed to the engine threads.
struct EngineWork: Sendable {
    var task: PageTask
    var key: WorkerLink.TaskKey
    /// The connection the task arrived on (its results are dropped if that connection ended).
    var uid: UInt64
    var control: PageControl
    var receivedAt: ContinuousClock.Instant
}

/// The FIFO the engine threads take work from: blocking `take`, `close` wakes every taker.
final class EngineQueue: Sendable {
    private struct State: Sendable {
        var items = Deque<EngineWork>()
        var closed = false
    }
    private let condition = NSCondition()
    private let state = Locked(State())

    func push(_ work: EngineWork) {
        condition.lock()
        state.withLock { $0.items.append(work) }
        condition.signal()
        condition.unlock()
    }

    /// The next task, or `nil` once the queue is closed (what is still queued is dropped: its
    /// tasks were already given back).
    func take() -> EngineWork? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let next = state.withLock { state -> EngineWork?? in
                if state.closed { return .some(nil) }
                return state.items.popFirst().map { .some($0) }
            }
            if let next { return next }
            condition.wait()
        }
    }

    func close() {
        condition.lock()
        state.withLock { $0.closed = true }
        condition.broadcast()
        condition.unlock()
    }
}

/// The dedicated engine threads (one per slot; never Swift's cooperative pool): each makes its
/// engine on its own thread, then runs tasks from the queue one at a time.
final class EngineThreads: Sendable {
    private let exited = DispatchGroup()

    /// Starts `slots` threads and waits until every engine has been made. Throws the first
    /// factory error (the threads that did start then stop when `queue` closes).
    /// `began` is called on the engine thread as it begins a task, `finished` when it is done.
    init(slots: Int, factory: PageEngineFactory, queue: EngineQueue,
         began: @escaping @Sendable (EngineWork) -> Void = { _ in },
         finished: @escaping @Sendable (EngineWork, Result<PageResult, OCRError>) -> Void) throws {
        let made = DispatchGroup()
        let failure = Locked<(any Error)?>(nil)
        for slot in 0..<slots {
            made.enter()
            exited.enter()
            let name = "ocr.engine.\(slot)"
            let thread = Thread { [exited] in
                defer { exited.leave() }
                nameCurrentThread(name)
                let engine: any PageEngine
                do {
                    engine = try factory.make(slot)
                    made.leave()
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    made.leave()
                    return
                }
                while let work = queue.take() {
                    finished(work, EngineThreads.execute(work, on: engine, began: began))
                }
            }
            thread.name = name
            thread.start()
        }
        made.wait()
        if let error = failure.withLock({ $0 }) {
            queue.close()
            throw error
        }
    }

    /// Waits for the threads to end (after the queue closed); `false` if some are still inside
    /// an engine that ignores cancellation after `timeout`.
    func join(timeout: Duration) -> Bool {
        exited.wait(timeout: .now() + timeout.seconds) == .success
    }

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
            page.workerUid = work.uid
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

/// Names the calling thread for `ps -L`, `top -H` and debuggers. A new Linux thread inherits its
/// creator's name, and Foundation's `Thread.name` does not reliably reach the OS; glibc's
/// `pthread_setname_np` is not visible to Swift, so write the name where the kernel keeps it
/// (at most 15 bytes).
func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
