import Dispatch
import Foundation
import OCRAPIJSON
import OCRBasics
import OCRLog
import OCRPages
import OCRRPC
import OCRWebhook
import OCRZeroMQ
import OCRWire

/// A running coordinator: the shell around `Scheduler`. One `SocketLoop` thread owns both
/// ROUTER sockets (clients and workers), the scheduler and the watchers, so the state machine
/// sees one event at a time; splitting submitted files runs on other threads and comes back
/// through the loop.
package final class CoordinatorServer: Sendable {
    /// The endpoints actually bound (real ports when configured with `:*`).
    package let clientEndpoint: String
    package let workerEndpoint: String
    /// The metadata key under which the HTTP gateway names the principal of a call.
    package static let principalMetadataKey = "principal"

    /// An `inproc://` endpoint of the client link, reachable only from this process through
    /// `context`: each call's principal is its `principal` metadata (the HTTP gateway says whom
    /// it authenticated).
    package let gatewayEndpoint: String
    /// The ZeroMQ context the endpoints live in (for `gatewayEndpoint`).
    package let context: ZMQContext
    /// Counters and histograms for `/metrics`.
    package let metrics: CoordinatorMetrics
    let loop: SocketLoop
    /// The loop thread's state; every use is checked to be on that thread.
    let core: LoopBound<CoordinatorCore>
    /// What the core shares with other threads, taken out of it as it starts.
    private let configuration: CoordinatorConfiguration
    private let splitPool: DedicatedThreads<Void>
    private let cutPool: DedicatedThreads<Void>
    private let journal: JournalWriter?
    private let webhooks: WebhookSender?

    /// Binds both endpoints and starts serving; with `journalPath`, first restores the jobs of
    /// the journal. Throws `TransportError` when an endpoint cannot be bound, `SQLiteError` or
    /// `JournalError` when the journal cannot be opened (another coordinator holds it) or read
    /// (startup failures, not `OCRError`s).
    package init(_ configuration: CoordinatorConfiguration) throws {
        let context = try configuration.context ?? ZMQContext()
        let logger = configuration.logger
        let loop = SocketLoop(context: context, name: "ocr.coordinator") { error in
            logger.warning("transport", ["error": error])
        }
        let metrics = CoordinatorMetrics()
        self.context = context
        self.loop = loop
        self.metrics = metrics
        let started = try loop.start { control in
            let core = try CoordinatorCore(configuration, control: control, metrics: metrics)
            let bound = LoopBound(core, loop: control.loop)
            core.start(bound)
            return (bound, core.rpc.endpoint, core.workerEndpoint, core.gatewayRPC.endpoint,
                    core.splitPool, core.cutPool, core.journal, core.webhooks)
        }
        (core, clientEndpoint, workerEndpoint, gatewayEndpoint, splitPool, cutPool, journal, webhooks) = started
        self.configuration = configuration
        logger.info("coordinator listening", ["clients": clientEndpoint, "workers": workerEndpoint, "version": ProductVersion.current])
    }

    /// The scheduler's figures for `/metrics` and `/readyz`, read on the loop thread; nil when
    /// the loop does not answer within `timeout` (it is stalled or stopping: not ready).
    package func gauges(timeout: Duration = .seconds(5)) -> MetricsGauges? {
        let answer = Locked<MetricsGauges?>(nil)
        let done = DispatchSemaphore(value: 0)
        let queued = core.execute { core in
            let gauges = core.gauges()
            answer.withLock { $0 = gauges }
            done.signal()
        }
        guard queued, done.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds))) == .success else { return nil }
        return answer.withLock { $0 }
    }

    /// Whether `principal` sees every job (`--admin-client-keys`, admin HTTP tokens).
    package func isAdmin(_ principal: String) -> Bool { configuration.adminClients.contains(principal) }

    /// Bytes on disk of the journal, its write-ahead log and the upload spool (0 without one).
    /// Reads the file system on the calling thread.
    package func journalBytes() -> UInt64 {
        configuration.journalPath.map(CoordinatorCore.measureJournal) ?? 0
    }

    /// Stops serving: open calls end with UNAVAILABLE, sockets close, the loop thread exits,
    /// and the journal commits what it was given.
    package func stop() {
        core.execute { $0.shutdown() }
        loop.stop()
        splitPool.close(discardingQueued: true)
        cutPool.close(discardingQueued: true)
        journal?.stop()
        webhooks?.stop()
        if configuration.context == nil { context.terminate() }
    }
}

