import Foundation
import OCRBasics
import Synchronization
import Testing

// Swift Testing runs every test, synchronous or not, as a task on the cooperative pool, which
// has one thread per core (two here). A test that blocks its thread (Tesseract in-process, a
// subprocess it waits for, a semaphore) holds one of them; two such tests at once starve every
// async test's continuations for as long as they run (CI once saw a 20 s wait resumed after
// 87 s). `@Suite(.blocking)` moves a suite's tests onto threads of their own, at most one per
// core at once, so their CPU use stays what it was and the pool stays free.

/// Runs each test of the suite (or the test) off the cooperative pool: on a thread per job,
/// admitted through a gate as wide as the machine has cores.
package struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(for test: Test, testCase: Test.Case?,
                              performing function: @Sendable () async throws -> Void) async throws {
        // The suite itself gets no scope of its own: only its test cases take a slot.
        guard testCase != nil else { return try await function() }
        await BlockingGate.shared.enter()
        defer { BlockingGate.shared.leave() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlockingTrait {
    /// The tests block their thread: run them on threads of their own, one per core at once.
    package static var blocking: Self { BlockingTrait() }
}

/// A task executor that runs each job on a new thread, so a job may block as long as it likes
/// without holding a thread anybody else is waiting for. Child tasks inherit it.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread {
            nameCurrentThread("test.blocking")
            job.runSynchronously(on: executor)
        }
    }
}

/// An asynchronous counting semaphore: waiting for a slot suspends, it never blocks a thread.
final class BlockingGate: Sendable {
    static let shared = BlockingGate(width: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(width: Int) { state = Mutex(State(free: width)) }

    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                if state.free > 0 { state.free -= 1; return true }
                state.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty { state.free += 1; return nil }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
