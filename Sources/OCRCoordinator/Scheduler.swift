import OCRAPIJSON
import OCRBasics
import OCRPages
import OCRWire

/// The coordinator's scheduler: a pure state machine in the style of swift-cluster-membership's
/// SWIM instance. A shell feeds it events with the current time (time since the coordinator
/// started, from a monotonic clock) and executes the directives it returns, in order. It does
/// no I/O, reads no clock and draws no random numbers, so tests drive it with scripted events.
///
/// Rules (`DESIGN.md` sections 3 and 5):
/// - **Credits**: a worker never holds more than `slots + prefetch` tasks; a task beyond its
///   slots (prefetched) only while more pages wait than the workers' windows hold together,
///   so the last pages go to whichever worker frees a slot first.
/// - **LRU**: the worker that got a task least recently gets the next one (one task per
///   credit, so work spreads over every worker before any gets a second).
/// - **Fairness**: higher job priority first; at equal priority the principals (job owners)
///   take turns page by page, and each principal's jobs take turns within its share.
/// - **Languages**: a page goes only to a worker that announced every language its job needs
///   (`eng` when the options name none; a worker that announced none takes anything). A job
///   no free worker can take keeps its turn while later jobs go ahead. When no connected worker
///   has the languages at all, the page goes to any worker, whose engine fails it at once with
///   FAILED_PRECONDITION naming what is installed: a clear error rather than a job that hangs.
/// - **Liveness**: a worker silent for `liveness x interval` is dead; its pages are requeued with
///   `attempt + 1`. A page that fails `max_attempts` times is FAILED; the job ends PARTIAL (or
///   FAILED when no page succeeded) with every other page intact.
/// - Non-retryable errors (`SchedulerSettings.isRetryable`) fail the page at once.
/// - A result is recorded once per (job, page); later ones, and those of cancelled or expired
///   jobs, are dropped. Results from an unknown identity get `Disconnect`.
/// - Job deadline -> `remaining_ms` in each task, EXPIRED when it passes; cancel and expiry send
///   `CancelTask` to the workers running the job's pages.
///
/// Cost per event is O(1) amortised (hash lookups, ring buffers) plus O(log n) for deadlines;
/// only ticks visit every worker (heartbeats are per worker anyway), and only a job's own
/// cancel/expiry visits its pages.
package struct Scheduler: Sendable {
    package let settings: SchedulerSettings
    /// Jobs and pages. Read it freely; it changes only through the scheduler.
    package private(set) var store = JobStore()

    private var workers = WorkerRegistry()
    private var runQueue = RunQueue()
    private var inRunQueue: Set<String> = []
    private var deadlines = Heap<JobDeadline>()
    private var progressDirty: Set<String> = []
    private var nextHeartbeatAt: Duration = .zero
    private var nextProgressAt: Duration = .zero
    private var scheduledTick: Duration? = nil
    private var heartbeatSequence: UInt32 = 0
    /// Languages each queued job needs (filled on first dispatch, dropped when the job ends).
    private var jobLanguages: [String: [String]] = [:]
    private var jobEngines: [String: String] = [:]
    private var throughput: ThroughputMeter
    private let startedAtUnixMs: Int64

    /// - Parameter startedAtUnixMs: wall-clock time of `now == .zero`, for the `*_unix_ms`
    ///   fields (the scheduler itself never reads a clock).
    package init(settings: SchedulerSettings = SchedulerSettings(), startedAtUnixMs: Int64 = 0) {
        self.settings = settings
        self.startedAtUnixMs = startedAtUnixMs
        self.throughput = ThroughputMeter(window: settings.throughputWindow)
    }

    // MARK: - Events

    /// Handles one event at time `now` (since the coordinator started) and returns what the shell
    /// must do, in order.
    package mutating func handle(_ event: SchedulerEvent, now: Duration) -> [SchedulerDirective] {
        var out: [SchedulerDirective] = []
        switch event {
        case .workerReady(let identity, let ready, let peerKey):
            workerReady(identity, ready, peerKey: peerKey, now, &out)
        case .workerHeartbeat(let identity):
            if let serial = workers.serial(of: identity) {
                workers[serial].lastSeen = now
            } else {
                out.append(.sendDisconnect(identity, reason: "unknown worker: send Ready first"))
            }
        case .workerDisconnected(let identity):
            if let serial = workers.serial(of: identity) {
                removeWorker(serial, failure: nil, now, &out)
            }
        case .workerLost(let identity, let reason):
            if let serial = workers.serial(of: identity) {
                let uid = workers[serial].uid.paddedHex
                removeWorker(serial, failure: OCRError(.unavailable, "worker \(uid) was lost while it held the page: \(reason)").status, now, &out)
            }
        case .workerProtocolError(let identity, let reason):
            if let serial = workers.serial(of: identity) {
                removeWorker(serial, failure: nil, now, &out)
            }
            out.append(.sendDisconnect(identity, reason: reason))
        case .taskResult(let identity, let result):
            taskResult(identity, result, now, &out)
        case .submitJob(let submission):
            submit(submission, now, &out)
        case .cancelJob(let request, let jobID, let access):
            out.append(.cancelReply(request: request, store.allows(access, jobID)
                ? cancel(jobID, now, &out) : .failure(OCRError(.notFound, "no job \(jobID)"))))
        case .deleteJob(let request, let jobID, let access):
            out.append(.deleteReply(request: request, store.allows(access, jobID)
                ? delete(jobID, &out) : .failure(OCRError(.notFound, "no job \(jobID)"))))
        case .tick:
            tick(now, &out)
        case .evictFinished(let count):
            for _ in 0..<max(0, count) {
                guard let oldest = store.oldestFinished else { break }
                commit(.evicted(jobID: oldest), &out)
            }
        }
        dispatch(now, &out)
        reschedule(now, &out)
        return out
    }

    // MARK: - Workers

    private mutating func workerReady(_ identity: WorkerIdentity, _ ready: Ready, peerKey: String, _ now: Duration,
                                      _ out: inout [SchedulerDirective]) {
        if let serial = workers.serial(of: identity) {
            // MDP: a second Ready on a live connection is a protocol error.
            removeWorker(serial, failure: nil, now, &out)
            out.append(.sendDisconnect(identity, reason: "duplicate Ready"))
            return
        }
        guard ready.workerUid != 0, ready.slots > 0 else {
            out.append(.sendDisconnect(identity, reason: "invalid Ready: worker_uid and slots must be non-zero"))
            return
        }
        if let old = workers.serial(ofUID: ready.workerUid) {
            // The same worker on a fresh socket (proved by its CURVE key) replaces its old
            // registration; anyone else announcing a connected uid is refused and nothing is
            // evicted (without CURVE a reconnecting worker waits for the old one to expire).
            guard !peerKey.isEmpty, workers[old].peerKey == peerKey else {
                out.append(.sendDisconnect(identity, reason: "worker_uid \(ready.workerUid.paddedHex) is already connected"))
                return
            }
            removeWorker(old, failure: nil, now, &out)
        }
        let slots = min(Int(ready.slots), settings.maxWorkerSlots)
        // The link's interval is ours, whatever the worker wished: a peer must not choose how
        // long it may stay silent while holding pages. Welcome tells the worker; both sides
        // judge each other by it.
        let interval = settings.heartbeatInterval
        _ = workers.add { serial in
            var worker = WorkerRecord(serial: serial, identity: identity, uid: ready.workerUid, slots: slots,
                                      baseCapacity: slots + max(0, settings.prefetch), languages: ready.languages,
                                      version: ready.version, hostname: ready.hostname,
                                      expiry: interval * settings.liveness, lastSeen: now)
            if ready.maxTasks > 0 { worker.maxTasks = Int(ready.maxTasks) }
            if !ready.engines.isEmpty { worker.engines = Array(Set(ready.engines)).sorted() }
            worker.peerKey = peerKey
            worker.labels = ready.labels
            worker.queued = true
            return worker
        }
        out.append(.sendWelcome(identity, Welcome.with {
            $0.heartbeatIntervalMs = UInt32(clamping: interval.milliseconds)
            $0.liveness = UInt32(clamping: settings.liveness)
            $0.slots = UInt32(clamping: slots)
        }))
    }

    /// Forgets a worker and requeues what it held. With `failure`, each held attempt counts
    /// against its page's `max_attempts`.
    private mutating func removeWorker(_ serial: Int, failure: Status?, _ now: Duration,
                                       _ out: inout [SchedulerDirective]) {
        guard let worker = workers.remove(serial) else { return }
        // Sorted so the same events always give the same directives (hash order varies per process).
        for (key, attempt) in worker.held.sorted(by: { ($0.key.jobID, $0.key.page) < ($1.key.jobID, $1.key.page) }) {
            guard let page = store.page(key.jobID, key.page), page.state == .dispatched,
                  page.workerUID == worker.uid, page.attempt == attempt else { continue }
            if let failure {
                retryOrFail(key.jobID, key.page, failure, now, &out)
            } else {
                commit(.requeued(jobID: key.jobID, page: key.page, failure: nil, at: now), &out)
                enqueueJob(key.jobID)
            }
        }
    }

    private mutating func tick(_ now: Duration, _ out: inout [SchedulerDirective]) {
        if now >= nextHeartbeatAt {
            // By registration order, so directives are deterministic.
            let serials = workers.serials
            let dead = serials.filter { now - workers[$0].lastSeen > workers[$0].expiry }
            for serial in dead {
                let identity = workers[serial].identity
                let lost = OCRError(.unavailable, "worker \(workers[serial].uid.paddedHex) stopped heartbeating while it held the page").status
                removeWorker(serial, failure: lost, now, &out)
                out.append(.sendDisconnect(identity, reason: "heartbeat expired"))
            }
            heartbeatSequence &+= 1
            let heartbeat = Heartbeat.with { $0.sequence = heartbeatSequence }
            for serial in serials { if let worker = workers.record(serial) { out.append(.sendHeartbeat(worker.identity, heartbeat)) } }
            nextHeartbeatAt = now + settings.heartbeatInterval
        }
        while let (deadline, jobID) = deadlines.popMin(if: { $0.at <= now }).map({ ($0.at, $0.jobID) }) {
            guard let job = store.summary(jobID), !job.isFinal, job.deadline == deadline else { continue }
            finish(jobID, .expired, OCRError(.deadlineExceeded, "job timeout passed before every page finished").status, now, &out)
        }
        if let retention = settings.retention {
            while let finishedAt = store.oldestFinishedAt, finishedAt <= now - retention, let oldest = store.oldestFinished {
                commit(.evicted(jobID: oldest), &out)
            }
        }
        if now >= nextProgressAt, !progressDirty.isEmpty {
            for jobID in progressDirty.sorted() { emitProgress(jobID, now, &out) }
            progressDirty.removeAll(keepingCapacity: true)
            nextProgressAt = now + settings.progressInterval
        }
    }

    // MARK: - Results

    /// A worker's answer to a task. Only the connection holding that attempt of that page may
    /// answer it, once: anything else (another worker's task, an unknown job, another attempt,
    /// a second answer) is a protocol error that gets Disconnect and is never recorded.
    private mutating func taskResult(_ identity: WorkerIdentity, _ result: TaskResult, _ now: Duration,
                                     _ out: inout [SchedulerDirective]) {
        guard let serial = workers.serial(of: identity) else {
            // Presumed dead (or never registered): its result is not recorded.
            out.append(.sendDisconnect(identity, reason: "unknown worker: send Ready first"))
            return
        }
        let page = Int(result.pageIndex)
        let key = TaskKey(jobID: result.jobId, page: page)
        guard workers[serial].held[key] == result.attempt else {
            removeWorker(serial, failure: nil, now, &out)
            out.append(.sendDisconnect(identity, reason: "TaskResult for job \(result.jobId) page \(page) attempt \(result.attempt), "
                                       + "which this worker does not hold"))
            return
        }
        let settings = self.settings
        let (uid, creditBack): (UInt64, Bool) = withInout(&workers[serial]) { worker in
            worker.lastSeen = now
            worker.held[key] = nil
            Self.adaptWindow(&worker, now, settings)
            let creditBack = !worker.queued
            worker.queued = true
            return (worker.uid, creditBack)
        }
        // A credit came back: the worker is now the most recently used one with credit.
        if creditBack { workers.offered.append(serial) }
        // A page that became final meanwhile (its job cancelled, expired or evicted) is not
        // touched; holding the task means the page is dispatched to this very attempt otherwise.
        guard let record = store.page(result.jobId, page), !record.state.isFinal,
              record.state == .dispatched, record.workerUID == uid, record.attempt == result.attempt else { return }
        switch result.outcome {
        case .result(var pageResult)?:
            pageResult.workerUid = uid
            pageResult.attempt = result.attempt
            pageResult.pageIndex = result.pageIndex
            commit(.completed(jobID: result.jobId, page: page, result: pageResult, at: now), &out)
            workers[serial].pagesDone += 1
            throughput.record(at: now)
            pageSettled(result.jobId, now, &out)

        case .error(var status)?:
            status.file = store.fileName(result.jobId, page)
            status.pageIndex = Int32(page)
            if Self.isGiveBack(status.code) {
                // The worker cannot take pages now (shutting down, full): no fault of the page,
                // and no more tasks for this connection.
                workers[serial].givingBack = true
                commit(.requeued(jobID: result.jobId, page: page, failure: nil, at: now), &out)
                enqueueJob(result.jobId)
            } else if !SchedulerSettings.isRetryable(status.code) {
                commit(.failed(jobID: result.jobId, page: page, status: status, at: now), &out)
                pageSettled(result.jobId, now, &out)
            } else {
                retryOrFail(result.jobId, page, status, now, &out)
            }

        case nil:
            let status = OCRError(.internal, "worker sent a TaskResult with neither result nor error").status
            retryOrFail(result.jobId, page, status, now, &out)
        }
    }

    /// A worker's UNAVAILABLE or CANCELLED (for a page still running, so one the coordinator
    /// did not cancel) gives the page back.
    private static func isGiveBack(_ code: StatusCode) -> Bool { code == .unavailable || code == .cancelled }

    /// A DISPATCHED page's attempt failed: requeue it, or fail it once its attempts are used up.
    private mutating func retryOrFail(_ jobID: String, _ page: Int, _ status: Status, _ now: Duration,
                                      _ out: inout [SchedulerDirective]) {
        guard let job = store.summary(jobID), let record = store.page(jobID, page) else { return }
        var status = status
        status.file = store.fileName(jobID, page)
        status.pageIndex = Int32(page)
        if record.failures + 1 >= job.maxAttempts {
            let filePage = store.read(jobID) { $0.descriptors[page].filePage } ?? 0
            status.message = "page \(page + 1) (\(status.file) page \(filePage)) failed after \(record.attempt) attempts: \(status.message)"
            commit(.failed(jobID: jobID, page: page, status: status, at: now), &out)
            pageSettled(jobID, now, &out)
        } else {
            commit(.requeued(jobID: jobID, page: page, failure: status, at: now), &out)
            enqueueJob(jobID)
            progressDirty.insert(jobID)
        }
    }

    /// A page became final: finish the job when it was the last one.
    private mutating func pageSettled(_ jobID: String, _ now: Duration, _ out: inout [SchedulerDirective]) {
        guard let job = store.summary(jobID) else { return }
        guard job.pending + job.running == 0 else {
            progressDirty.insert(jobID)
            return
        }
        if job.failed == 0 {
            finish(jobID, .succeeded, Status.with { $0.code = .ok; $0.pageIndex = -1 }, now, &out)
        } else {
            // The first failed page's code, with the count.
            let first = store.firstFailure(jobID) ?? Status()
            var status = first
            status.message = "\(job.failed) of \(job.pageCount) pages failed; first: \(first.message)"
            finish(jobID, job.done == 0 ? .failed : .partial, status, now, &out)
        }
    }

    // MARK: - Jobs

    private mutating func submit(_ s: JobSubmission, _ now: Duration, _ out: inout [SchedulerDirective]) {
        if let existing = store.jobID(forKey: s.spec.jobKey, owner: s.spec.owner), let job = store.summary(existing) {
            if s.spec.requestDigest != 0, job.requestDigest != 0, s.spec.requestDigest != job.requestDigest {
                out.append(.submitReply(request: s.request, .failure(OCRError(.alreadyExists,
                    "job_key \"\(s.spec.jobKey)\" was already used for job \(existing) with a different request"))))
            } else {
                out.append(.submitReply(request: s.request, .success(SubmitJobResponse.with {
                    $0.jobId = existing; $0.pageCount = UInt32(job.pageCount); $0.existing = true
                })))
            }
            return
        }
        if let error = validate(s) {
            out.append(.submitReply(request: s.request, .failure(error)))
            return
        }
        var spec = s.spec
        let maxAttempts = spec.maxAttempts == 0 ? settings.defaultMaxAttempts : min(spec.maxAttempts, settings.maxAttemptsLimit)
        spec.maxAttempts = max(1, maxAttempts)
        let deadline = s.timeout.flatMap { $0 > .zero ? now + $0 : nil }
        commit(.accepted(AcceptedJob(spec: spec, pages: s.pages, deadline: deadline, createdAt: now, createdUnixMs: unixMs(now))), &out)
        if let deadline { deadlines.insert(JobDeadline(at: deadline, jobID: s.spec.jobID)) }
        enqueueJob(s.spec.jobID)
        out.append(.submitReply(request: s.request, .success(SubmitJobResponse.with {
            $0.jobId = s.spec.jobID; $0.pageCount = UInt32(s.pages.count)
        })))
    }

    private func validate(_ s: JobSubmission) -> OCRError? {
        if s.spec.jobID.isEmpty { return OCRError(.internal, "no job id assigned") }
        if store.contains(s.spec.jobID) { return OCRError(.alreadyExists, "job id \(s.spec.jobID) is in use") }
        if s.pages.isEmpty { return OCRError(.invalidArgument, "the job has no pages") }
        let mine = store.unfinishedPagesByOwner[s.spec.owner, default: 0], quota = settings.maxPagesPerPrincipal
        if mine + s.pages.count > quota {
            return OCRError(.resourceExhausted, "quota: this client's jobs have \(mine) pages unfinished and \(s.pages.count) more were submitted (limit \(quota) per client)",
                            details: ["unfinished_pages": "\(mine)", "max_pages_per_client": "\(quota)"])
        }
        if s.pages.count > UInt32.max { return OCRError(.resourceExhausted, "too many pages") }
        // A job for an engine no connected worker runs would wait for one: say so now. (With no
        // worker connected yet, it waits for one; when its workers leave later, its pages wait.)
        let engine = Self.engine(of: s.spec.options)
        if !workers.isEmpty, !workers.all.contains(where: { $0.runs(engine) }) {
            let running = Set(workers.all.flatMap(\.engines)).sorted()
            return OCRError(.failedPrecondition, "no connected worker runs the engine \(engine); connected engines: \(running.joined(separator: ", "))",
                            details: ["engine": engine, "engines": running.joined(separator: ",")])
        }
        // A job for languages no connected worker has would only fail page by page: say so now.
        // (With no worker connected yet, it waits for one.)
        let needed = (s.spec.options?.languages ?? "").split(separator: "+").map(String.init)
        if !workers.isEmpty, !workers.all.contains(where: { $0.languages.isEmpty || $0.serves(needed.isEmpty ? ["eng"] : needed) }) {
            let installed = Set(workers.all.flatMap(\.languages)).sorted()
            return OCRError(.failedPrecondition, "no connected worker has the language(s) \((needed.isEmpty ? ["eng"] : needed).joined(separator: "+")); "
                            + "installed: \(installed.joined(separator: ", "))",
                            details: ["languages": needed.joined(separator: "+"), "installed": installed.joined(separator: "+")])
        }
        if store.queuedPages + s.pages.count > settings.maxQueuedPages {
            return OCRError(.resourceExhausted,
                            "queue full: \(store.queuedPages) pages waiting, \(s.pages.count) more would exceed the limit of \(settings.maxQueuedPages)",
                            details: ["queued_pages": "\(store.queuedPages)", "max_queued_pages": "\(settings.maxQueuedPages)"])
        }
        return nil
    }

    private mutating func cancel(_ jobID: String, _ now: Duration, _ out: inout [SchedulerDirective]) -> Result<Job, OCRError> {
        guard let job = store.summary(jobID) else { return .failure(OCRError(.notFound, "no job \(jobID)")) }
        if !job.isFinal {
            finish(jobID, .cancelled, OCRError(.cancelled, "job cancelled").status, now, &out)
        }
        return .success(store.job(jobID)!)
    }

    private mutating func delete(_ jobID: String, _ out: inout [SchedulerDirective]) -> Result<DeleteJobResponse, OCRError> {
        guard let job = store.summary(jobID) else { return .failure(OCRError(.notFound, "no job \(jobID)")) }
        guard job.isFinal else {
            return .failure(OCRError(.failedPrecondition, "job \(jobID) is still running (\(job.done + job.failed) of \(job.pageCount) pages finished): "
                                     + "cancel it first, then delete it", details: ["state": store.job(jobID)?.state.apiName ?? "RUNNING"]))
        }
        commit(.evicted(jobID: jobID), &out)
        return .success(DeleteJobResponse())
    }

    /// Ends a job: cancels its running pages on their workers, records the final state, emits
    /// JobFinished, and evicts the oldest finished jobs beyond the retention limit.
    private mutating func finish(_ jobID: String, _ state: JobState, _ status: Status, _ now: Duration,
                                 _ out: inout [SchedulerDirective]) {
        guard let job = store.summary(jobID), !job.isFinal else { return }
        for (index, uid) in store.dispatchedPages(jobID) {
            guard let serial = workers.serial(ofUID: uid), let worker = workers.record(serial) else { continue }
            out.append(.sendCancel(worker.identity, CancelTask.with { $0.jobId = jobID; $0.pageIndex = UInt32(index) }))
        }
        commit(.finished(jobID: jobID, state: state, status: status, unixMs: unixMs(now), at: now), &out)
        progressDirty.remove(jobID)
        inRunQueue.remove(jobID)
        jobLanguages[jobID] = nil
        jobEngines[jobID] = nil
        while store.finishedJobs > settings.retainedFinishedJobs, let oldest = store.oldestFinished {
            commit(.evicted(jobID: oldest), &out)
        }
    }

    private mutating func enqueueJob(_ jobID: String) {
        guard let job = store.summary(jobID) else { return }
        if inRunQueue.insert(jobID).inserted { runQueue.append(jobID, priority: job.priority, owner: job.owner) }
    }

    // MARK: - Dispatch

    /// Hands pending pages to workers with credit until one of the two runs out.
    private mutating func dispatch(_ now: Duration, _ out: inout [SchedulerDirective]) {
        // Workers with credit that no queued job fits (languages, engine): back at the front
        // afterwards, in their order. Workers with the same languages and engines would find
        // nothing either.
        var idle: [Int] = []
        var fruitless: Set<[String]> = []
        defer {
            for serial in idle.reversed() {
                workers.offered.prepend(serial)
                workers[serial].queued = true
            }
        }
        while store.queuedPages > 0, !runQueue.isEmpty {
            guard let serial = popWorker() else { return }
            if holdsForAFreeSlot(workers[serial]) {
                idle.append(serial)
                continue
            }
            let kind = workers[serial].languages + ["|"] + workers[serial].engines
            guard !fruitless.contains(kind), let (jobID, page) = nextPage(for: serial, now, &out) else {
                idle.append(serial)
                fruitless.insert(kind)
                continue
            }
            let (task, uncut, priority, owner) = makeTask(jobID, page, now)
            let (identity, stillHasCredit): (WorkerIdentity, Bool) = withInout(&workers[serial]) { worker in
                worker.held[TaskKey(jobID: jobID, page: page)] = task.attempt
                if worker.hasCredit { worker.queued = true }
                return (worker.identity, worker.hasCredit)
            }
            if stillHasCredit { workers.offered.append(serial) }
            commit(.dispatched(jobID: jobID, page: page, workerUID: workers[serial].uid, at: now), &out)
            progressDirty.insert(jobID)
            out.append(uncut.map { .cutAndSendTask(identity, task, $0) } ?? .sendTask(identity, task))
            if store.summary(jobID)!.pending > 0 {
                runQueue.append(jobID, priority: priority, owner: owner)
            } else {
                inRunQueue.remove(jobID)
            }
        }
    }

    /// The last pages wait for a free slot rather than in a busy worker's queue: once every
    /// page still waiting would fit in the workers' windows (`slots + prefetch` each), a page
    /// queued behind a running one could sit there while another worker idles (aim916's 28
    /// pages: a 4 s page with the last page queued behind it, 0.5 s of one core idle). A worker
    /// whose window adaptive prefetch widened (fast pages, where the round trip matters more
    /// than the order) keeps taking pages ahead.
    private func holdsForAFreeSlot(_ worker: WorkerRecord) -> Bool {
        worker.slotsFull && worker.extra == 0 && store.queuedPages <= workers.baseCapacityTotal
    }

    /// The page's task, and its stored descriptor when the page is still to be cut out of its
    /// file (the task then has no content yet).
    private func makeTask(_ jobID: String, _ page: Int, _ now: Duration) -> (PageTask, uncut: PageDescriptor?, priority: Int32, owner: String) {
        store.read(jobID) { job in
            let record = job.pages[page]
            let descriptor = job.descriptors[page]
            var task = PageTask()
            task.jobId = jobID
            task.pageIndex = UInt32(page)
            task.attempt = record.attempt + 1
            task.file = descriptor.file
            task.filePage = UInt32(clamping: descriptor.filePage)
            if descriptor.cut == .none { task.content = descriptor.content }
            task.format = descriptor.format
            task.options = job.spec.options
            task.remainingMs = Self.remainingMs(deadline: job.deadline, pageTimeoutMs: job.spec.options?.pageTimeoutMs ?? 0, now)
            task.queuedUs = UInt64(clamping: (now - record.enqueuedAt).microseconds)
            return (task, descriptor.cut == .none ? nil : descriptor, job.spec.priority, job.spec.owner)
        }!
    }

    /// Resizes a worker's adaptive window from the gap between its results: enough tasks beyond
    /// its slots to cover `pipelineTarget` (at least `prefetch`, at most the limit). Gaps are
    /// capped at 1 s so one idle spell cannot dominate; idle spells only shrink the window.
    private static func adaptWindow(_ worker: inout WorkerRecord, _ now: Duration, _ settings: SchedulerSettings) {
        guard let limit = settings.adaptivePrefetchLimit else { return }
        defer { worker.lastResultAt = now }
        guard let last = worker.lastResultAt else { return }
        let gap = min(Double((now - last).microseconds) / 1e6, 1)
        let mean = worker.meanResultGap.map { $0 * 0.8 + gap * 0.2 } ?? gap
        worker.meanResultGap = mean
        worker.resultsMeasured += 1
        guard worker.resultsMeasured >= 8 else { return }
        let prefetch = max(0, settings.prefetch)
        let target = Double(settings.pipelineTarget.microseconds) / 1e6
        let wanted = mean > 0 ? min(Double(limit), (target / mean).rounded(.up)) : Double(limit)
        worker.extra = max(0, min(limit, Int(wanted)) - prefetch)
    }

    /// The least recently used worker with credit (taken out of the queue).
    private mutating func popWorker() -> Int? {
        while let serial = workers.offered.popFirst() {
            guard let worker = workers.record(serial), worker.queued else { continue }
            workers[serial].queued = false
            if worker.hasCredit { return serial }
        }
        return nil
    }

    /// The next (job, page) by priority and round-robin that worker `serial` can take; the job
    /// is out of the run queue until the caller puts it back. Jobs passed over for their
    /// languages keep their turn. Expires jobs whose deadline passed on the way.
    private mutating func nextPage(for serial: Int, _ now: Duration, _ out: inout [SchedulerDirective]) -> (String, Int)? {
        var passedOver: [(String, Int32, String)] = []
        defer {
            for (jobID, priority, owner) in passedOver.reversed() { runQueue.prepend(jobID, priority: priority, owner: owner) }
        }
        while let (jobID, priority, owner) = runQueue.popFirst() {
            guard let job = store.summary(jobID), !job.isFinal else {
                inRunQueue.remove(jobID)
                continue
            }
            if let deadline = job.deadline, deadline <= now {
                inRunQueue.remove(jobID)
                finish(jobID, .expired, OCRError(.deadlineExceeded, "job timeout passed before every page finished").status, now, &out)
                continue
            }
            guard let page = store.nextPendingPage(jobID) else {
                inRunQueue.remove(jobID)
                continue
            }
            guard fits(jobID, serial) else {
                passedOver.append((jobID, priority, owner))
                continue
            }
            return (jobID, page)
        }
        return nil
    }

    /// Whether worker `serial` may take a page of `jobID`: it runs the job's engine, and it has
    /// the job's languages or no connected worker has them (then its engine reports
    /// FAILED_PRECONDITION for the page). A page whose engine no worker runs waits.
    private mutating func fits(_ jobID: String, _ serial: Int) -> Bool {
        let worker = workers[serial]
        guard worker.runs(engine(of: jobID)) else { return false }
        if worker.languages.isEmpty { return true }
        let needed = languages(of: jobID)
        if worker.serves(needed) { return true }
        return !workers.anyServes(needed)
    }

    /// The engine a job's pages need (its options', "tesseract" when it names none).
    private mutating func engine(of jobID: String) -> String {
        if let cached = jobEngines[jobID] { return cached }
        let engine = Self.engine(of: store.read(jobID) { $0.spec.options } ?? nil)
        jobEngines[jobID] = engine
        return engine
    }

    private static func engine(of options: RecognitionOptions?) -> String {
        let named = options?.engine ?? ""
        return named.isEmpty ? WorkerRecord.defaultEngine : named
    }

    /// The languages a job's pages need: its options' `+`-joined list, `eng` when empty (the
    /// engine's default).
    private mutating func languages(of jobID: String) -> [String] {
        if let cached = jobLanguages[jobID] { return cached }
        let spec = store.read(jobID) { $0.spec.options?.languages } ?? nil
        let needed = (spec ?? "").split(separator: "+").map(String.init)
        let result = needed.isEmpty ? ["eng"] : needed
        jobLanguages[jobID] = result
        return result
    }

    private static func remainingMs(deadline: Duration?, pageTimeoutMs pageTimeout: UInt32, _ now: Duration) -> UInt64 {
        var remaining: UInt64 = 0
        if let deadline {
            remaining = UInt64(max(1, (deadline - now).milliseconds))
        }
        if pageTimeout > 0 {
            remaining = remaining == 0 ? UInt64(pageTimeout) : min(remaining, UInt64(pageTimeout))
        }
        return remaining
    }

    // MARK: - Ticks, progress, journal

    private mutating func emitProgress(_ jobID: String, _ now: Duration, _ out: inout [SchedulerDirective]) {
        guard let job = store.summary(jobID), !job.isFinal else { return }
        let since = job.firstDispatchAt ?? job.createdAt
        let seconds = Double((now - since).milliseconds) / 1000
        let progress = JobProgress.with {
            $0.pageCount = UInt32(job.pageCount)
            $0.pagesDone = UInt32(job.done)
            $0.pagesFailed = UInt32(job.failed)
            $0.pagesRunning = UInt32(job.running)
            $0.pagesPerSecond = seconds > 0 ? Double(job.done) / seconds : 0
        }
        if let event = store.sequencedProgress(jobID, progress) { out.append(.emit(event)) }
    }

    /// Asks for the next tick when the earliest thing due changed: heartbeats, a job deadline,
    /// coalesced progress.
    private mutating func reschedule(_ now: Duration, _ out: inout [SchedulerDirective]) {
        var next = nextHeartbeatAt
        if let deadline = deadlines.min?.at { next = min(next, deadline) }
        // When progress is already due this is a time in the past ("tick now"); keeping the due
        // time rather than `now` avoids a new directive on every event until the tick runs.
        if !progressDirty.isEmpty { next = min(next, nextProgressAt) }
        if next != scheduledTick {
            scheduledTick = next
            out.append(.scheduleTick(at: next))
        }
    }

    /// Rebuilds jobs from journaled changes (`Journal.load`, times re-based to this process)
    /// into a fresh scheduler, before any worker registers. Finished jobs and recorded results
    /// come back for GetJob and WatchJob replay; unfinished jobs are queued again, with the pages
    /// that were DISPATCHED when the old process stopped back to PENDING (their workers were
    /// the old process's; they reconnect under new identities), without counting a failure.
    /// Deadlines are restored. Returns the directives of those requeues (journal them).
    package mutating func restore(_ changes: [JobChange], now: Duration) -> [SchedulerDirective] {
        for change in changes { store.apply(change) }
        var out: [SchedulerDirective] = []
        // listJobs is newest first; queue in acceptance order.
        for job in store.listJobs(states: [.queued, .running], limit: Int.max).reversed() {
            let id = job.jobId
            for (page, _) in store.dispatchedPages(id) {
                commit(.requeued(jobID: id, page: page, failure: nil, at: now), &out)
            }
            if let deadline = store.summary(id)?.deadline { deadlines.insert(JobDeadline(at: deadline, jobID: id)) }
            enqueueJob(id)
        }
        reschedule(now, &out)
        return out
    }

    private mutating func commit(_ change: JobChange, _ out: inout [SchedulerDirective]) {
        if settings.journalChanges { out.append(.journal(change)) }
        if let event = store.apply(change).event { out.append(.emit(event)) }
    }

    private func unixMs(_ now: Duration) -> Int64 { startedAtUnixMs + now.milliseconds }

    // MARK: - Queries (for the RPC handlers; no state changes)

    /// GetJob. A job `access` may not see is NOT_FOUND, like one that does not exist.
    package func getJob(_ request: GetJobRequest, access: JobAccess = .everyone) -> Result<Job, OCRError> {
        guard store.allows(access, request.jobId),
              let job = store.job(request.jobId, includePageStates: request.includePageStates) else {
            return .failure(OCRError(.notFound, "no job \(request.jobId)"))
        }
        return .success(job)
    }

    /// ListJobs: the jobs `access` may see, newest first.
    package func listJobs(_ request: ListJobsRequest, access: JobAccess = .everyone) -> ListJobsResponse {
        let page = store.listJobs(states: request.states, limit: Int(request.limit), access: access, after: JobListCursor(token: request.pageToken))
        return ListJobsResponse.with {
            $0.jobs = page.jobs
            $0.nextPageToken = page.next?.token ?? ""
        }
    }

    /// WatchJob's replay, one chunk at a time: the recorded PageCompleted and PageFailed events
    /// of pages `fromPage...` (at most `limit`), the page to go on from, and whether the replay
    /// is complete (`next == nil`: JobFinished is included when the job is final, and the shell
    /// then ends the stream or registers the watcher for `.emit`). A job `access` may not see is
    /// NOT_FOUND.
    package func watchReplay(_ jobID: String, fromPage: Int, limit: Int = .max, access: JobAccess = .everyone)
        -> Result<(events: [JobEvent], next: Int?, finished: Bool), OCRError> {
        guard store.allows(access, jobID), let chunk = store.replayChunk(jobID, fromPage: fromPage, limit: limit) else {
            return .failure(OCRError(.notFound, "no job \(jobID)"))
        }
        return .success((chunk.events, chunk.next, chunk.next == nil && (store.summary(jobID)?.isFinal ?? false)))
    }

    /// ClusterStatus figures. O(workers).
    package func clusterStatus(now: Duration) -> ClusterStatusResponse {
        var status = ClusterStatusResponse()
        for worker in workers.all {
            status.workers.append(WorkerInfo.with {
                $0.uid = worker.uid
                $0.hostname = worker.hostname
                $0.labels = worker.labels
                $0.slots = UInt32(worker.slots)
                $0.busy = UInt32(worker.held.count)
                $0.languages = worker.languages
                $0.engines = worker.engines
                $0.version = worker.version
                $0.pagesDone = worker.pagesDone
                $0.lastSeenMsAgo = (now - worker.lastSeen).milliseconds
            })
            status.totalSlots += UInt32(worker.slots)
            status.busySlots += UInt32(min(worker.held.count, worker.slots))
        }
        status.queueDepth = UInt32(clamping: store.queuedPages)
        status.activeJobs = UInt32(clamping: store.activeJobs)
        status.pagesPerSecond = throughput.rate(at: now)
        status.pagesDone = store.pagesDoneTotal
        status.uptimeMs = UInt64(max(0, now.milliseconds))
        return status
    }

    /// Tasks a worker holds and its capacity (`slots + prefetch`); nil when unknown.
    package func workerLoad(_ identity: WorkerIdentity) -> (held: Int, capacity: Int)? {
        guard let serial = workers.serial(of: identity), let worker = workers.record(serial) else { return nil }
        return (worker.held.count, worker.capacity)
    }

    /// The uid a connected worker announced, nil for an unknown connection.
    package func workerUID(_ identity: WorkerIdentity) -> UInt64? {
        workers.serial(of: identity).flatMap { workers.record($0)?.uid }
    }

    /// Registered workers.
    package var workerCount: Int { workers.count }
}



/// A job's deadline in the scheduler's heap. Entries are never removed from the middle: a pop
/// checks that the job still has that deadline.
private struct JobDeadline: Comparable, Sendable {
    var at: Duration
    var jobID: String
    static func < (a: JobDeadline, b: JobDeadline) -> Bool { a.at < b.at }
}
