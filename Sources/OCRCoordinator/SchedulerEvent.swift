import OCRPages
import OCRWire

/// The ZeroMQ routing identity of a worker's DEALER as the coordinator's ROUTER reports it.
/// A worker that reconnects gets a fresh socket, hence a fresh identity.
package struct WorkerIdentity: Hashable, Sendable, CustomStringConvertible {
    package var bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package var description: String { bytes.map { String($0, radix: 16) }.joined() }
}

/// A validated, split `SubmitJobRequest`. The shell chooses `jobID` (a random id; the state
/// machine draws no random numbers) and `request`, an opaque token echoed in the reply directive.
package struct JobSubmission: Sendable {
    package var request: UInt64
    /// The job as asked for (`maxAttempts` 0: the settings' default).
    package var spec: JobSpec
    /// Pages in job order; page index = position.
    package var pages: [PageDescriptor]
    /// Whole-job deadline from acceptance; nil: none.
    package var timeout: Duration?

    package init(request: UInt64 = 0, jobID: String, jobKey: String = "", owner: String = "", files: [String] = [],
                pages: [PageDescriptor], options: RecognitionOptions? = nil, priority: Int32 = 0,
                timeout: Duration? = nil, maxAttempts: UInt32 = 0, labels: [String: String] = [:],
                callbackURL: String = "", requestDigest: UInt64 = 0) {
        self.request = request
        self.spec = JobSpec(jobID: jobID, jobKey: jobKey, owner: owner, files: files.isEmpty ? Self.fileNames(of: pages) : files,
                            options: options, priority: priority, maxAttempts: maxAttempts, labels: labels,
                            callbackURL: callbackURL, requestDigest: requestDigest)
        self.pages = pages
        self.timeout = timeout
    }

    /// From the wire request and the pages the splitter made of its files.
    package init(request: UInt64, jobID: String, owner: String = "", submit: SubmitJobRequest, pages: [PageDescriptor],
                requestDigest: UInt64 = 0) {
        self.init(request: request, jobID: jobID, jobKey: submit.jobKey, owner: owner, files: submit.files.map(\.name),
                  pages: pages, options: submit.options, priority: submit.priority,
                  timeout: submit.timeoutMs == 0 ? nil : .milliseconds(Int64(clamping: submit.timeoutMs)),
                  maxAttempts: submit.maxAttempts, labels: submit.labels, callbackURL: submit.callbackUrl, requestDigest: requestDigest)
    }

    private static func fileNames(of pages: [PageDescriptor]) -> [String] {
        var names: [String] = []
        for page in pages where names.last != page.file { names.append(page.file) }
        return names
    }
}

/// Everything that can happen to the scheduler. Time is passed to `Scheduler.handle(_:now:)`.
package enum SchedulerEvent: Sendable {
    /// A worker announced itself (`WorkerMessage.ready`).
    /// `peerKey`: the CURVE public key (Z85) the connection authenticated with, "" without
    /// CURVE. A worker_uid already connected is taken over only by the same key.
    case workerReady(WorkerIdentity, Ready, peerKey: String = "")
    /// A heartbeat (or any message proving the worker is alive).
    case workerHeartbeat(WorkerIdentity)
    /// The worker said `Disconnect`, or the shell lost it. Its tasks are requeued without
    /// counting a failure.
    case workerDisconnected(WorkerIdentity)
    /// The shell could not deliver to this worker (its connection is gone: the process died or
    /// the machine went away). Like a heartbeat expiry, its held pages count a failed attempt,
    /// so a page that kills every worker it lands on ends FAILED instead of killing them all.
    case workerLost(WorkerIdentity, reason: String)
    /// Frames from this identity did not parse or broke the protocol: it gets `Disconnect` and
    /// is forgotten (its tasks requeued as failed attempts).
    case workerProtocolError(WorkerIdentity, reason: String)
    /// The outcome of a `PageTask` (`WorkerMessage.result`).
    case taskResult(WorkerIdentity, TaskResult)
    /// A client's SubmitJob; answered with `.submitReply`.
    case submitJob(JobSubmission)
    /// A client's CancelJob; answered with `.cancelReply`. A job `access` may not see is NOT_FOUND.
    case cancelJob(request: UInt64, jobID: String, access: JobAccess = .everyone)
    /// A client's DeleteJob; answered with `.deleteReply`. A final job is evicted at once (its
    /// journal rows go with it); a running one is FAILED_PRECONDITION.
    case deleteJob(request: UInt64, jobID: String, access: JobAccess = .everyone)
    /// The timer the last `.scheduleTick` asked for fired (early or late ticks are harmless).
    case tick
    /// The journal is over its size budget: evict up to this many of the oldest finished jobs
    /// (their rows are deleted, so new ones reuse the space).
    case evictFinished(count: Int)

    /// Maps a decoded worker message to its event. A message without a command is a protocol
    /// error (the worker gets `Disconnect`).
    package init(from identity: WorkerIdentity, message: WorkerMessage, peerKey: String = "") {
        switch message.command {
        case .ready(let ready)?: self = .workerReady(identity, ready, peerKey: peerKey)
        case .heartbeat?: self = .workerHeartbeat(identity)
        case .result(let result)?: self = .taskResult(identity, result)
        case .disconnect?: self = .workerDisconnected(identity)
        case nil: self = .workerProtocolError(identity, reason: "empty worker message")
        }
    }
}
