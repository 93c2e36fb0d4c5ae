import Foundation
import OCRBasics
import OCRRPC
import OCRZeroMQ
import OCRWire

/// The Swift client of an ocr-cluster coordinator: submit scans, watch them progress, fetch the
/// merged document, cancel, and look at the cluster.
///
/// ```swift
/// let client = try OCRClient(endpoint: "tcp://coordinator:5555")
/// let job = try await client.submit(files: [URL(fileURLWithPath: "scan.tiff")])
/// let document = try await client.document(for: job)
/// print(try DocumentFormat.txt.render(document))
/// ```
///
/// Calls are `async`; one client multiplexes any number of concurrent calls over one ZeroMQ
/// DEALER socket owned by its own thread. Errors are `OCRError`s with gRPC status codes
/// (UNAVAILABLE when the coordinator does not answer).
public final class OCRClient: Sendable {
    /// The coordinator endpoint this client talks to (several separated by commas).
    public let endpoint: String
    let rpc: RPCClient
    /// Deadline for unary calls (SubmitJob with large files may need more).
    public let callTimeout: Duration
    /// A WatchJob stream with no message for this long is considered lost (the coordinator
    /// sends a keepalive after 5 s of silence, so 20 s is about three missed keepalives);
    /// `document(for:)` then re-attaches.
    public let watchIdleTimeout: Duration
    /// How `document(for:)` re-attaches when its event stream fails with UNAVAILABLE.
    public let reattach: ReattachPolicy
    /// The coordinator's largest message, once a Health answer said it (0: unknown).
    private let maxMessageBytes = Locked<UInt64>(0)

    /// - Parameters:
    ///   - endpoint: the coordinator's client endpoint; several separated by commas for
    ///     coordinators that share a journal (as `init(endpoints:)`).
    ///   - security: CURVE towards a coordinator that requires it (its public key and this
    ///     client's key pair); nil: plain TCP.
    public init(endpoint: String, callTimeout: Duration = .seconds(60), watchIdleTimeout: Duration = .seconds(20),
                reattach: ReattachPolicy = ReattachPolicy(), security: CurveClientSecurity? = nil) throws {
        self.endpoint = endpoint
        self.callTimeout = callTimeout
        self.watchIdleTimeout = watchIdleTimeout
        self.reattach = reattach
        self.rpc = try RPCClient(endpoint: endpoint) { socket in try security?.apply(to: socket) }
    }

    /// A client of coordinators that share a PostgreSQL journal, of which one leads and the
    /// others stand by without binding: calls go to whichever leads (the connection whose
    /// handshake completed), a leader that stops answering is dropped after 3 s of missed
    /// ZeroMQ heartbeats, and `document(for:)` and `followEvents(forJobID:)` re-attach to their
    /// job at the new leader.
    public convenience init(endpoints: [String], callTimeout: Duration = .seconds(60), watchIdleTimeout: Duration = .seconds(20),
                            reattach: ReattachPolicy = ReattachPolicy(), security: CurveClientSecurity? = nil) throws {
        try self.init(endpoint: endpoints.joined(separator: ","), callTimeout: callTimeout, watchIdleTimeout: watchIdleTimeout,
                      reattach: reattach, security: security)
    }

    /// A client on `context` (an in-process endpoint of the coordinator in the same process;
    /// the context stays its owner's). For the coordinator's HTTP gateway.
    package init(endpoint: String, context: ZMQContext, callTimeout: Duration = .seconds(120)) throws {
        self.endpoint = endpoint
        self.callTimeout = callTimeout
        self.watchIdleTimeout = .seconds(60)
        self.reattach = ReattachPolicy(attempts: 0)
        self.rpc = try RPCClient(endpoint: endpoint, context: context)
    }

    /// Closes the connection; calls in flight fail with CANCELLED.
    public func close() {
        rpc.close()
    }

    // MARK: Jobs

    /// Submits files (paths of images, multipage TIFFs, PDFs, or directories of images, read in
    /// name order) as one job.
    public func submit(files: [URL], options: RecognitionOptions = RecognitionOptions(),
                       jobKey: String? = nil, priority: Int = 0, timeout: Duration? = nil) async throws -> Job {
        try await submit(inputs: InputFile.loading(files), options: options, jobKey: jobKey, priority: priority, timeout: timeout)
    }