/// The coordinator's loop-thread state. Not `Sendable`: work done on other threads (splits,
/// cuts, the journal's commits) comes back to it through `shared`, which checks the thread.
final class CoordinatorCore {
    let configuration: CoordinatorConfiguration
    let logger: Logger
    let control: SocketLoop.Control
    let rpc: RPCServer
    let workerSocket: SocketID
    let workerEndpoint: String
    /// The in-process client link of the HTTP gateway (`CoordinatorServer.gatewayEndpoint`).
    let gatewayRPC: RPCServer
    let metrics: CoordinatorMetrics
    let started = ContinuousClock.now
    var scheduler: Scheduler
    /// The write-ahead journal's thread (`--journal`); nil: state lives in memory only.
    let journal: JournalWriter?
    /// Sequence of the last event whose changes went to the journal, and of the last commit.
    var journaledThrough: UInt64 = 0
    var committedThrough: UInt64 = 0
    /// Why the journal cannot be written right now (a full disk), or nil: new submissions are
    /// refused meanwhile; everything else keeps being served.
    var journalTrouble: String?
    /// The journal's size at its last measurement (`watchJournalBudget`).
    var journalBytes: UInt64 = 0
    /// Work that must wait for the commit of sequence `after` (directives, replies), in order.
    /// `read`: an answer to a read, let go at once when the journal runs into trouble.
    var afterCommit = Deque<(after: UInt64, read: Bool, run: () -> Void)>()
    var tickTimer: TimerID?
    /// WatchJob calls by job id (once their replay is sent), and open streams by principal.
    var watchers: [String: [RPCServerCall]] = [:]
    /// WatchJob streams open per principal.
    var streams: StreamQuota
    var lastSentToWatcher: [RPCServer.CallKey: ContinuousClock.Instant] = [:]
    /// SubmitJob and CancelJob calls waiting for the scheduler's reply directive.
    var pendingReplies: [UInt64: RPCServerCall] = [:]
    var nextRequestToken: UInt64 = 0
    /// Runs splits on threads of its own, `maxConcurrentSplits` of them: not libdispatch's
    /// shared pool, which a busy process (or a blocked splitter) can leave without a thread.
    let splitPool: DedicatedThreads<Void>
    var splitting = SplitAdmission()
    /// Cuts pages out of their files when they are dispatched (`cutAndSendTask`).
    let cutPool: DedicatedThreads<Void>
    var outbox = WorkerOutbox()
    /// Posts finished jobs' summaries to their `callback_url` (`--webhook-allow`).
    let webhooks: WebhookSender?
    /// How closures run on other threads come back to this core (`start`): weak, since the
    /// server owns it; nil only before `start`.
    private weak var shared: LoopBound<CoordinatorCore>?
    /// The journal's changes, between `init` and `start`.
    private var restored: [JobChange]?

    init(_ configuration: CoordinatorConfiguration, control: SocketLoop.Control, metrics: CoordinatorMetrics) throws {
        self.configuration = configuration
        self.streams = StreamQuota(limit: configuration.maxStreamsPerPrincipal)
        self.metrics = metrics
        self.logger = configuration.logger
        self.control = control
        splitPool = try DedicatedThreads(count: configuration.maxConcurrentSplits, name: "ocr.split") { _ in }
        cutPool = try DedicatedThreads(count: configuration.maxConcurrentSplits, name: "ocr.cut") { _ in }
        webhooks = configuration.webhooks.map { [logger = configuration.logger] in
            WebhookSender($0.sender) { outcome in
                metrics.recordWebhook(outcome)
                switch outcome {
                case .delivered(let job, let url, let attempts, let status):
                    logger.info("webhook delivered", ["job": job, "url": url, "attempts": attempts, "status": status])
                case .retrying(let job, let url, let attempt, let reason, let after):
                    logger.warning("webhook failed; retrying", ["job": job, "url": url, "attempt": attempt, "error": reason,
                                                                 "retry_in_s": Double(after.milliseconds) / 1000])
                case .abandoned(let job, let url, let attempts, let reason):
                    logger.error("webhook given up", ["job": job, "url": url, "attempts": attempts, "error": reason])
                }
            }
        }
        let unixMs = Int64(Date().timeIntervalSince1970 * 1000)
        var settings = configuration.scheduler
        settings.journalChanges = true  // the journal's input, and what metrics and logs are made of
        self.scheduler = Scheduler(settings: settings, startedAtUnixMs: unixMs)
        let journalFile: (any JobJournal)?
        if let leadership = configuration.leadership {
            journalFile = try leadership.journal(startedAtUnixMs: unixMs)
        } else if let path = configuration.journalPath {
            let sqlite = try SQLiteJournal(path: path, startedAtUnixMs: unixMs, sync: configuration.journalSync)
            if let skipped = sqlite.compactionSkipped {
                configuration.logger.warning("journal compaction skipped", ["error": skipped])
            }
            journalFile = sqlite
        } else {
            journalFile = nil
        }
        let restored = try journalFile?.load()
        if let journalFile {
            journal = JournalWriter(journalFile, logger: configuration.logger)
        } else {
            journal = nil
        }
        // The authenticator must be in place before the sockets bind.
        let admission = ConnectionAdmission(security: configuration.security, maxConnections: configuration.maxConnections,
                                            logger: configuration.logger)
        try ZAPHandler.install(on: control) { admission.decide($0) }
        rpc = try RPCServer(bind: configuration.clientEndpoint, control: control,
                            maxMessageBytes: configuration.maxMessageBytes,
                            streamingMethods: [CoordinatorMethod.watchJob.rawValue],
                            maxBacklogBytes: configuration.maxClientBacklogBytes) { socket in
            try admission.prepare(socket, domain: CurveServerSecurity.clientDomain, control: control)
        }
        gatewayRPC = try RPCServer(bind: "inproc://ocr.coordinator.gateway.\(UInt64.random(in: 1...UInt64.max))", control: control,
                                   maxMessageBytes: configuration.maxMessageBytes, streamingMethods: [CoordinatorMethod.watchJob.rawValue],
                                   maxBacklogBytes: configuration.maxClientBacklogBytes, principalMetadataKey: CoordinatorServer.principalMetadataKey)
        let workers = try control.context.makeSocket(.router)
        try admission.prepare(workers, domain: CurveServerSecurity.workerDomain, control: control)
        try workers.set(.routerMandatory(true))
        try workers.set(.maxMessageSize(configuration.maxMessageBytes))
        try workers.set(.sendHighWaterMark(100_000))
        try workers.set(.receiveHighWaterMark(100_000))
        workerEndpoint = try workers.bind(configuration.workerEndpoint)
        var me: CoordinatorCore?
        workerSocket = control.register(workers) { _, _, frames in me?.receiveFromWorker(frames) }
        me = self
        installHandlers()
        control.scheduleRepeating(every: max(.milliseconds(100), configuration.watchKeepalive / 5)) { [weak self] _ in
            self?.sendKeepalives()
        }
        self.restored = restored
    }

