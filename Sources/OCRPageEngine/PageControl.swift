import Foundation
import OCRBasics
import OCRWire
import Synchronization

/// The one cancellation type: what an engine needs to know while it works on one page, whether
/// it has been called off and when it is due. Tesseract polls it between words (through its
/// monitor's cancel callback); the worker's built-in engines poll or sleep on it. A flag the engine reads, thread-safe: the worker's socket thread cancels and
/// arms it, the engine thread polls. The worker link (pure) keeps its own account of when pages
/// were asked to stop; nothing here feeds it.
package final class PageControl: Sendable {
    private struct State: Sendable {
        var code: StatusCode?
        var hooks: [@Sendable () -> Void] = []
        /// When the task says the page is due (from its `remaining_ms`, counted from arrival).
        var taskDeadline: ContinuousClock.Instant?
        /// The worker's own limit on one page's running time (`ocr-worker --max-page-ms`),
        /// counted from `begin()`.
        var maxRunTime: Duration?
        var runDeadline: ContinuousClock.Instant?
    }
    /// `stopCode` set by `cancel`, the hooks to run when it is, and the deadlines.
    private let state: Mutex<State>
    /// Wakes engines waiting in `sleep(for:)` when the page is cancelled.
    private let condition: ConditionBox

    /// - Parameters:
    ///   - deadline: when the page is due; `nil` for no limit.
    ///   - maxRunTime: the longest the page may run once an engine thread begins it.
    package init(deadline: ContinuousClock.Instant? = nil, maxRunTime: Duration? = nil) {
        self.state = Mutex(State(taskDeadline: deadline, maxRunTime: maxRunTime))
        self.condition = ConditionBox()
    }

    /// Sets the deadlines before the page is queued (the worker runtime, from the link's
    /// `run` directive).
    package func arm(deadline: ContinuousClock.Instant?, maxRunTime: Duration?) {
        state.withLock { state in
            state.taskDeadline = deadline
            state.maxRunTime = maxRunTime
        }
    }

    /// When the page must be done: the task's deadline or, once begun, the end of the worker's
    /// running-time limit, whichever is sooner; `nil` for no limit.
    package var deadline: ContinuousClock.Instant? {
        let (task, run) = state.withLock { ($0.taskDeadline, $0.runDeadline) }
        guard let run else { return task }
        return min(task ?? run, run)
    }

    /// An engine thread starts the page now: the running-time limit starts counting.
    package func begin(at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard state.runDeadline == nil, let limit = state.maxRunTime else { return }
            state.runDeadline = now + limit
        }
    }

    /// Calls the page off. `code` is what the page's result will carry: CANCELLED when the
    /// coordinator asked, UNAVAILABLE when the worker gives the page back (connection lost,
    /// shutdown). The first call wins.
    package func cancel(_ code: StatusCode = .cancelled) {
        let hooks = state.withLock { state -> [@Sendable () -> Void] in
            guard state.code == nil else { return [] }
            state.code = code
            defer { state.hooks = [] }
            return state.hooks
        }
        // Hooks first, so an engine woken below finds its own mechanism already tripped.
        for hook in hooks { hook() }
        condition.lock.lock()
        condition.lock.broadcast()
        condition.lock.unlock()
    }

    /// Runs `hook` when the page is cancelled (at once if it already was), on the cancelling
    /// thread: for engines with a cancellation mechanism of their own (Tesseract's monitor).
    /// The deadline does not call it; pass `deadline` to such engines as well.
    package func onCancel(_ hook: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.code == nil else { return true }
            state.hooks.append(hook)
            return false
        }
        if runNow { hook() }
    }

    /// Why the page must stop: the code given to `cancel`, DEADLINE_EXCEEDED once the deadline has
    /// passed, or `nil` while it may go on.
    package var stopCode: StatusCode? {
        if let code = state.withLock({ $0.code }) { return code }
        if let deadline, ContinuousClock.now >= deadline { return .deadlineExceeded }
        return nil
    }

    /// `true` once the page was cancelled or its deadline passed: the engine should stop.
    package var isCancelled: Bool { stopCode != nil }

    /// Time left before the deadline (never negative), `nil` without a deadline.
    package var remaining: Duration? {
        deadline.map { max(.zero, $0 - ContinuousClock.now) }
    }

    /// Throws the `OCRError` for `stopCode` if the page must stop.
    package func checkpoint(_ task: PageTask) throws(OCRError) {
        if let code = stopCode { throw stopError(code, task: task) }
    }

    /// The error a page stopped with `code` reports, saying when it was the worker's own
    /// running-time limit that stopped it.
    package func stopError(_ code: StatusCode, task: PageTask) -> OCRError {
        let (run, taskDeadline, maxRunTime) = state.withLock { ($0.runDeadline, $0.taskDeadline, $0.maxRunTime) }
        if code == .deadlineExceeded, let run, let maxRunTime, run <= (taskDeadline ?? run) {
            return OCRError(.deadlineExceeded, "page ran longer than this worker's limit of \(maxRunTime) (ocr-worker --max-page-ms)",
                            file: task.file.isEmpty ? nil : task.file, page: Int(task.pageIndex))
        }
        return Self.stopError(code, task: task)
    }

    /// Waits `duration` without using the CPU, returning early (by throwing) when the page is
    /// cancelled or its deadline passes.
    package func sleep(for duration: Duration, _ task: PageTask) throws(OCRError) {
        try wait(until: ContinuousClock.now + duration, task)
    }

    /// Blocks until the page is cancelled or its deadline passes, then throws (a hanging engine).
    /// `limit` bounds the wait anyway, so a forgotten page cannot hold a thread forever.
    package func waitUntilStopped(_ task: PageTask, limit: Duration = .seconds(3600)) throws(OCRError) {
        try wait(until: ContinuousClock.now + limit, task)
        throw OCRError(.deadlineExceeded, "page was never cancelled within \(limit)", file: task.file, page: Int(task.pageIndex))
    }

    private func wait(until end: ContinuousClock.Instant, _ task: PageTask) throws(OCRError) {
        let wakeAt = deadline.map { min($0, end) } ?? end
        condition.lock.lock()
        while stopCode == nil {
            let left = wakeAt - ContinuousClock.now
            if left <= .zero { break }
            _ = condition.lock.wait(until: Date(timeIntervalSinceNow: left.seconds))
        }
        condition.lock.unlock()
        try checkpoint(task)
    }

    /// The error a stopped page reports (without the running-time limit; see the instance method).
    static func stopError(_ code: StatusCode, task: PageTask) -> OCRError {
        let why = switch code {
        case .cancelled: "page was cancelled"
        case .deadlineExceeded: "page deadline exceeded"
        case .unavailable: "worker gave the page back before finishing it"
        default: "page was stopped"
        }
        return OCRError(code, why, file: task.file.isEmpty ? nil : task.file, page: Int(task.pageIndex))
    }
}

/// An `NSCondition` held by a `Sendable` class.
private final class ConditionBox: @unchecked Sendable {
    // @unchecked: NSCondition is a thread-safe pthread mutex + condition variable.
    let lock = NSCondition()
}
