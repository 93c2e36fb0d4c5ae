import OCRPages
import OCRWire

/// A job as accepted: everything `JobChange.accepted` needs to create it with every page
/// PENDING.
package struct AcceptedJob: Sendable {
    /// The job as asked for, `maxAttempts` resolved.
    package var spec: JobSpec
    package var pages: [PageDescriptor]
    /// Absolute deadline (time since the coordinator started); nil: none.
    package var deadline: Duration?
    package var createdAt: Duration
    package var createdUnixMs: Int64

    package init(spec: JobSpec, pages: [PageDescriptor], deadline: Duration?, createdAt: Duration, createdUnixMs: Int64) {
        self.spec = spec
        self.pages = pages
        self.deadline = deadline
        self.createdAt = createdAt
        self.createdUnixMs = createdUnixMs
    }

    package init(jobID: String, jobKey: String, owner: String = "", files: [String], pages: [PageDescriptor],
                options: RecognitionOptions?, priority: Int32, maxAttempts: UInt32, deadline: Duration?,
                labels: [String: String], callbackURL: String = "", requestDigest: UInt64, createdAt: Duration, createdUnixMs: Int64) {
        self.init(spec: JobSpec(jobID: jobID, jobKey: jobKey, owner: owner, files: files, options: options, priority: priority,
                                maxAttempts: maxAttempts, labels: labels, callbackURL: callbackURL, requestDigest: requestDigest),
                  pages: pages, deadline: deadline, createdAt: createdAt, createdUnixMs: createdUnixMs)
    }
}

/// One change of job or page state. `JobStore.apply(_:)` is the only way jobs and pages change,
/// so a journal that persists these changes in order, and replays them into an empty store,
/// gets the same jobs back.
///
/// A change is only applied when the transition is legal (see `JobStore` for the tables); an
/// illegal one (a duplicate result, a change for an evicted job) is ignored and `apply` returns
/// `false` from `applied`.
package enum JobChange: Sendable {
    /// A new job; every page PENDING. Job: (none) -> QUEUED.
    case accepted(AcceptedJob)
    /// Page PENDING -> DISPATCHED with `attempt + 1`, to the worker with this uid.
    /// Job QUEUED -> RUNNING on its first dispatch.
    case dispatched(jobID: String, page: Int, workerUID: UInt64, at: Duration)
    /// Page DISPATCHED -> PENDING. With a `failure` the attempt counts against `max_attempts`;
    /// without one (a worker returned the page or left politely) it does not.
    case requeued(jobID: String, page: Int, failure: Status?, at: Duration)
    /// Page PENDING|DISPATCHED -> DONE: the first result for (job, page).
    case completed(jobID: String, page: Int, result: PageResult, at: Duration)
    /// Page PENDING|DISPATCHED -> FAILED for good.
    case failed(jobID: String, page: Int, status: Status, at: Duration)
    /// Job QUEUED|RUNNING -> `state` (SUCCEEDED, PARTIAL, FAILED, CANCELLED or EXPIRED); every
    /// page not yet final -> CANCELLED.
    case finished(jobID: String, state: JobState, status: Status, unixMs: Int64, at: Duration)
    /// A finished job leaves memory (retention limit).
    case evicted(jobID: String)
}
