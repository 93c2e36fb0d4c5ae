import Dispatch
import Foundation
import OCRLog
import OCRPages
import OCRTransport
import OCRWire

/// A running coordinator: the shell around `Scheduler`. One `SocketLoop` thread owns both
/// ROUTER sockets (clients and workers), the scheduler and the watchers, so the state machine
/// sees one event at a time; splitting submitted files runs on other threads and comes back
/// through the loop.
public final class CoordinatorServer: Sendable {
    /// The endpoints actually bound (real ports when configured with `:*`).
    public let clientEndpoint: String
    public let workerEndpoint: String
    let loop: SocketLoop
    let context: ZMQContext
    let core: CoordinatorCore

    /// Binds both endpoints and starts serving; with `journalPath`, first restores the jobs of
    /// the journal. Throws `TransportError` when an endpoint cannot be bound, `SQLiteError` or
    /// `JournalError` when the journal cannot be opened (another coordinator holds it) or read
    /// (startup failures, not `OCRError`s).
    public init(_ configuration: CoordinatorConfiguration) throws {
        let context = try ZMQContext()
        let logger = configuration.logger
        let loop = SocketLoop(context: context, name: "ocr.coordinator") { error in
            logger.warning("transport", ["error": error])
        }
        self.context = context
        self.loop = loop
        core = try loop.start { control in try CoordinatorCore(configuration, control: control) }
        clientEndpoint = core.rpc.endpoint
        workerEndpoint = core.workerEndpoint
        logger.info("coordinator listening", ["clients": clientEndpoint, "workers": workerEndpoint])
    }

    /// Stops serving: open calls end with UNAVAILABLE, sockets close, the loop thread exits.
    public func stop() {
        loop.execute { [core] _ in core.shutdown() }
        loop.stop()
        context.terminate()
    }
}

/// The coordinator's loop-thread state. `@unchecked Sendable` only so closures can carry it to
/// the loop thread; every use happens there.
final class CoordinatorCore: @unchecked Sendable {
    let configuration: CoordinatorConfiguration
    let logger: Logger
    let control: SocketLoop.Control
    let rpc: RPCServer
    let workerSocket: SocketID
    let workerEndpoint: String
    let started = ContinuousClock.now
    var scheduler: Scheduler
    /// The write-ahead journal (`--journal`); nil: state lives in memory only.
    let journal: Journal?
    var tickTimer: TimerID?
    /// WatchJob calls by job id.
    var watchers: [String: [RPCServerCall]] = [:]
    var lastSentToWatcher: [RPCServer.CallKey: ContinuousClock.Instant] = [:]
    /// SubmitJob and CancelJob calls waiting for the scheduler's reply directive.
    var pendingReplies: [UInt64: RPCServerCall] = [:]
    var nextRequestToken: UInt64 = 0
    let splitQueue = DispatchQueue(label: "ocr.coordinator.split", attributes: .concurrent)

    init(_ configuration: CoordinatorConfiguration, control: SocketLoop.Control) throws {
        self.configuration = configuration
        self.logger = configuration.logger
        self.control = control
        let unixMs = Int64(Date().timeIntervalSince1970 * 1000)
        var settings = configuration.scheduler
        settings.journalChanges = configuration.journalPath != nil
        self.scheduler = Scheduler(settings: settings, startedAtUnixMs: unixMs)
        journal = try configuration.journalPath.map {
            try Journal(path: $0, startedAtUnixMs: unixMs, sync: configuration.journalSync)
        }
        let security = configuration.security
        if let security {
            // The authenticator must be in place before the CURVE sockets bind.
            try ZAPHandler.install(on: control) { request in
                let allowed = security.authorize(request)
                if !allowed {
                    configuration.logger.warning("refused a connection", ["domain": request.domain, "address": request.address,
                                                                         "key": request.clientKey?.z85 ?? "none"])
                }
                return allowed
            }
        }
        rpc = try RPCServer(bind: configuration.clientEndpoint, control: control,
                            maxMessageBytes: configuration.maxMessageBytes,
                            streamingMethods: [CoordinatorMethod.watchJob.rawValue]) { socket in
            try security?.apply(to: socket, domain: CurveServerSecurity.clientDomain)
        }
        let workers = try control.context.makeSocket(.router)
        try security?.apply(to: workers, domain: CurveServerSecurity.workerDomain)
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
        if let journal, let path = configuration.journalPath {
            let changes = try journal.load()
            apply(scheduler.restore(changes, now: now))
            logger.info("journal restored", ["path": path, "changes": changes.count,
                                             "jobs": scheduler.listJobs(ListJobsRequest.with { $0.limit = UInt32.max }).jobs.count,
                                             "active_jobs": scheduler.store.activeJobs, "queued_pages": scheduler.store.queuedPages])
        }
        apply(scheduler.handle(.tick, now: now))
    }