    /// Starts serving with `shared` as the handle by which other threads reach this core:
    /// restores the journal's jobs, ticks the scheduler once and starts the journal's thread.
    func start(_ shared: LoopBound<CoordinatorCore>) {
        self.shared = shared
        if let changes = restored {
            apply(scheduler.restore(changes, now: now))
            let source = configuration.leadership.map { "postgresql epoch \($0.epoch)" } ?? configuration.journalPath ?? ""
            logger.info("journal restored", ["journal": source, "changes": changes.count,
                                             "jobs": scheduler.listJobs(ListJobsRequest.with { $0.limit = UInt32.max }).jobs.count,
                                             "active_jobs": scheduler.store.activeJobs, "queued_pages": scheduler.store.queuedPages])
        }
        restored = nil
        apply(scheduler.handle(.tick, now: now))
        watchJournalBudget()
        let metrics = metrics
        // The journal thread ends in `CoordinatorServer.stop`, releasing `shared`.
        journal?.start(committed: { sequence in
            shared.execute { $0.committed(through: sequence) }
        }, measured: { duration, failed in
            metrics.recordCommit(duration, failed: failed)
        }, trouble: { problem in
            shared.execute { $0.journalTroubleChanged(problem) }
        }, deposed: configuration.deposed)
    }

    var now: Duration { ContinuousClock.now - started }

    /// Bytes on disk of the journal at `path`, its write-ahead log and its spool. Reads the file
    /// system: not on the loop thread.
    static func measureJournal(_ path: String) -> UInt64 {
        let files = FileManager.default
        func size(_ file: String) -> UInt64 { (try? files.attributesOfItem(atPath: file)[.size] as? UInt64) ?? 0 }
        var total = [path, path + "-wal", path + "-shm"].reduce(0) { $0 + size($1) }
        let spool = SQLiteJournal.spoolDirectory(journalPath: path)
        for name in (try? files.contentsOfDirectory(atPath: spool)) ?? [] { total += size(spool + "/" + name) }
        return total
    }

    /// Measures the journal every 2 s (on the cut pool: it reads the file system); over its
    /// budget, new jobs are refused and the oldest tenth of the finished jobs is evicted.
    private func watchJournalBudget() {
        guard let path = configuration.journalPath, let budget = configuration.journalBudgetBytes else { return }
        control.scheduleRepeating(every: .seconds(2)) { [unowned self] _ in
            guard let shared else { return }
            _ = cutPool.submit { _ in
                let bytes = Self.measureJournal(path)
                shared.execute { $0.journalMeasured(bytes, budget: budget) }
            }
        }
    }

    /// The journal's size as measured on the cut pool; over its budget, evicts finished jobs.
    private func journalMeasured(_ bytes: UInt64, budget: UInt64) {
        let wasOver = journalBytes >= budget
        journalBytes = bytes
        guard bytes >= budget else {
            if wasOver { logger.info("journal back under its budget", ["bytes": bytes, "budget": budget]) }
            return
        }
        if !wasOver { logger.warning("journal at its budget: new jobs are refused", ["bytes": bytes, "budget": budget]) }
        let finished = scheduler.store.finishedJobs
        if finished > 0 { apply(scheduler.handle(.evictFinished(count: max(1, finished / 10)), now: now)) }
    }

    func shutdown() {
        for server in [rpc, gatewayRPC] { server.endAll(OCRError(.unavailable, "the coordinator is shutting down")) }
    }