    /// Submits in-memory files as one job.
    ///
    /// Options that are not valid (an unknown level, a value out of range) are refused before
    /// anything is sent, with the INVALID_ARGUMENT the coordinator would give (`details["field"]`
    /// names the field).
    ///
    /// - Parameters:
    ///   - jobKey: an idempotency key: a second submission with the same key (by the same client)
    ///     returns the first job instead of starting another.
    ///   - priority: higher runs first among this client's jobs (the wire's int32; clamped).
    ///   - timeout: the job fails with DEADLINE_EXCEEDED when not finished by then.
    ///   - maxAttempts: how often a page may be tried before it fails; nil: the coordinator's.
    ///   - callbackURL: when the job finishes, the coordinator POSTs its summary there (it must be
    ///     on the coordinator's `--webhook-allow` list; PERMISSION_DENIED otherwise).
    public func submit(inputs: [InputFile], options: RecognitionOptions = RecognitionOptions(),
                       jobKey: String? = nil, priority: Int = 0, timeout: Duration? = nil,
                       maxAttempts: Int? = nil, labels: [String: String] = [:], callbackURL: URL? = nil) async throws -> Job {
        try options.validate()  // Refused here as the coordinator would refuse them, before any upload.
        try await checkSize(of: inputs)
        let request = SubmitJobRequest.with {
            $0.files = inputs
            $0.options = options
            $0.jobKey = jobKey ?? ""
            $0.priority = Int32(clamping: priority)
            $0.timeoutMs = timeout.map { UInt64(max(0, $0.milliseconds)) } ?? 0
            $0.maxAttempts = UInt32(clamping: max(0, maxAttempts ?? 0))
            $0.labels = labels
            $0.callbackUrl = callbackURL?.absoluteString ?? ""
        }
        let response: SubmitJobResponse = try await call(.submitJob, request)
        return Job.with {
            $0.jobId = response.jobId
            $0.jobKey = jobKey ?? ""
            $0.pageCount = response.pageCount
            $0.state = .queued
            $0.priority = Int32(clamping: priority)
            $0.files = inputs.map(\.name)
            $0.options = options
        }
    }

    /// The job's events: page results and failures as they complete, progress, and a final
    /// `JobFinished`, after which the stream ends. `fromPage` replays earlier pages first (for
    /// re-attaching after a disconnect).
    public func events(for job: Job, fromPage: Int = 0) -> AsyncThrowingStream<JobEvent, any Error> {
        events(forJobID: job.jobId, fromPage: fromPage)
    }

    /// `events(for:)` by job id, for a job submitted elsewhere (`ocr-submit watch`).
    public func events(forJobID jobID: String, fromPage: Int = 0) -> AsyncThrowingStream<JobEvent, any Error> {
        events(forJobID: jobID, fromPage: UInt32(clamping: max(0, fromPage)), metadata: [:])
    }

