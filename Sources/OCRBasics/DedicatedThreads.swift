import Foundation
import Synchronization

/// `count` dedicated OS threads, never Swift's cooperative pool, each owning one `Engine` that
/// it makes itself (so a Tesseract handle, which is neither thread-safe nor `Sendable`, is made,
/// used and freed on one thread) and taking jobs from one shared FIFO. The worker's slots and
/// OCREngine's `EngineThread` are both this.
package final class DedicatedThreads<Engine>: Sendable {
    /// A job runs on one of the threads with that thread's engine.
    package typealias Job = @Sendable (Engine) -> Void

    private struct State: Sendable {
        var jobs = Deque<UncheckedJob>()
        var closed = false
        var discardQueued = false
    }
    /// `Job` closures are `Sendable`; the wrapper only lets the generic `Engine` parameter through.
    private struct UncheckedJob: @unchecked Sendable { let run: Job }

    private let state = Mutex(State())
    private let wake = NSCondition()
    private let exited = DispatchGroup()

    /// Starts the threads and waits until each has made its engine with `make(index)` (on that
    /// thread). Throws the first error of `make`; the threads that did start then end.
    /// - Parameter stackSize: bytes of stack per thread (Tesseract recurses in layout analysis).
    package init(count: Int, name: String, stackSize: Int = 8 << 20,
                 make: @escaping @Sendable (Int) throws -> Engine) throws {
        let made = DispatchGroup()
        let failure = Mutex<(any Error)?>(nil)
        for index in 0..<max(1, count) {
            made.enter()
            exited.enter()
            let threadName = count == 1 ? name : "\(name).\(index)"
            let thread = Thread { [self] in
                defer { exited.leave() }
                nameCurrentThread(threadName)
                let engine: Engine
                do {
                    engine = try make(index)
                    made.leave()
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    made.leave()
                    return
                }
                while let job = next() { job.run(engine) }
                // The engine is released here, on its own thread.
            }
            thread.name = threadName
            thread.stackSize = stackSize
            thread.start()
        }
        made.wait()
        if let error = failure.withLock({ $0 }) {
            close(discardingQueued: true)
            throw error
        }
    }

    /// Queues `job`; `false` (and the job is not run) once the threads are closed.
    @discardableResult
    package func submit(_ job: @escaping Job) -> Bool {
        wake.lock()
        defer { wake.unlock() }
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.jobs.append(UncheckedJob(run: job))
            return true
        }
        if accepted { wake.signal() }
        return accepted
    }

    /// Takes no more jobs. The threads finish the job they run and then the queued ones, or drop
    /// those when `discardingQueued`, and end.
    package func close(discardingQueued: Bool) {
        wake.lock()
        state.withLock { state in
            state.closed = true
            state.discardQueued = state.discardQueued || discardingQueued
        }
        wake.broadcast()
        wake.unlock()
    }

    /// Waits for the threads to end (after `close`); `false` when some are still inside a job
    /// after `timeout` (an engine that ignores cancellation), which is then left behind.
    package func join(timeout: Duration) -> Bool {
        exited.wait(timeout: .now() + timeout.seconds) == .success
    }

    /// The next job, waiting for one; nil when closed and nothing (more) is to run.
    private func next() -> UncheckedJob? {
        wake.lock()
        defer { wake.unlock() }
        while true {
            let next = state.withLock { state -> UncheckedJob?? in
                if state.closed, state.discardQueued || state.jobs.isEmpty { return .some(nil) }
                return state.jobs.popFirst().map { .some($0) }
            }
            if let next { return next }
            wake.wait()
        }
    }
}

/// Names the calling thread for `ps -L`, `top -H` and debuggers. A new Linux thread inherits its
/// creator's name, and Foundation's `Thread.name` does not reliably reach the OS; glibc's
/// `pthread_setname_np` is not visible to Swift, so write the name where the kernel keeps it
/// (at most 15 bytes).
package func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