    /// The scheduler's figures for `/metrics` (loop thread).
    func gauges() -> MetricsGauges {
        var gauges = MetricsGauges()
        let status = scheduler.clusterStatus(now: now)
        let census = scheduler.store.census()
        gauges.uptimeSeconds = Double(now.microseconds) / 1e6
        gauges.journalBudgetBytes = configuration.journalBudgetBytes ?? 0
        gauges.leaderEpoch = configuration.leadership?.epoch ?? 0
        gauges.overBudget = configuration.journalBudgetBytes.map { journalBytes >= $0 } ?? false
        gauges.ready = journalTrouble == nil && !gauges.overBudget
        gauges.queuedPages = scheduler.store.queuedPages
        gauges.runningPages = scheduler.store.runningPages
        gauges.queuedPagesByLanguages = census.queuedPagesByLanguages
        gauges.jobsByState = census.jobsByState
        gauges.workers = status.workers.count
        for worker in status.workers {
            for engine in worker.engines { gauges.slotsByEngine[engine, default: 0] += Int(worker.slots) }
        }
        gauges.totalSlots = Int(status.totalSlots)
        gauges.busySlots = Int(status.busySlots)
        gauges.pagesPerSecond = status.pagesPerSecond
        gauges.journalTrouble = journalTrouble
        return gauges
    }

    // MARK: Worker link

    func receiveFromWorker(_ frames: [[UInt8]]) {
        let routed: Routed<WorkerEnvelope>
        do {
            routed = try Routed<WorkerEnvelope>(frames: frames)
        } catch {
            // No usable envelope: tell the peer (if it has an identity) and forget it.
            if let identity = frames.first, !identity.isEmpty {
                logger.warning("bad worker frames", ["error": error])
                apply(scheduler.handle(.workerProtocolError(WorkerIdentity(identity), reason: "\(error)"), now: now))
            }
            return
        }
        let identity = WorkerIdentity(routed.identity)
        let message: WorkerMessage
        do {
            message = try WorkerMessage(serializedBytes: routed.envelope.body)
        } catch {
            logger.warning("worker message does not parse", ["error": error])
            apply(scheduler.handle(.workerProtocolError(identity, reason: "message does not parse: \(error)"), now: now))
            return
        }
        if case .ready(let ready)? = message.command {
            logger.info("worker ready", ["worker": ready.workerUid.paddedHex, "slots": ready.slots, "host": ready.hostname])
        }
        apply(scheduler.handle(SchedulerEvent(from: identity, message: message, peerKey: control.peerUserID(workerSocket)), now: now))
    }

    // MARK: Directives

    /// Log lines for what an event decided: pages failed or requeued (with the cause), jobs
    /// finished (with their counts and duration).
    private func logOutcomes(_ directives: [SchedulerDirective]) {
        for case .journal(let change) in directives {
            switch change {
            case .requeued(let job, let page, let failure?, _):
                logger.info("page requeued", ["job": job, "page": page + 1, "cause": failure.code.name, "error": failure.message])
            case .failed(let job, let page, let status, _):
                logger.warning("page failed", ["job": job, "page": page + 1, "error": OCRError(status)])
            case .finished(let job, let state, _, _, let at):
                guard let summary = scheduler.store.summary(job) else { break }
                logger.info("job finished", ["job": job, "state": state.metricName, "pages": summary.pageCount, "done": summary.done,
                                             "failed": summary.failed, "seconds": Double((at - summary.createdAt).milliseconds) / 1000])
            default:
                break
            }
        }
    }

    /// Carries out one event's directives, in order, once the journal holds its changes.
    func apply(_ directives: [SchedulerDirective]) {
        metrics.record(directives)
        logOutcomes(directives)
        if let journal {
            var changes: [JobChange] = []
            for case .journal(let change) in directives { changes.append(change) }
            if !changes.isEmpty {
                journaledThrough += 1
                journal.append(changes, sequence: journaledThrough)
            }
        }
        whenDurable { [unowned self] in perform(directives) }
    }

    /// Runs `body` now when the journal holds everything handed to it, else after that commit,
    /// after what was queued before it: a reply, a task or an event never gets ahead of the
    /// state it reveals. Without a journal: now.
    func whenDurable(_ body: @escaping () -> Void) {
        whenDurable(read: false, body)
    }

    private func whenDurable(read: Bool, _ body: @escaping () -> Void) {
        if journaledThrough == committedThrough, afterCommit.isEmpty {
            body()
        } else {
            afterCommit.append((journaledThrough, read, body))
        }
    }

    /// An answer to a read (GetJob, ListJobs, ClusterStatus, a keepalive): after the commit
    /// like `whenDurable`, except while the journal cannot be written, when it is answered at
    /// once from memory (state that a restart may roll back to the last commit) rather than held
    /// until the disk has room again.
    func whenReadable(_ body: @escaping () -> Void) {
        if journalTrouble != nil { body() } else { whenDurable(read: true, body) }
    }

    /// The journal thread reports a write it cannot make (or nil: writable again). Reads queued
    /// behind the failing commit are answered now, from memory, as later ones will be: else one
    /// that came in just before the failure was known would wait for the disk to have room
    /// (a GetJob right after a restart on a full disk waited out its deadline).
    func journalTroubleChanged(_ problem: String?) {
        journalTrouble = problem
        guard problem != nil, afterCommit.elements.contains(where: \.read) else { return }
        var held = Deque<(after: UInt64, read: Bool, run: () -> Void)>()
        var reads: [() -> Void] = []
        for entry in afterCommit.elements {
            if entry.read { reads.append(entry.run) } else { held.append(entry) }
        }
        afterCommit = held
        for read in reads { read() }
    }