    /// `events(forJobID:fromPage:)` with call metadata of the caller's (the gateway's principal).
    package func events(forJobID jobID: String, fromPage: UInt32, metadata: [String: String]) -> AsyncThrowingStream<JobEvent, any Error> {
        let request = WatchJobRequest.with { $0.jobId = jobID; $0.fromPage = fromPage }
        let raw = rpc.serverStream(CoordinatorMethod.watchJob.rawValue, request: request.serializedBytes(), idleTimeout: watchIdleTimeout,
                                   metadata: metadata.merging(Self.metadata) { mine, _ in mine })
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await bytes in raw {
                        continuation.yield(try JobEvent(serializedBytes: bytes))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Waits for the job to finish and returns its document: every recognised page in order,
    /// failed pages as gaps with their status. `progress` sees every event as it arrives. Follows
    /// the job across coordinator restarts as `followEvents(forJobID:)` does.
    ///
    /// Cancelling the task that waits cancels the job on the coordinator (CancelJob, as Ctrl-C in
    /// `ocr-submit` does) and throws `CancellationError`, unless `detached`: then the job runs on
    /// and its document can be fetched later.
    public func document(for job: Job, detached: Bool = false, progress: (@Sendable (JobEvent) -> Void)? = nil) async throws -> Document {
        var document = Document(pageCount: Int(job.pageCount), languages: job.options?.languages.split(separator: "+").map(String.init) ?? [])
        do {
            for try await event in followEvents(forJobID: job.jobId) {
                document.apply(event)
                progress?(event)
                if event.finished != nil { return document }
            }
            try Task.checkCancellation()  // A cancelled task's stream ends early.
            throw OCRError(.unavailable, "the event stream of job \(job.jobId) ended without JobFinished")
        } catch where Task.isCancelled {
            if !detached {
                // On a task of its own: this one is cancelled, and the call must still be made.
                _ = await Task.detached { [self] in try? await cancel(jobID: job.jobId) }.value
            }
            throw CancellationError()
        }
    }

    /// The job's events until `JobFinished`, like `events(forJobID:)`, but surviving a lost
    /// coordinator: when the stream fails with UNAVAILABLE (the coordinator restarted, the
    /// connection dropped, or nothing came for `watchIdleTimeout`) it re-attaches with
    /// `WatchJob(job_id, from_page)` from the lowest page it does not have yet, after
    /// `reattach`'s backoff, up to `reattach.attempts` times in a row (any event received resets
    /// the count). Page events replayed after a re-attach are passed on once.
    public func followEvents(forJobID jobID: String) -> AsyncThrowingStream<JobEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task { [reattach] in
                var seen = Set<UInt32>()
                var lowestMissing: UInt32 = 0
                var failures = 0
                do {
                    while true {
                        do {
                            for try await event in events(forJobID: jobID, fromPage: Int(lowestMissing)) {
                                failures = 0
                                let page: UInt32? = switch event.event {
                                case .pageCompleted(let c)?: c.result?.pageIndex ?? 0
                                case .pageFailed(let f)?: f.pageIndex
                                default: nil
                                }
                                if let page {
                                    guard seen.insert(page).inserted else { continue }  // replayed after a re-attach
                                    while seen.contains(lowestMissing) { lowestMissing += 1 }
                                }
                                continuation.yield(event)
                                if event.finished != nil {
                                    continuation.finish()
                                    return
                                }
                            }
                            throw OCRError(.unavailable, "the event stream of job \(jobID) ended without JobFinished")
                        } catch let error as OCRError where error.code == .unavailable && failures < reattach.attempts {
                            try await Task.sleep(for: reattach.delay(afterFailures: failures))
                            failures += 1
                        }
                    }
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// GetJob: the job as the coordinator has it now (with every page's state when asked).
    public func job(_ jobID: String, includePageStates: Bool = false) async throws -> Job {
        try await call(.getJob, GetJobRequest.with { $0.jobId = jobID; $0.includePageStates = includePageStates })
    }

    /// Cancels the job: queued pages are dropped, running pages are stopped on their workers.
    @discardableResult
    public func cancel(_ job: Job) async throws -> Job {
        try await cancel(jobID: job.jobId)
    }

    @discardableResult
    /// CancelJob by id: the job as it is after the cancel.
    public func cancel(jobID: String) async throws -> Job {
        try await call(.cancelJob, CancelJobRequest.with { $0.jobId = jobID })
    }

    /// DeleteJob: forgets a finished job and everything kept of it (results, journal rows,
    /// uploads no other job uses). A running job must be cancelled first (FAILED_PRECONDITION).
    public func delete(jobID: String) async throws {
        let _: DeleteJobResponse = try await call(.deleteJob, DeleteJobRequest.with { $0.jobId = jobID })
    }

    /// ListJobs: the newest `limit` jobs, only those in `states` when any are given.
    public func jobs(limit: Int = 100, states: [JobState] = []) async throws -> [Job] {
        try await jobPage(limit: limit, states: states).jobs
    }

    /// One page of ListJobs, newest first, after the page whose `nextPageToken` is `pageToken`
    /// (nil for the first); its `nextPageToken` is nil on the last page.
    public func jobPage(limit: Int = 100, states: [JobState] = [], pageToken: String? = nil) async throws -> (jobs: [Job], nextPageToken: String?) {
        let response: ListJobsResponse = try await call(.listJobs, ListJobsRequest.with {
            $0.limit = UInt32(clamping: max(0, limit))
            $0.states = states
            $0.pageToken = pageToken ?? ""
        })
        return (response.jobs, response.nextPageToken.isEmpty ? nil : response.nextPageToken)
    }

    // MARK: Cluster

    /// ClusterStatus: workers, slots, queue depth and throughput.
    public func clusterStatus() async throws -> ClusterStatusResponse {
        try await call(.clusterStatus, ClusterStatusRequest())
    }

    /// grpc.health-style check. A short `timeout` makes it a quick reachability probe.
    public func health(timeout: Duration? = nil) async throws -> HealthCheckResponse.ServingStatus {
        let response: HealthCheckResponse = try await call(.health, HealthCheckRequest(), timeout: timeout)
        maxMessageBytes.withLock { $0 = response.maxMessageBytes }
        return response.status
    }

    /// A submission larger than the coordinator's message limit never arrives (ZeroMQ closes
    /// the connection, which looks like an unreachable coordinator): RESOURCE_EXHAUSTED naming
    /// both sizes instead, before anything is sent.
    private func checkSize(of inputs: [InputFile]) async throws {
        if maxMessageBytes.withLock({ $0 }) == 0 { _ = try await health(timeout: .seconds(10)) }
        let limit = maxMessageBytes.withLock { $0 }
        let size = inputs.reduce(64 << 10) { $0 + $1.content.count + $1.name.utf8.count + 16 }  // options and framing: well under 64 KiB
        guard limit > 0, UInt64(size) > limit else { return }
        throw OCRError(.resourceExhausted, "the submission is \(ByteCount.text(size)); the coordinator at \(endpoint) accepts messages of at most "
                       + "\(ByteCount.text(limit)) (its --max-message-mb): submit the files as several jobs",
                       details: ["submission_bytes": "\(size)", "max_message_bytes": "\(limit)"])
    }

    // MARK: Plumbing

    /// What every call says about its caller.
    static let metadata = ["client": "OCRClient/\(OCRClientVersion.current)"]

    /// One unary RPC; `metadata` is added to the client's own (the gateway names a principal).
    package func call<Request: ProtoMessage, Response: ProtoMessage>(_ method: CoordinatorMethod, _ request: Request,
                                                                     timeout: Duration? = nil, metadata: [String: String] = [:]) async throws -> Response {
        let bytes = try await rpc.unary(method.rawValue, request: request.serializedBytes(), timeout: timeout ?? callTimeout,
                                        metadata: metadata.merging(Self.metadata) { mine, _ in mine })
        do {
            return try Response(serializedBytes: bytes)
        } catch {
            throw OCRError(.internal, "\(method.rawValue): the response does not parse: \(error)")
        }
    }
}

/// The version reported in call metadata and documents.
public enum OCRClientVersion {
    /// This library's version.
    public static let current = ProductVersion.current
}


/// How `OCRClient.document(for:)` re-attaches to a job whose event stream failed with
/// UNAVAILABLE: exponential backoff from `initialDelay`, capped at `maxDelay`, at most
/// `attempts` consecutive tries (0: never re-attach).
public struct ReattachPolicy: Sendable, Equatable {
    /// Consecutive re-attach tries before giving up (0: never re-attach).
    public var attempts: Int
    /// Wait before the first re-attach; doubled after each failed try.
    public var initialDelay: Duration
    /// Longest wait between two tries.
    public var maxDelay: Duration

    /// The default waits about 40 s in all (0.25, 0.5, 1, 2, 4, then 5 s x 7) for a coordinator
    /// that restarts: a dropped connection is noticed at once, so the tries must cover the
    /// restart itself (a process supervisor or a rescheduled container).
    public init(attempts: Int = 12, initialDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(5)) {
        self.attempts = attempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// The wait before try `failures + 1`: initialDelay x 2^failures, at most maxDelay.
    public func delay(afterFailures failures: Int) -> Duration {
        var delay = initialDelay
        for _ in 0..<min(failures, 30) where delay < maxDelay { delay *= 2 }
        return min(delay, maxDelay)
    }
}
