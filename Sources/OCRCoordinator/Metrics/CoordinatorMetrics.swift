import Foundation
import OCRBasics
import OCRWebhook
import OCRWire

/// The coordinator's counters and histograms for `/metrics`, fed from the scheduler's
/// directives on the loop thread (`record`) and the journal's commits (`recordCommit`), read
/// from HTTP threads (`exposition`). Gauges (queue depth, workers, slots) are not kept here:
/// they are read from the scheduler when scraped (`MetricsGauges`).
package final class CoordinatorMetrics: Sendable {
    private let state = Locked(State())
    private let started = ContinuousClock.now

    /// Completed pages per `bucket`, over the last `buckets` of them (the status page's chart).
    package static let bucket: Duration = .seconds(10)
    package static let buckets = 60
    /// Page failures kept for the status page.
    static let keptFailures = 50

    private struct PageKey: Hashable, Sendable {
        var job: String
        var page: Int
    }

    private struct State: Sendable {
        var pagesByOutcome: [String: UInt64] = ["completed": 0, "failed": 0, "cancelled": 0]
        var jobsAccepted: UInt64 = 0
        var jobsFinished: [String: UInt64] = [:]
        var requeuesByCause: [String: UInt64] = [:]
        var pageSeconds = Histogram(bounds: Histogram.pageSeconds)
        var queueWaitSeconds = Histogram(bounds: Histogram.pageSeconds)
        var commitSeconds = Histogram(bounds: Histogram.commitSeconds)
        var commitFailures: UInt64 = 0
        /// Pages in flight: when their current attempt was dispatched (bounded by the slots).
        var dispatchedAt: [PageKey: Duration] = [:]
        /// Pages not yet final per unfinished job: what a finish cancels; and its owner.
        var openPages: [String: Int] = [:]
        var owners: [String: String] = [:]
        var recentFailures = Deque<RecentFailure>()
        /// Completed pages per 10 s since start, by bucket number (the last `buckets` kept).
        var completedByBucket: [Int64: Int] = [:]
        var webhooks: [String: UInt64] = ["delivered": 0, "retried": 0, "abandoned": 0]
    }

    package init() {}

    /// Counts what one event's directives did. Loop thread.
    package func record(_ directives: [SchedulerDirective]) {
        state.withLock { state in
            for directive in directives {
                switch directive {
                case .sendTask(_, let task), .cutAndSendTask(_, let task, _):
                    state.queueWaitSeconds.observe(Double(task.queuedUs) / 1e6)
                case .journal(let change):
                    Self.record(change, &state)
                default:
                    break
                }
            }
        }
    }

    private static func record(_ change: JobChange, _ state: inout State) {
        switch change {
        case .accepted(let job):
            state.jobsAccepted += 1
            state.openPages[job.spec.jobID] = job.pages.count
            state.owners[job.spec.jobID] = job.spec.owner
        case .dispatched(let job, let page, _, let at):
            state.dispatchedAt[PageKey(job: job, page: page)] = at
        case .requeued(let job, let page, let failure, _):
            state.dispatchedAt[PageKey(job: job, page: page)] = nil
            state.requeuesByCause[failure.map { $0.code.name.lowercased() } ?? "given_back", default: 0] += 1
        case .completed(let job, let page, _, let at):
            if let start = state.dispatchedAt.removeValue(forKey: PageKey(job: job, page: page)) {
                state.pageSeconds.observe(Double((at - start).microseconds) / 1e6)
            }
            state.pagesByOutcome["completed", default: 0] += 1
            state.openPages[job]? -= 1
            let slot = Int64(at / Self.bucket)
            state.completedByBucket[slot, default: 0] += 1
            if state.completedByBucket.count > Self.buckets + 1 {
                state.completedByBucket = state.completedByBucket.filter { $0.key > slot - Int64(Self.buckets) }
            }
        case .failed(let job, let page, let status, _):
            state.dispatchedAt[PageKey(job: job, page: page)] = nil
            state.recentFailures.append(RecentFailure(jobID: job, owner: state.owners[job] ?? "", page: page, status: status,
                                                      unixMs: Int64(Date().timeIntervalSince1970 * 1000)))
            if state.recentFailures.count > Self.keptFailures { _ = state.recentFailures.popFirst() }
            state.pagesByOutcome["failed", default: 0] += 1
            state.openPages[job]? -= 1
        case .finished(let job, let final, _, _, _):
            state.jobsFinished[final.metricName, default: 0] += 1
            state.pagesByOutcome["cancelled", default: 0] += UInt64(max(0, state.openPages.removeValue(forKey: job) ?? 0))
            state.owners[job] = nil
            if !state.dispatchedAt.isEmpty { state.dispatchedAt = state.dispatchedAt.filter { $0.key.job != job } }
        case .evicted:
            break
        }
    }

    /// The last page failures, oldest first.
    package func recentFailures() -> [RecentFailure] {
        state.withLock { $0.recentFailures.elements }
    }

    /// Pages completed per second in each of the last `buckets` 10-second intervals, oldest
    /// first, the current (partial) one last.
    package func throughputHistory() -> [Double] {
        let current = Int64((ContinuousClock.now - started) / Self.bucket)
        let counts = state.withLock { $0.completedByBucket }
        return (0..<Int64(Self.buckets)).reversed().map { back in
            Double(counts[current - back] ?? 0) / Double(Self.bucket.components.seconds)
        }
    }

    /// What became of a webhook try.
    package func recordWebhook(_ outcome: WebhookSender.Outcome) {
        let key = switch outcome {
        case .delivered: "delivered"
        case .retrying: "retried"
        case .abandoned: "abandoned"
        }
        state.withLock { $0.webhooks[key, default: 0] += 1 }
    }

    /// One journal commit took `duration` (or failed). Journal thread.
    package func recordCommit(_ duration: Duration, failed: Bool) {
        state.withLock { state in
            if failed { state.commitFailures += 1 } else { state.commitSeconds.observe(Double(duration.microseconds) / 1e6) }
        }
    }

    /// The whole `/metrics` page: these counters and `gauges`.
    package func exposition(_ gauges: MetricsGauges) -> String {
        let state = state.withLock { $0 }
        var out = PrometheusText()
        out.family("ocr_build_info", "gauge", "The coordinator's version (always 1).")
        out.sample("ocr_build_info", [("version", gauges.version)], 1)
        out.single("ocr_uptime_seconds", "gauge", "Seconds since the coordinator started.", gauges.uptimeSeconds)
        out.single("ocr_ready", "gauge", "1 while the coordinator accepts jobs (journal open and writable), else 0.", gauges.ready ? 1 : 0)

        out.family("ocr_pages_total", "counter", "Pages finished since start, by outcome (completed, failed, cancelled).")
        for outcome in state.pagesByOutcome.keys.sorted() { out.sample("ocr_pages_total", [("outcome", outcome)], Double(state.pagesByOutcome[outcome]!)) }
        out.histogram("ocr_page_duration_seconds", "From dispatch to result, for each completed page's last attempt.", state.pageSeconds)
        out.histogram("ocr_page_queue_wait_seconds", "Time a page waited in the queue before each dispatch.", state.queueWaitSeconds)
        out.family("ocr_requeues_total", "counter", "Pages put back in the queue, by cause (given_back: the worker returned it; else the status code of the failed attempt, e.g. unavailable for a lost worker).")
        for cause in state.requeuesByCause.keys.sorted() { out.sample("ocr_requeues_total", [("cause", cause)], Double(state.requeuesByCause[cause]!)) }

        out.single("ocr_queue_depth", "gauge", "Pages waiting for a worker, across all jobs.", Double(gauges.queuedPages))
        out.single("ocr_pages_running", "gauge", "Pages dispatched to workers and not yet answered.", Double(gauges.runningPages))
        out.family("ocr_queued_pages", "gauge", "Pages waiting for a worker, by the job's languages.")
        for languages in gauges.queuedPagesByLanguages.keys.sorted() {
            out.sample("ocr_queued_pages", [("languages", languages.isEmpty ? "default" : languages)], Double(gauges.queuedPagesByLanguages[languages]!))
        }
        out.family("ocr_worker_slots", "gauge", "Slots of the connected workers, by the engine they run (a worker running several counts under each).")
        for engine in gauges.slotsByEngine.keys.sorted() {
            out.sample("ocr_worker_slots", [("engine", engine)], Double(gauges.slotsByEngine[engine]!))
        }
        out.family("ocr_jobs", "gauge", "Jobs in memory (unfinished, and finished ones kept for GetJob), by state.")
        for each in JobState.all {
            out.sample("ocr_jobs", [("state", each.metricName)], Double(gauges.jobsByState[each] ?? 0))
        }
        out.single("ocr_jobs_accepted_total", "counter", "Jobs accepted since start.", Double(state.jobsAccepted))
        out.family("ocr_jobs_finished_total", "counter", "Jobs finished since start, by final state.")
        for final in JobState.all where final.isFinal {
            out.sample("ocr_jobs_finished_total", [("state", final.metricName)], Double(state.jobsFinished[final.metricName] ?? 0))
        }

        out.single("ocr_workers", "gauge", "Workers connected.", Double(gauges.workers))
        out.family("ocr_slots", "gauge", "Worker slots (pages recognised at once), total and busy.")
        out.sample("ocr_slots", [("kind", "total")], Double(gauges.totalSlots))
        out.sample("ocr_slots", [("kind", "busy")], Double(gauges.busySlots))
        out.single("ocr_pages_per_second", "gauge", "Pages completed per second over the last minute.", gauges.pagesPerSecond)

        out.histogram("ocr_journal_commit_seconds", "Time of each journal commit (one transaction per group of events).", state.commitSeconds)
        out.single("ocr_journal_commit_failures_total", "counter", "Journal commits that failed (a full disk); retried every second.", Double(state.commitFailures))
        out.single("ocr_journal_bytes", "gauge", "Size of the journal and its write-ahead log, and the upload spool (0 without --journal).", Double(gauges.journalBytes))
        out.family("ocr_webhooks_total", "counter", "Webhook tries by outcome: delivered, retried (a failed try that will be repeated), abandoned.")
        for outcome in state.webhooks.keys.sorted() { out.sample("ocr_webhooks_total", [("outcome", outcome)], Double(state.webhooks[outcome]!)) }
        out.single("ocr_journal_budget_bytes", "gauge", "The journal's size budget (--journal-max-mb; 0: none). At it, new jobs are refused.", Double(gauges.journalBudgetBytes))
        out.single("ocr_leader_epoch", "gauge", "With a PostgreSQL journal: the epoch this coordinator leads with (it grows by one at each failover; 0: a journal of its own). Standbys serve no metrics.", Double(gauges.leaderEpoch))
        out.single("ocr_http_connections", "gauge", "HTTP connections open.", Double(gauges.httpConnections))
        return out.text
    }
}