    /// The journal thread committed every batch up to `sequence`.
    func committed(through sequence: UInt64) {
        committedThrough = max(committedThrough, sequence)
        while let next = afterCommit.first, next.after <= committedThrough {
            _ = afterCommit.popFirst()
            next.run()
        }
    }

    private func perform(_ directives: [SchedulerDirective]) {
        var lostWorkers: [WorkerIdentity] = []
        for directive in directives {
            switch directive {
            case .sendDisconnect(let identity, let reason):
                logger.warning("disconnecting a worker", ["connection": identity, "reason": reason])
            case .sendTask(_, let task), .cutAndSendTask(_, let task, _):
                // Only ever after the commit that records it (the failover tests read this).
                logger.debug("task sent", ["job": task.jobId, "page": task.pageIndex + 1, "attempt": task.attempt])
            default:
                break
            }
            if let (identity, message) = directive.coordinatorMessage {
                let frames = [identity.bytes, WorkerEnvelope.signature, message.serializedBytes()]
                if let now = outbox.enqueue(frames, to: identity), !sendToWorker(now) { lostWorkers.append(identity) }
                continue
            }
            switch directive {
            case .cutAndSendTask(let identity, let task, let descriptor):
                if !cutAndSend(task, descriptor, to: identity) { lostWorkers.append(identity) }
            case .emit(let event):
                deliver(event)
            case .submitReply(let token, let result):
                guard let call = pendingReplies.removeValue(forKey: token) else { break }
                switch result {
                case .success(let response):
                    logger.info("job accepted", ["job": response.jobId, "pages": response.pageCount, "existing": response.existing,
                                                 "principal": call.principal.isEmpty ? "-" : call.principal])
                    call.respond(response)
                case .failure(let error): call.fail(error)
                }
            case .cancelReply(let token, let result):
                guard let call = pendingReplies.removeValue(forKey: token) else { break }
                switch result {
                case .success(let job): call.respond(job)
                case .failure(let error): call.fail(error)
                }
            case .deleteReply(let token, let result):
                guard let call = pendingReplies.removeValue(forKey: token) else { break }
                switch result {
                case .success(let response): call.respond(response)
                case .failure(let error): call.fail(error)
                }
            case .scheduleTick(let at):
                if let tickTimer { control.cancelTimer(tickTimer) }
                tickTimer = control.schedule(at: started + at) { [weak self] _ in
                    guard let self else { return }
                    self.tickTimer = nil
                    self.apply(self.scheduler.handle(.tick, now: self.now))
                }
            case .journal(.finished(let job, _, _, _, _)):
                announce(job)  // the finish is durable now
            case .journal:
                break  // handed to the journal by `apply`
            default:
                break
            }
        }
        // A worker whose socket is gone (or whose queue is full) is lost: requeue its pages.
        for identity in lostWorkers where scheduler.workerLoad(identity) != nil {
            logger.warning("worker unreachable", ["worker": scheduler.workerUID(identity)?.paddedHex ?? "unknown", "connection": identity])
            apply(scheduler.handle(.workerLost(identity, reason: "unreachable"), now: now))
        }
    }

    /// Queues the webhook of a finished job that named a `callback_url`: `{"event":
    /// "job.finished", "job": Job}`.
    private func announce(_ jobID: String) {
        guard let webhooks, let url = scheduler.store.callbackURL(of: jobID), let job = scheduler.store.job(jobID) else { return }
        let body = JSON.object([("event", .string("job.finished")), ("job", JobJSON.job(job))]).text
        webhooks.send(url: url, jobID: jobID, body: Array(body.utf8))
    }

    private func sendToWorker(_ frames: [[UInt8]]) -> Bool {
        (try? control.send(frames, on: workerSocket)) ?? false
    }

    /// Strips up to this size are copied out of their file on the loop itself (a memory copy of
    /// at most this much, like encoding a message of that size), sparing the two thread hops
    /// of the cut pool, which cost more than the copy for a small page.
    static let loopCutBytes: UInt64 = 256 << 10

    /// Cuts the task's page out of its file (small TIFF pages here, the rest on the cut pool),
    /// then sends it in its place among the messages to that worker. A page that cannot be cut
    /// is the worker's failed result for it (INVALID_ARGUMENT naming the file and page; not
    /// retried), so the page ends and the worker's credit returns. False when the worker is
    /// unreachable.
    private func cutAndSend(_ task: PageTask, _ descriptor: PageDescriptor, to identity: WorkerIdentity) -> Bool {
        if let page = descriptor.quickCut(maxBytes: Self.loopCutBytes) {
            guard let now = outbox.enqueue(taskFrames(task, page.content, to: identity), to: identity) else { return true }
            return sendToWorker(now)
        }
        guard let shared else { return true }  // the server is gone: nothing is sent any more
        let ticket = outbox.reserve(for: identity)
        _ = cutPool.submit { _ in
            let outcome = Result { () throws(OCRError) in try descriptor.cutOut().content }
            shared.execute { $0.finishCut(ticket, task, outcome, to: identity) }
        }
        return true
    }

