import OCRPageModel
import Foundation
import OCRPages
import OCRPageEngine
import OCRWire
import OCRBasics
import Synchronization

/// A dedicated OS thread that owns one ``Recognizer`` and runs jobs on it one at a time, so
/// Tesseract never blocks Swift's cooperative pool. The recognizer is created on the thread (its
/// OpenMP limit applies there) and never leaves it; callers hand in closures and get results back.
/// With `threads > 1`, several such threads (each with its own recognizer) take jobs from one
/// FIFO. It is a `DedicatedThreads`, as the worker's slots are.
package final class EngineThread: Sendable {
    private let thread: DedicatedThreads<Recognizer>

    /// Starts the thread(s). `name` shows in debuggers and `top -H`.
    package init(name: String = "ocr-engine", threads: Int = 1, configuration: EngineConfiguration = EngineConfiguration()) {
        // A Recognizer cannot fail to be made (a missing model fails its pages), so neither can this.
        thread = try! DedicatedThreads(count: threads, name: name) { _ in Recognizer(configuration: configuration) }
    }

    /// Runs `body` with the thread's recognizer and returns its result. Jobs run in FIFO order.
    /// Cancelling the calling task does not interrupt a running job: pass a ``PageControl``
    /// to the recognizer for that (``recognize(_:options:deadline:cancellation:)`` does).
    package func run<T: Sendable>(_ body: @escaping @Sendable (Recognizer) throws(OCRError) -> T) async throws(OCRError) -> T {
        let result: Result<T, OCRError> = await withCheckedContinuation { continuation in
            submit { recognizer in
                do throws(OCRError) { continuation.resume(returning: .success(try body(recognizer))) }
                catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }

    /// Recognises one page on this thread. Task cancellation reaches Tesseract's monitor.
    package func recognize(_ page: PageDescriptor, options: RecognitionOptions = RecognitionOptions(),
                          deadline: ContinuousClock.Instant? = nil, cancellation: PageControl = PageControl()) async throws(OCRError) -> PageResult {
        let result: Result<PageResult, OCRError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit { recognizer in
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
        thread.close(discardingQueued: false)
        _ = thread.join(timeout: .seconds(3600))
    }

    /// Queues `job`; after shutdown it runs at once with a recognizer that refuses every page
    /// (UNAVAILABLE). Internal: the PageTask entry point uses it.
    func submit(_ job: @escaping @Sendable (Recognizer) -> Void) {
        if !thread.submit(job) { job(Recognizer.stopped) }
    }
}

extension Recognizer {
    /// Stand-in handed to jobs submitted after shutdown; every call throws UNAVAILABLE.
    fileprivate static var stopped: Recognizer { Recognizer(configuration: EngineConfiguration(tessdataPath: "/nonexistent"), stopped: true) }
}
