import OCRWire

/// Tunables of the scheduler and the job store. The defaults are those of `DESIGN.md`.
package struct SchedulerSettings: Sendable, Equatable {
    /// How often the coordinator heartbeats workers and checks their liveness (default 1 s).
    package var heartbeatInterval: Duration = .seconds(1)
    /// A worker silent for `liveness x` its heartbeat interval is dead (default 3).
    package var liveness: Int = 3
    /// Tasks a worker may hold beyond its slots, to hide network latency (default 1).
    package var prefetch: Int = 1
    /// Adaptive prefetch: a worker whose results come back more often than `pipelineTarget`
    /// (small pages, many slots, a null engine) may hold more, up to this many beyond its slots,
    /// so it is never idle waiting for the next task across the link. Its window is sized to
    /// keep `pipelineTarget` of work queued, from the mean gap between its results; workers
    /// whose results are further apart keep `prefetch`.
    /// nil: fixed `slots + prefetch`.
    package var adaptivePrefetchLimit: Int? = 32
    /// The queued work an adaptive window aims at: a few network round trips and a TCP
    /// retransmission (300 ms keeps 100 ms-page workers busy across a 100 ms round trip with 1%
    /// loss: deploy/netns-faults.sh). Real OCR pages, slower than this, keep `prefetch`.
    package var pipelineTarget: Duration = .milliseconds(300)
    /// Attempts per page when a submission says 0 (default 3).
    package var defaultMaxAttempts: UInt32 = 3
    /// Upper bound on a submission's `max_attempts`.
    package var maxAttemptsLimit: UInt32 = 100
    /// Pages waiting for a worker across all jobs; a submission that would go beyond is refused
    /// with `RESOURCE_EXHAUSTED` (back-pressure instead of unbounded memory).
    package var maxQueuedPages: Int = 100_000
    /// Pages not yet final in one principal's jobs (`JobAccess`); a submission that would go
    /// beyond is refused with `RESOURCE_EXHAUSTED` naming the quota, so no client can fill the
    /// queue for the others.
    package var maxPagesPerPrincipal: Int = 25_000
    /// Finished jobs kept for `GetJob`/`WatchJob` replay; the oldest finished are evicted beyond.
    package var retainedFinishedJobs: Int = 10_000
    /// Finished jobs are evicted this long after they finished (`--retention`, default 7 days);
    /// nil: kept until `retainedFinishedJobs` pushes them out.
    package var retention: Duration? = .seconds(7 * 86_400)
    /// Minimum spacing of `JobProgress` events per job (counts are coalesced in between).
    package var progressInterval: Duration = .milliseconds(500)
    /// Window of `ClusterStatus.pages_per_second`.
    package var throughputWindow: Duration = .seconds(10)
    /// Upper bound on a worker's announced slots (peer input is never trusted).
    package var maxWorkerSlots: Int = 256
    /// When true every store change is also returned as a `.journal` directive, so a durability
    /// layer can persist it before the other directives of the same event take effect.
    package var journalChanges: Bool = false

    package init() {}

    /// A result with one of these codes fails the page at once: trying again cannot help.
    /// `DEADLINE_EXCEEDED` (a page over its own `page_timeout_ms`) and `UNIMPLEMENTED` are final
    /// too, so a page that times out costs its timeout once, not `max_attempts` times.
    /// Other codes (`INTERNAL`, `UNAVAILABLE`, `UNKNOWN`, ...) are retried.
    package static func isRetryable(_ code: StatusCode) -> Bool {
        switch code {
        case .invalidArgument, .resourceExhausted, .failedPrecondition, .outOfRange,
             .deadlineExceeded, .unimplemented, .permissionDenied, .unauthenticated, .notFound:
            false
        default:
            true
        }
    }
}
