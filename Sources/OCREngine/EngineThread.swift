import Foundation
import OCRPages
import OCRWire
import Synchronization

/// A dedicated OS thread that owns one ``Recognizer`` and runs jobs on it one at a time, so
/// Tesseract never blocks Swift's cooperative pool. The recognizer is created on the thread (its
/// OpenMP limit applies there) and never leaves it; callers hand in closures and get results back.
package final class EngineThread: Sendable {
    private struct State {
        var jobs: [@Sendable (Recognizer) -> Void] = []
        var stopping = false
    }
    /// What the thread and its callers share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let wakeup = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
    }
    private let shared = Shared()

    /// Starts the thread. `name` shows in debuggers and `top -H`.
    package init(name: String = "ocr-engine", configuration: EngineConfiguration = EngineConfiguration()) {
        let thread = Thread { [shared] in
            Self.serve(shared, configuration)  // The recognizer is freed when this returns, on this thread.
            shared.finished.signal()
        }
        thread.name = name
        thread.stackSize = 8 << 20  // Tesseract recurses in layout analysis; give it room.
        thread.start()
    }

    /// The thread's loop: make the recognizer, run jobs until shutdown.
    private static func serve(_ shared: Shared, _ configuration: EngineConfiguration) {
        let recognizer = Recognizer(configuration: configuration)
        while true {
            shared.wakeup.wait()
            let job: (@Sendable (Recognizer) -> Void)? = shared.state.withLock { s in
                s.jobs.isEmpty ? nil : s.jobs.removeFirst()
            }
            if let job { job(recognizer); continue }
            if shared.state.withLock({ $0.stopping }) { return }
        }
    }

    /// Runs `body` with the thread's recognizer and returns its result. Jobs run in FIFO order.
    /// Cancelling the calling task does not interrupt a running job: pass a ``CancellationToken``
    /// to the recognizer for that (``recognize(_:options:deadline:cancellation:)`` does).
    package func run<T: Sendable>(_ body: @escaping @Sendable (Recognizer) throws(OCRError) -> T) async throws(OCRError) -> T {
        let result: Result<T, OCRError> = await withCheckedContinuation { continuation in
            enqueue { recognizer in
                do throws(OCRError) { continuation.resume(returning: .success(try body(recognizer))) }
                catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }

    /// Recognises one page on this thread. Task cancellation reaches Tesseract's monitor.
    package func recognize(_ page: PageDescriptor, options: RecognitionOptions = RecognitionOptions(),
                          deadline: ContinuousClock.Instant? = nil, cancellation: CancellationToken = CancellationToken()) async throws(OCRError) -> PageResult {
        let result: Result<PageResult, OCRError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                enqueue { recognizer in
                    do throws(OCRError) {
                        continuation.resume(returning: .success(try recognizer.recognize(page, options: options, deadline: deadline, cancellation: cancellation)))
                    } catch { continuation.resume(returning: .failure(error)) }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// Finishes queued jobs, then frees the recognizer and ends the thread. Blocks until done.
    package func shutdown() {
        let already = shared.state.withLock { s in
            defer { s.stopping = true }
            return s.stopping
        }
        if already { return }
        shared.wakeup.signal()
        shared.finished.wait()
    }

    /// Queues `job` (internal: the PageTask entry point uses it).
    func submit(_ job: @escaping @Sendable (Recognizer) -> Void) { enqueue(job) }

    private func enqueue(_ job: @escaping @Sendable (Recognizer) -> Void) {
        let accepted = shared.state.withLock { s in
            if s.stopping { return false }
            s.jobs.append(job)
            return true
        }
        if accepted { shared.wakeup.signal() } else { job(Recognizer.stopped) }
    }
}

extension Recognizer {
    /// Stand-in handed to jobs submitted after shutdown; every call throws UNAVAILABLE.
    fileprivate static var stopped: Recognizer { Recognizer(configuration: EngineConfiguration(tessdataPath: "/nonexistent"), stopped: true) }
}

/// `slots` engine threads (default: one per core) with least-busy dispatch.
package final class EnginePool: Sendable {
    package let threads: [EngineThread]
    private let busy: Mutex<[Int]>

    package init(slots: Int = ProcessInfo.processInfo.activeProcessorCount, configuration: EngineConfiguration = EngineConfiguration()) {
        threads = (0..<max(1, slots)).map { EngineThread(name: "ocr-engine-\($0)", configuration: configuration) }
        busy = Mutex(Array(repeating: 0, count: max(1, slots)))
    }

    /// Recognises `page` on the least busy thread.
    package func recognize(_ page: PageDescriptor, options: RecognitionOptions = RecognitionOptions(),
                          deadline: ContinuousClock.Instant? = nil) async throws(OCRError) -> PageResult {
        let i = busy.withLock { b in
            let i = b.indices.min { b[$0] < b[$1] }!
            b[i] += 1
            return i
        }
        defer { busy.withLock { $0[i] -= 1 } }
        return try await threads[i].recognize(page, options: options, deadline: deadline)
    }

    package func shutdown() { threads.forEach { $0.shutdown() } }
}
