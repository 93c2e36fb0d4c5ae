import OCRWire

extension PageDescriptor {
    /// The page a coordinator's `PageTask` carries.
    public init(_ task: PageTask) {
        self.init(file: task.file, filePage: Int(max(1, task.filePage)), pageIndex: Int(task.pageIndex),
                  content: task.content, format: task.format)
    }
}

extension EngineThread {
    /// Runs a coordinator's `PageTask` on this thread: the deadline is `remaining_ms` from now (the
    /// options' page timeout still applies if sooner), and the result carries the task's attempt and
    /// queue time. Failures are ``OCRError``s naming the file and page (`error.status` is the wire form).
    public func run(_ task: PageTask, cancellation: CancellationToken = CancellationToken()) async throws(OCRError) -> PageResult {
        let deadline: ContinuousClock.Instant? = task.remainingMs > 0
            ? .now.advanced(by: .milliseconds(Int64(clamping: task.remainingMs))) : nil
        var result = try await recognize(PageDescriptor(task), options: task.options ?? RecognitionOptions(),
                                         deadline: deadline, cancellation: cancellation)
        result.attempt = task.attempt
        if var timings = result.timings {
            timings.queueUs = task.queuedUs
            result.timings = timings
        }
        return result
    }
}
