import OCRPageModel
import OCRPages
import OCRPageEngine
import OCRWire

extension PageDescriptor {
    /// The page a coordinator's `PageTask` carries.
    package init(_ task: PageTask) {
        self.init(file: task.file, filePage: Int(max(1, task.filePage)), pageIndex: Int(task.pageIndex),
                  content: task.content, format: task.format)
    }
}

extension Recognizer {
    /// Runs a coordinator's `PageTask` synchronously on the calling (engine) thread: the deadline is
    /// `remaining_ms` from now unless `deadline` is given (the options' page timeout still applies if
    /// sooner), and the result carries the task's attempt and queue time. Failures are
    /// ``OCRError``s naming the file and page (`error.status` is the wire form).
    package func run(_ task: PageTask, deadline: ContinuousClock.Instant? = nil,
                    cancellation: PageControl? = nil) throws(OCRError) -> PageResult {
        let due = deadline ?? (task.remainingMs > 0 ? .now.advanced(by: .milliseconds(Int64(clamping: task.remainingMs))) : nil)
        var result = try recognize(PageDescriptor(task), options: task.options ?? RecognitionOptions(),
                                   deadline: due, cancellation: cancellation)
        result.attempt = task.attempt
        if var timings = result.timings {
            timings.queueUs = task.queuedUs
            result.timings = timings
        }
        return result
    }
}

extension EngineThread {
    /// Runs a coordinator's `PageTask` on this thread (see ``Recognizer/run(_:deadline:cancellation:)``).
    /// Cancelling the calling task cancels the page.
    package func run(_ task: PageTask, cancellation: PageControl = PageControl()) async throws(OCRError) -> PageResult {
        let due: ContinuousClock.Instant? = task.remainingMs > 0 ? .now.advanced(by: .milliseconds(Int64(clamping: task.remainingMs))) : nil
        let result: Result<PageResult, OCRError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit { recognizer in
                    do throws(OCRError) {
                        continuation.resume(returning: .success(try recognizer.run(task, deadline: due, cancellation: cancellation)))
                    } catch { continuation.resume(returning: .failure(error)) }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