    /// The frames of a Task message carrying `content` as its page.
    private func taskFrames(_ task: PageTask, _ content: [UInt8], to identity: WorkerIdentity) -> [[UInt8]] {
        var task = task
        task.content = content
        return [identity.bytes, WorkerEnvelope.signature, CoordinatorMessage.with { $0.command = .task(task) }.serializedBytes()]
    }

    private func finishCut(_ ticket: UInt64, _ task: PageTask, _ outcome: Result<[UInt8], OCRError>, to identity: WorkerIdentity) {
        var frames: [[UInt8]]?
        switch outcome {
        case .success(let content):
            frames = taskFrames(task, content, to: identity)
        case .failure(let error):
            logger.warning("page cannot be cut", ["job": task.jobId, "page": task.pageIndex, "error": error])
            let result = TaskResult.with {
                $0.jobId = task.jobId
                $0.pageIndex = task.pageIndex
                $0.attempt = task.attempt
                $0.outcome = .error(error.status)
            }
            apply(scheduler.handle(.taskResult(identity, result), now: now))
        }
        for ready in outbox.finish(ticket, for: identity, frames: frames) where !sendToWorker(ready) {
            if scheduler.workerLoad(identity) != nil {
                logger.warning("worker unreachable", ["worker": scheduler.workerUID(identity)?.paddedHex ?? "unknown", "connection": identity])
                apply(scheduler.handle(.workerLost(identity, reason: "unreachable"), now: now))
            }
            break
        }
    }

    func deliver(_ event: JobEvent) {
        guard let calls = watchers[event.jobId] else { return }
        let stamp = ContinuousClock.now
        for call in calls {
            call.send(event)
            lastSentToWatcher[call.key] = stamp
        }
        if event.finished != nil {
            for call in calls {
                call.finish()
                lastSentToWatcher[call.key] = nil
            }
            watchers[event.jobId] = nil
        }
    }

    /// A progress snapshot (sequence 0: not part of the job's numbered events) to watchers that
    /// have heard nothing for `watchKeepalive`.
    func sendKeepalives() {
        let stamp = ContinuousClock.now
        var due: [(RPCServerCall, JobEvent)] = []
        for (jobID, calls) in watchers {
            guard let job = scheduler.store.job(jobID) else { continue }
            let snapshot = JobEvent.with {
                $0.jobId = jobID
                $0.event = .progress(JobProgress.with {
                    $0.pageCount = job.pageCount
                    $0.pagesDone = job.pagesDone
                    $0.pagesFailed = job.pagesFailed
                })
            }
            for call in calls where stamp - (lastSentToWatcher[call.key] ?? started) >= configuration.watchKeepalive {
                due.append((call, snapshot))
                lastSentToWatcher[call.key] = stamp
            }
        }
        guard !due.isEmpty else { return }
        whenReadable { [due] in for (call, event) in due { call.send(event) } }
    }

    // MARK: Client link

    func installHandlers() {
        for server in [rpc, gatewayRPC] { installHandlers(on: server) }
    }