    var now: Duration { ContinuousClock.now - started }

    func shutdown() {
        rpc.endAll(OCRError(.unavailable, "the coordinator is shutting down"))
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
            logger.info("worker ready", ["uid": String(ready.workerUid, radix: 16), "slots": ready.slots, "host": ready.hostname])
        }
        apply(scheduler.handle(SchedulerEvent(from: identity, message: message), now: now))
    }

    // MARK: Directives

    func apply(_ directives: [SchedulerDirective]) {
        if let journal { persist(directives, to: journal) }
        var lostWorkers: [WorkerIdentity] = []
        for directive in directives {
            if case .sendDisconnect(let identity, let reason) = directive {
                logger.warning("disconnecting a worker", ["identity": identity, "reason": reason])
            }
            if let (identity, message) = directive.coordinatorMessage {
                let frames = [identity.bytes, WorkerEnvelope.signature, message.serializedBytes()]
                let sent = (try? control.send(frames, on: workerSocket)) ?? false
                if !sent { lostWorkers.append(identity) }
                continue
            }
            switch directive {
            case .emit(let event):
                deliver(event)
            case .submitReply(let token, let result):
                guard let call = pendingReplies.removeValue(forKey: token) else { break }
                switch result {
                case .success(let response):
                    logger.info("job accepted", ["job": response.jobId, "pages": response.pageCount, "existing": response.existing])
                    call.respond(response)
                case .failure(let error): call.fail(error)
                }
            case .cancelReply(let token, let result):
                guard let call = pendingReplies.removeValue(forKey: token) else { break }
                switch result {
                case .success(let job): call.respond(job)
                case .failure(let error): call.fail(error)
                }
            case .scheduleTick(let at):
                if let tickTimer { control.cancelTimer(tickTimer) }
                tickTimer = control.schedule(at: started + at) { [weak self] _ in
                    guard let self else { return }
                    self.tickTimer = nil
                    self.apply(self.scheduler.handle(.tick, now: self.now))
                }
            case .journal:
                break  // already persisted by `persist` before any other directive
            default:
                break
            }
        }
        // A worker whose socket is gone (or whose queue is full) is lost: requeue its pages.
        for identity in lostWorkers where scheduler.workerLoad(identity) != nil {
            logger.warning("worker unreachable", ["identity": identity])
            apply(scheduler.handle(.workerLost(identity, reason: "unreachable"), now: now))
        }
    }

    /// Write-ahead: the event's changes are committed in one transaction before any of its
    /// other directives (a task sent, a result streamed, a reply) is carried out. A journal that
    /// cannot be written stops the coordinator (fail-stop): carrying on would tell clients about
    /// state a restart would not have; the restart replays what was committed.
    func persist(_ directives: [SchedulerDirective], to journal: Journal) {
        var changes: [JobChange] = []
        for case .journal(let change) in directives { changes.append(change) }
        guard !changes.isEmpty else { return }
        do {
            try journal.append(changes)
        } catch {
            logger.error("journal write failed; stopping", ["error": error])
            fatalError("ocr-coordinator: journal write failed: \(error)")
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
        for (jobID, calls) in watchers {
            guard let job = scheduler.store.job(jobID) else { continue }
            for call in calls where stamp - (lastSentToWatcher[call.key] ?? started) >= configuration.watchKeepalive {
                call.send(JobEvent.with {
                    $0.jobId = jobID
                    $0.event = .progress(JobProgress.with {
                        $0.pageCount = job.pageCount
                        $0.pagesDone = job.pagesDone
                        $0.pagesFailed = job.pagesFailed
                    })
                })
                lastSentToWatcher[call.key] = stamp
            }
        }
    }

    // MARK: Client link

    func installHandlers() {
        rpc.handle(CoordinatorMethod.health.rawValue) { call in
            guard call.request(as: HealthCheckRequest.self) != nil else { return }
            call.respond(HealthCheckResponse.with { $0.status = .serving })
        }
        rpc.handle(CoordinatorMethod.getJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: GetJobRequest.self) else { return }
            switch scheduler.getJob(request) {
            case .success(let job): call.respond(job)
            case .failure(let error): call.fail(error)
            }
        }
        rpc.handle(CoordinatorMethod.listJobs.rawValue) { [unowned self] call in
            guard let request = call.request(as: ListJobsRequest.self) else { return }
            call.respond(scheduler.listJobs(request))
        }
        rpc.handle(CoordinatorMethod.clusterStatus.rawValue) { [unowned self] call in
            guard call.request(as: ClusterStatusRequest.self) != nil else { return }
            call.respond(scheduler.clusterStatus(now: now))
        }
        rpc.handle(CoordinatorMethod.cancelJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: CancelJobRequest.self) else { return }
            let token = takeToken(for: call)
            logger.info("cancel requested", ["job": request.jobId])
            apply(scheduler.handle(.cancelJob(request: token, jobID: request.jobId), now: now))
        }
        rpc.handle(CoordinatorMethod.watchJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: WatchJobRequest.self) else { return }
            watch(call, request)
        }
        rpc.handle(CoordinatorMethod.submitJob.rawValue) { [unowned self] call in
            guard let request = call.request(as: SubmitJobRequest.self) else { return }
            submit(call, request)
        }
    }

    func takeToken(for call: RPCServerCall) -> UInt64 {
        nextRequestToken += 1
        pendingReplies[nextRequestToken] = call
        let token = nextRequestToken
        call.onCancel { [weak self] in self?.pendingReplies[token] = nil }
        return token
    }

    func watch(_ call: RPCServerCall, _ request: WatchJobRequest) {
        switch scheduler.watchReplay(request) {
        case .failure(let error):
            call.fail(error)
        case .success(let (events, finished)):
            for event in events { call.send(event) }
            if finished {
                call.finish()
                return
            }
            watchers[request.jobId, default: []].append(call)
            lastSentToWatcher[call.key] = ContinuousClock.now
            call.onCancel { [weak self] in
                self?.watchers[request.jobId]?.removeAll { $0 === call }
                self?.lastSentToWatcher[call.key] = nil
            }
        }
    }

    /// Validates, then splits the files on another thread (TIFF directories and PDF page counts
    /// take time), then hands the job to the scheduler on the loop thread.
    func submit(_ call: RPCServerCall, _ request: SubmitJobRequest) {
        do {
            try SubmitValidation.validate(request)
        } catch {
            call.fail(error)
            return
        }
        let token = takeToken(for: call)
        let splitter = configuration.splitter
        let loop = control.loop
        splitQueue.async {
            let outcome: Result<[PageDescriptor], OCRError>
            do {
                var pages: [PageDescriptor] = []
                for file in request.files {
                    pages += try splitter(file)
                }
                if pages.isEmpty { throw OCRError(.invalidArgument, "the files hold no pages") }
                outcome = .success(try SubmitValidation.selectPages(pages, ranges: request.options?.pageRanges ?? []))
            } catch let error as OCRError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(OCRError(.internal, "splitting failed: \(error)"))
            }
            loop.execute { [self] _ in
                let core = self
                switch outcome {
                case .failure(let error):
                    core.logger.info("job refused", ["error": error])
                    core.pendingReplies.removeValue(forKey: token)?.fail(error)
                case .success(let pages):
                    let submission = JobSubmission(request: token, jobID: Self.newJobID(), submit: request, pages: pages,
                                                   requestDigest: Self.digest(request))
                    core.apply(core.scheduler.handle(.submitJob(submission), now: core.now))
                }
            }
        }
    }

    static func newJobID() -> String {
        var rng = SystemRandomNumberGenerator()
        return "job-" + String(rng.next() & 0xFFFF_FFFF_FFFF, radix: 16)
    }

    /// FNV-1a over the request bytes: a reused job_key with different content is ALREADY_EXISTS.
    static func digest(_ request: SubmitJobRequest) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in request.serializedBytes() {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash | 1
    }
}