/// A page that failed for good, for the status page.
package struct RecentFailure: Sendable {
    package var jobID: String
    /// The principal whose job it is.
    package var owner: String
    package var page: Int
    package var status: Status
    package var unixMs: Int64
}

/// What `/metrics` reads from the scheduler and the process at scrape time.
package struct MetricsGauges: Sendable {
    package var version = ""
    package var uptimeSeconds = 0.0
    package var ready = false
    /// Why the journal cannot be written (a full disk), or nil.
    package var journalTrouble: String?
    package var queuedPages = 0
    package var runningPages = 0
    package var queuedPagesByLanguages: [String: Int] = [:]
    /// Slots of the connected workers by engine (`Ready.engines`).
    package var slotsByEngine: [String: Int] = [:]
    package var jobsByState: [JobState: Int] = [:]
    package var workers = 0
    package var totalSlots = 0
    package var busySlots = 0
    package var pagesPerSecond = 0.0
    package var journalBytes: UInt64 = 0
    /// `--journal-max-mb` in bytes (0: none), and whether the journal is at it.
    package var journalBudgetBytes: UInt64 = 0
    package var overBudget = false
    package var httpConnections = 0
    /// The fencing epoch this coordinator leads a shared journal with (0: not shared).
    package var leaderEpoch: Int64 = 0

    package init() {}
}

extension JobState {
    /// The state as a metric label: "queued", "succeeded", ...
    var metricName: String {
        switch self {
        case .unspecified: "unspecified"
        case .queued: "queued"
        case .running: "running"
        case .succeeded: "succeeded"
        case .partial: "partial"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .expired: "expired"
        case .unrecognized(let value): "state_\(value)"
        }
    }

    /// Every state a job can be in.
    package static let all: [JobState] = [.queued, .running, .succeeded, .partial, .failed, .cancelled, .expired]
}