    private func installHandlers(on rpc: RPCServer) {
        rpc.handle(CoordinatorMethod.health.rawValue) { [limit = configuration.maxMessageBytes] call in
            guard call.request(as: HealthCheckRequest.self) != nil else { return }
            call.respond(HealthCheckResponse.with {
                $0.status = .serving
                $0.maxMessageBytes = UInt64(limit)
            })
        }
        // Answers show the state as of the request, once the journal holds it.
        rpc.handle(CoordinatorMethod.getJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: GetJobRequest.self) else { return }
            let result = scheduler.getJob(request, access: access(of: call))
            whenReadable {
                switch result {
                case .success(let job): call.respond(job)
                case .failure(let error): call.fail(error)
                }
            }
        }
        rpc.handle(CoordinatorMethod.listJobs.rawValue) { [unowned self] call in
            guard let request = call.request(as: ListJobsRequest.self) else { return }
            guard request.pageToken.isEmpty || JobListCursor(token: request.pageToken) != nil else {
                call.fail(OCRError(.invalidArgument, "page_token is not one this coordinator gave (use next_page_token as it came)"))
                return
            }
            let jobs = scheduler.listJobs(request, access: access(of: call))
            whenReadable { call.respond(jobs) }
        }
        rpc.handle(CoordinatorMethod.clusterStatus.rawValue) { [unowned self] call in
            guard call.request(as: ClusterStatusRequest.self) != nil else { return }
            let status = scheduler.clusterStatus(now: now)
            whenReadable { call.respond(status) }
        }
        rpc.handle(CoordinatorMethod.cancelJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: CancelJobRequest.self) else { return }
            let token = takeToken(for: call)
            logger.info("cancel requested", ["job": request.jobId])
            apply(scheduler.handle(.cancelJob(request: token, jobID: request.jobId, access: access(of: call)), now: now))
        }
        rpc.handle(CoordinatorMethod.deleteJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: DeleteJobRequest.self) else { return }
            let token = takeToken(for: call)
            logger.info("delete requested", ["job": request.jobId, "principal": call.principal])
            apply(scheduler.handle(.deleteJob(request: token, jobID: request.jobId, access: access(of: call)), now: now))
        }
        rpc.handle(CoordinatorMethod.watchJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: WatchJobRequest.self) else { return }
            watch(call, request)
        }
        rpc.handle(CoordinatorMethod.submitJob.rawValue) { [unowned self] call in
            submit(call)  // decoded on the split pool: a request may carry hundreds of megabytes
        }
    }

    func takeToken(for call: RPCServerCall) -> UInt64 {
        nextRequestToken += 1
        pendingReplies[nextRequestToken] = call
        let token = nextRequestToken
        call.onCancel { [weak self] in self?.pendingReplies[token] = nil }
        return token
    }

    /// What `call`'s principal may see: every job for a key in `--admin-client-keys`, else its own.
    func access(of call: RPCServerCall) -> JobAccess {
        configuration.adminClients.contains(call.principal) ? .everyone : .owner(call.principal)
    }

    /// Replays the job's recorded events, a chunk at a time and no faster than the client reads,
    /// then adds the call to the job's watchers. Each chunk is taken as of one moment and sent
    /// once the journal holds it; the call becomes a watcher in the same moment the last chunk is
    /// taken, so every later event comes live, none twice and none missed. A principal has at
    /// most `maxStreamsPerPrincipal` streams open.
    func watch(_ call: RPCServerCall, _ request: WatchJobRequest) {
        let principal = call.principal
        if let refusal = streams.open(for: principal) {
            call.fail(refusal)
            return
        }
        call.onEnd { [weak self] in
            guard let self else { return }
            streams.close(for: principal)
            watchers[request.jobId]?.removeAll { $0 === call }
            if watchers[request.jobId]?.isEmpty == true { watchers[request.jobId] = nil }
            lastSentToWatcher[call.key] = nil
        }
        replay(call, request.jobId, from: Int(request.fromPage), access: access(of: call))
    }

    /// Events per replay chunk, and the bytes a call may have waiting before the next chunk waits.
    static let replayChunk = 256
    static let replayPacingBytes = 1 << 20

    private func replay(_ call: RPCServerCall, _ jobID: String, from page: Int, access: JobAccess) {
        guard call.isActive else { return }
        guard call.waitingBytes < Self.replayPacingBytes else {
            _ = control.schedule(after: .milliseconds(20)) { [weak self] _ in self?.replay(call, jobID, from: page, access: access) }
            return
        }
        switch scheduler.watchReplay(jobID, fromPage: page, limit: Self.replayChunk, access: access) {
        case .failure(let error):
            whenDurable { call.fail(error) }
        case .success(let (events, next, finished)):
            // The chunk may hold changes whose commit is still pending; their live events go out
            // after that commit, just before this closure. Registering the watcher here, not
            // when the chunk was read, sends each of those pages once: in the replay, not live too.
            whenDurable { [weak self] in
                for event in events { call.send(event) }
                if finished { call.finish() }
                guard let self else { return }
                if next == nil, !finished, call.isActive {
                    watchers[jobID, default: []].append(call)
                    lastSentToWatcher[call.key] = ContinuousClock.now
                }
                guard let next else { return }
                _ = control.schedule(after: .zero) { [weak self] _ in self?.replay(call, jobID, from: next, access: access) }
            }
        }
    }

    /// Admits a submission, then decodes, validates and splits it on the split pool (a request
    /// may carry hundreds of megabytes; TIFF directory walks and PDF page trees take time) and
    /// hands the job to the scheduler back on the loop thread. Admission comes first: a full
    /// queue, a client at its page quota, or more bytes waiting to be split than
    /// `maxSplittingBytes`, is RESOURCE_EXHAUSTED before any work.
    func submit(_ call: RPCServerCall) {
        let store = scheduler.store, bytes = call.payload.count
        let admission = SubmitAdmission(
            journalTrouble: journalTrouble, journalBytes: journalBytes, journalBudgetBytes: configuration.journalBudgetBytes,
            queuedPages: store.queuedPages, maxQueuedPages: scheduler.settings.maxQueuedPages,
            unfinishedPagesOfPrincipal: store.unfinishedPagesByOwner[call.principal, default: 0],
            maxPagesPerPrincipal: scheduler.settings.maxPagesPerPrincipal,
            splittingBytes: splitting.bytes, maxSplittingBytes: configuration.maxSplittingBytes)
        if let refusal = admission.refusal(forBytes: bytes) {
            call.fail(refusal)
            return
        }
        splitting.bytes += bytes
        splitting.waiting.append(PendingSplit(token: takeToken(for: call), owner: call.principal, payload: call.payload, bytes: bytes))
        startSplits()
    }

    /// Starts waiting splits while fewer than `maxConcurrentSplits` run.
    private func startSplits() {
        while splitting.running < configuration.maxConcurrentSplits, let next = splitting.waiting.popFirst() {
            splitting.running += 1
            let splitter = configuration.splitter
            let allowList = configuration.webhooks?.allowList
            let spoolDirectory = configuration.journalPath.map { ($0 as NSString).deletingLastPathComponent }
            guard let shared else { return }  // the server is gone
            splitPool.submit { _ in
                let outcome = Self.checkDiskSpace(for: next.bytes, in: spoolDirectory)
                    .flatMap { Self.decodeAndSplit(next.payload, with: splitter, callbacks: allowList) }
                shared.execute { $0.splitFinished(next, outcome) }
            }
        }
    }

    private func splitFinished(_ split: PendingSplit,
                               _ outcome: Result<(request: SubmitJobRequest, pages: [PageDescriptor], digest: UInt64), OCRError>) {
        splitting.running -= 1
        splitting.bytes -= split.bytes
        admit(split.token, split.owner, outcome)
        startSplits()
    }

    /// Room on the journal's disk for a submission of `bytes` (its files go to the spool): the
    /// bytes and a fifth more, plus 64 MB for the journal's own growth. RESOURCE_EXHAUSTED naming
    /// the directory otherwise, before the journal could fail on it. Runs on the split pool.
    private static func checkDiskSpace(for bytes: Int, in directory: String?) -> Result<Void, OCRError> {
        guard let directory else { return .success(()) }
        var info = statvfs()
        guard statvfs(directory.isEmpty ? "." : directory, &info) == 0 else { return .success(()) }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        let needed = UInt64(bytes) + UInt64(bytes) / 5 + (64 << 20)
        guard free < needed else { return .success(()) }
        return .failure(OCRError(.resourceExhausted, "the journal's disk is full: \(ByteCount.text(free)) free in \(directory), "
                                 + "\(ByteCount.text(needed)) needed for this submission", details: ["free_bytes": "\(free)", "needed_bytes": "\(needed)"]))
    }

    /// A submission decoded and validated, the pages of its files selected by its page ranges,
    /// and its digest. Runs on the split pool.
    private static func decodeAndSplit(_ payload: RequestPayload, with splitter: @Sendable (InputFile) throws -> [PageDescriptor],
                                       callbacks: WebhookAllowList?)
        -> Result<(request: SubmitJobRequest, pages: [PageDescriptor], digest: UInt64), OCRError> {
        let request: SubmitJobRequest
        do {
            request = try payload.decode(as: SubmitJobRequest.self)
            try SubmitValidation.validate(request)
            try SubmitValidation.checkCallback(request.callbackUrl, allowedBy: callbacks)
        } catch let error as OCRError {
            return .failure(error)
        } catch {
            return .failure(OCRError(.invalidArgument, "SubmitJob: request does not parse as SubmitJobRequest: \(error)"))
        }
        return split(request, with: splitter).map { (request, $0.pages, digest(request, fileDigests: $0.fileDigests)) }
    }

    /// The pages of every file of `request`, selected by its page ranges, and each file's SHA-256
    /// (the splitter's, so an upload is hashed once; computed here for splitters that give none).
    private static func split(_ request: SubmitJobRequest, with splitter: @Sendable (InputFile) throws -> [PageDescriptor])
        -> Result<(pages: [PageDescriptor], fileDigests: [String]), OCRError> {
        do {
            var pages: [PageDescriptor] = []
            var fileDigests: [String] = []
            for file in request.files {
                let filePages = try splitter(file)
                fileDigests.append(filePages.first.map(\.digest).flatMap { $0.isEmpty ? nil : $0 } ?? FileDigest.sha256(file.content))
                pages += filePages
            }
            if pages.isEmpty { throw OCRError(.invalidArgument, "the files hold no pages") }
            return .success((try SubmitValidation.selectPages(pages, ranges: request.options?.pageRanges ?? []), fileDigests))
        } catch let error as OCRError {
            return .failure(error)
        } catch {
            return .failure(OCRError(.internal, "splitting failed: \(error)"))
        }
    }

    private func admit(_ token: UInt64, _ owner: String,
                       _ outcome: Result<(request: SubmitJobRequest, pages: [PageDescriptor], digest: UInt64), OCRError>) {
        switch outcome {
        case .failure(let error):
            logger.info("job refused", ["error": error])
            pendingReplies.removeValue(forKey: token)?.fail(error)
        case .success(let (request, pages, digest)):
            let submission = JobSubmission(request: token, jobID: Self.newJobID(), owner: owner, submit: request, pages: pages,
                                           requestDigest: digest)
            apply(scheduler.handle(.submitJob(submission), now: now))
        }
    }

    static func newJobID() -> String {
        var rng = SystemRandomNumberGenerator()
        return "job-" + String(rng.next() & 0xFFFF_FFFF_FFFF, radix: 16)
    }

    /// FNV-1a over the request with each file's content replaced by its SHA-256 (no copy of
    /// the uploads): a reused job_key with different content is ALREADY_EXISTS.
    static func digest(_ request: SubmitJobRequest, fileDigests: [String]) -> UInt64 {
        var header = request
        for i in header.files.indices { header.files[i].content = Array(fileDigests[i].utf8) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in header.serializedBytes() {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash | 1
    }
}

/// A submission admitted and waiting for the split pool.
struct PendingSplit: Sendable {
    var token: UInt64
    var owner: String
    /// The SubmitJobRequest as received, copied (if large) and decoded on the split pool.
    var payload: RequestPayload
    var bytes: Int
}

/// Submissions being split or waiting for the pool, and their bytes (loop thread only).
struct SplitAdmission {
    var running = 0
    var waiting = Deque<PendingSplit>()
    var bytes = 0
}
