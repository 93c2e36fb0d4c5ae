import OCRCoordinator
import OCRPages
import OCRWire

/// Drives a `Scheduler` with scripted events and an explicit clock, and keeps what it said.
struct SchedulerHarness {
    var scheduler: Scheduler
    var now: Duration = .zero
    /// Every directive returned so far.
    var log: [SchedulerDirective] = []

    init(_ configure: (inout SchedulerSettings) -> Void = { _ in }) {
        var settings = SchedulerSettings()
        // Scripted tests answer at arbitrary times: fixed windows unless a test asks for adaptation.
        settings.adaptivePrefetchLimit = nil
        configure(&settings)
        scheduler = Scheduler(settings: settings, startedAtUnixMs: 1_700_000_000_000)
    }

    @discardableResult
    mutating func send(_ event: SchedulerEvent) -> [SchedulerDirective] {
        let out = scheduler.handle(event, now: now)
        log += out
        return out
    }

    /// Moves the clock to `time` and ticks.
    @discardableResult
    mutating func tick(at time: Duration) -> [SchedulerDirective] {
        now = time
        return send(.tick)
    }

    @discardableResult
    mutating func ready(_ name: UInt8, slots: UInt32 = 1, uid: UInt64? = nil, languages: [String] = ["eng"],
                        engines: [String] = []) -> [SchedulerDirective] {
        send(.workerReady(worker(name), Ready.with {
            $0.workerUid = uid ?? UInt64(name) &* 0x9E37_79B9_7F4A_7C15 | 1
            $0.slots = slots
            $0.languages = languages
            $0.version = "test"
            $0.engines = engines
        }))
    }

    @discardableResult
    mutating func heartbeat(_ name: UInt8) -> [SchedulerDirective] { send(.workerHeartbeat(worker(name))) }

    @discardableResult
    mutating func submit(_ id: String, pages: Int, priority: Int32 = 0, key: String = "", owner: String = "",
                         timeout: Duration? = nil, maxAttempts: UInt32 = 0,
                         options: RecognitionOptions? = nil, digest: UInt64 = 0) -> [SchedulerDirective] {
        send(.submitJob(JobSubmission(request: 1, jobID: id, jobKey: key, owner: owner, pages: Self.pages(pages, file: "\(id).tiff"),
                                      options: options, priority: priority, timeout: timeout,
                                      maxAttempts: maxAttempts, requestDigest: digest)))
    }

    /// A job of single images of `bytes` bytes each: their sizes alone set the dispatch order.
    @discardableResult
    mutating func submit(_ id: String, pageBytes bytes: [Int]) -> [SchedulerDirective] {
        let pages = bytes.enumerated().map { i, count in
            PageDescriptor(file: "\(id)-\(i).png", pageIndex: i, content: [UInt8](repeating: 0, count: count), format: .png)
        }
        return send(.submitJob(JobSubmission(request: 1, jobID: id, pages: pages)))
    }

    @discardableResult
    mutating func succeed(_ name: UInt8, _ task: PageTask, text: String = "ok") -> [SchedulerDirective] {
        send(.taskResult(worker(name), TaskResult.with {
            $0.jobId = task.jobId
            $0.pageIndex = task.pageIndex
            $0.attempt = task.attempt
            $0.outcome = .result(PageResult.with { $0.text = text; $0.pageIndex = task.pageIndex })
        }))
    }

    @discardableResult
    mutating func fail(_ name: UInt8, _ task: PageTask, _ code: StatusCode, _ message: String = "boom") -> [SchedulerDirective] {
        send(.taskResult(worker(name), TaskResult.with {
            $0.jobId = task.jobId
            $0.pageIndex = task.pageIndex
            $0.attempt = task.attempt
            $0.outcome = .error(Status.with { $0.code = code; $0.message = message })
        }))
    }

    func worker(_ name: UInt8) -> WorkerIdentity { WorkerIdentity([0, name]) }

    static func pages(_ count: Int, file: String) -> [PageDescriptor] {
        let content: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        return (0..<count).map { PageDescriptor(file: file, filePage: $0 + 1, content: content, format: .tiff) }
    }
}

// MARK: - Reading directives

extension Array where Element == SchedulerDirective {
    var tasks: [(to: WorkerIdentity, task: PageTask)] {
        compactMap { if case .sendTask(let to, let task) = $0 { (to, task) } else { nil } }
    }
    var cancels: [(to: WorkerIdentity, cancel: CancelTask)] {
        compactMap { if case .sendCancel(let to, let c) = $0 { (to, c) } else { nil } }
    }
    var disconnects: [WorkerIdentity] {
        compactMap { if case .sendDisconnect(let to, _) = $0 { to } else { nil } }
    }
    var heartbeats: [WorkerIdentity] {
        compactMap { if case .sendHeartbeat(let to, _) = $0 { to } else { nil } }
    }
    var welcomes: [(to: WorkerIdentity, welcome: Welcome)] {
        compactMap { if case .sendWelcome(let to, let w) = $0 { (to, w) } else { nil } }
    }
    var events: [JobEvent] {
        compactMap { if case .emit(let e) = $0 { e } else { nil } }
    }
    var completed: [PageResult] { events.compactMap { $0.pageCompleted?.result } }
    var failed: [PageFailed] { events.compactMap { $0.pageFailed } }
    var finished: [JobFinished] { events.compactMap { $0.finished } }
    var progress: [JobProgress] { events.compactMap { $0.progress } }
    var submitReplies: [Result<SubmitJobResponse, OCRError>] {
        compactMap { if case .submitReply(_, let r) = $0 { r } else { nil } }
    }
    var cancelReplies: [Result<Job, OCRError>] {
        compactMap { if case .cancelReply(_, let r) = $0 { r } else { nil } }
    }
    var ticks: [Duration] {
        compactMap { if case .scheduleTick(let at) = $0 { at } else { nil } }
    }
    /// "job:page" of each task, for compact expectations.
    var taskLabels: [String] { tasks.map { "\($0.task.jobId):\($0.task.pageIndex)" } }
}

extension Result {
    var value: Success? { if case .success(let v) = self { v } else { nil } }
    var error: Failure? { if case .failure(let e) = self { e } else { nil } }
}
