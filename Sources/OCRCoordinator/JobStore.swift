import OCRBasics
import OCRPages
import OCRWire

/// Jobs, pages and page results, in memory. Every state change goes through `apply(_:)`.
///
/// ## Job states (legal transitions)
/// ```
/// (none)   --accepted-->              QUEUED
/// QUEUED   --first dispatched-->      RUNNING
/// QUEUED | RUNNING --every page final-->  SUCCEEDED  (no page FAILED)
///                                     PARTIAL    (some FAILED, some DONE)
///                                     FAILED     (no page DONE)
/// QUEUED | RUNNING --cancel-->        CANCELLED  (unfinished pages -> CANCELLED)
/// QUEUED | RUNNING --deadline-->      EXPIRED    (unfinished pages -> CANCELLED)
/// SUCCEEDED | PARTIAL | FAILED | CANCELLED | EXPIRED are final; a final job may be evicted.
/// ```
/// ## Page states (legal transitions)
/// ```
/// PENDING    --dispatched-->  DISPATCHED   (attempt += 1)
/// DISPATCHED --requeued-->    PENDING      (worker lost or retryable error; failures += 1
///                                           unless the worker returned the page)
/// PENDING | DISPATCHED --completed-->  DONE    (first result wins; later ones are ignored)
/// PENDING | DISPATCHED --failed-->     FAILED  (non-retryable, or failures == max_attempts)
/// PENDING | DISPATCHED --job finished--> CANCELLED
/// DONE, FAILED, CANCELLED are final: a page ends exactly once.
/// ```
/// A result may complete a PENDING page: a worker that reconnected under a new identity may
/// still deliver the page it was holding when its old registration was dropped.
package struct JobStore: Sendable {
    /// One page's state. Internal: the scheduler reads it, only `apply` writes it.
    struct PageRecord: Sendable {
        var state: PageState = .pending
        /// The last attempt dispatched (0: never dispatched).
        var attempt: UInt32 = 0
        /// Attempts that failed (worker lost, retryable error).
        var failures: UInt32 = 0
        /// The worker holding the current attempt while DISPATCHED.
        var workerUID: UInt64 = 0
        /// When it last became PENDING (for `PageTask.queued_us`).
        var enqueuedAt: Duration = .zero
        var lastError: Status? = nil
        /// The PageCompleted or PageFailed event, kept for WatchJob replay.
        var outcome: JobEvent? = nil
    }

    struct JobRecord: Sendable {
        /// The job as accepted.
        let spec: JobSpec
        let deadline: Duration?
        let createdAt: Duration
        let createdUnixMs: Int64
        /// Page contents; released once the job is final.
        var descriptors: [PageDescriptor]
        var pages: [PageRecord]
        var state: JobState = .queued
        var status: Status? = nil
        var finishedUnixMs: Int64 = 0
        /// When it finished (coordinator time; negative for a job finished before this start).
        var finishedAt: Duration = .zero
        var finishedEvent: JobEvent? = nil
        var sequence: UInt64 = 0
        var firstDispatchAt: Duration? = nil
        /// Pending pages: requeued ones in `retries` (served first), then the never-dispatched
        /// heavy ones in `heavyFirst` (``DispatchOrder``), then never-dispatched ones from
        /// `nextFresh` up. Entries whose page is no longer PENDING are skipped lazily.
        var nextFresh = 0
        var heavyFirst: ArraySlice<Int> = []
        var retries = Deque<Int>()
        var pending = 0, running = 0, done = 0, failed = 0, cancelled = 0

        var pageCount: Int { pages.count }
        var isFinal: Bool { state.isFinal }
    }

    /// Private on purpose: a caller holding a copy of a `JobRecord` while `apply` mutates it
    /// would make copy-on-write duplicate the job's page array on every change. Reads go through
    /// the small accessors below.
    private var jobs: [String: JobRecord] = [:]
    private var jobsByKey: [String: String] = [:]
    /// Job ids in acceptance order (evicted ones are skipped and compacted lazily).
    private var creationOrder: [String] = []
    private var finishedOrder = Deque<String>()

    /// Pages not yet final, by the principal whose jobs they are (its quota, `SchedulerSettings`).
    package private(set) var unfinishedPagesByOwner: [String: Int] = [:]
    /// Pages PENDING across unfinished jobs (the queue depth).
    package private(set) var queuedPages = 0
    /// Pages DISPATCHED across unfinished jobs.
    package private(set) var runningPages = 0
    /// Jobs not yet final.
    package private(set) var activeJobs = 0
    /// Pages DONE since the store was created.
    package private(set) var pagesDoneTotal: UInt64 = 0
    /// Finished jobs still in memory.
    package var finishedJobs: Int { finishedOrder.count }
    /// Results dropped because their page was already final or their job gone.
    package private(set) var ignoredChanges: UInt64 = 0

    package init() {}

    // MARK: - The one place state changes

    /// Applies `change` if it is a legal transition and returns the `JobEvent` it produces for
    /// watchers (PageCompleted, PageFailed, JobFinished), already sequenced and kept for replay.
    @discardableResult
    package mutating func apply(_ change: JobChange) -> (applied: Bool, event: JobEvent?) {
        switch change {
        case .accepted(let a):
            guard jobs[a.spec.jobID] == nil, !a.pages.isEmpty else { return ignored() }
            var pages = [PageRecord](repeating: PageRecord(), count: a.pages.count)
            for i in pages.indices { pages[i].enqueuedAt = a.createdAt }
            var job = JobRecord(spec: a.spec, deadline: a.deadline, createdAt: a.createdAt,
                                createdUnixMs: a.createdUnixMs, descriptors: a.pages, pages: pages)
            job.pending = pages.count
            job.heavyFirst = DispatchOrder.heavyPages(a.pages)[...]
            jobs[a.spec.jobID] = job
            if !a.spec.jobKey.isEmpty { jobsByKey[Self.scopedKey(a.spec.jobKey, a.spec.owner)] = a.spec.jobID }
            unfinishedPagesByOwner[a.spec.owner, default: 0] += pages.count
            creationOrder.append(a.spec.jobID)
            queuedPages += pages.count
            activeJobs += 1
            return (true, nil)

        case .dispatched(let id, let page, let uid, let at):
            return mutatePage(id, page, from: [.pending]) { job, p in
                job.pages[p].state = .dispatched
                job.pages[p].attempt += 1
                job.pages[p].workerUID = uid
                if job.retries.first == p { _ = job.retries.popFirst() }
                else if job.heavyFirst.first == p { _ = job.heavyFirst.popFirst() }
                else if job.nextFresh == p { job.nextFresh += 1 }
                job.pending -= 1
                job.running += 1
                if job.state == .queued { job.state = .running; job.firstDispatchAt = at }
                return nil
            } counts: { $0.queuedPages -= 1; $0.runningPages += 1 }

        case .requeued(let id, let page, let failure, let at):
            return mutatePage(id, page, from: [.dispatched]) { job, p in
                job.pages[p].state = .pending
                job.pages[p].workerUID = 0
                job.pages[p].enqueuedAt = at
                if let failure {
                    job.pages[p].failures += 1
                    job.pages[p].lastError = failure
                }
                job.retries.append(p)
                job.running -= 1
                job.pending += 1
                return nil
            } counts: { $0.queuedPages += 1; $0.runningPages -= 1 }

        case .completed(let id, let page, var result, _):
            var wasRunning = false
            let outcome = mutatePage(id, page, from: [.pending, .dispatched]) { job, p in
                wasRunning = job.pages[p].state == .dispatched
                if wasRunning { job.running -= 1 } else { job.pending -= 1 }
                job.pages[p].state = .done
                job.pages[p].workerUID = 0
                job.done += 1
                result.pageIndex = UInt32(p)
                if result.file.isEmpty { result.file = job.descriptors[p].file }
                if result.filePage == 0 { result.filePage = UInt32(clamping: job.descriptors[p].filePage) }
                let event = Self.sequenced(&job, .pageCompleted(PageCompleted.with { $0.result = result }))
                job.pages[p].outcome = event
                return event
            } counts: { _ in }
            if outcome.applied {
                if wasRunning { runningPages -= 1 } else { queuedPages -= 1 }
                pagesDoneTotal += 1
                releasePages(of: id, 1)
            }
            return outcome

        case .failed(let id, let page, let status, _):
            var wasRunning = false
            let outcome = mutatePage(id, page, from: [.pending, .dispatched]) { job, p in
                wasRunning = job.pages[p].state == .dispatched
                if wasRunning { job.running -= 1 } else { job.pending -= 1 }
                job.pages[p].state = .failed
                job.pages[p].workerUID = 0
                job.pages[p].lastError = status
                job.failed += 1
                let d = job.descriptors[p]
                let failed = PageFailed.with {
                    $0.pageIndex = UInt32(p)
                    $0.file = d.file
                    $0.filePage = UInt32(clamping: d.filePage)
                    $0.status = status
                    $0.attempts = job.pages[p].attempt
                }
                let event = Self.sequenced(&job, .pageFailed(failed))
                job.pages[p].outcome = event
                return event
            } counts: { _ in }
            if outcome.applied {
                if wasRunning { runningPages -= 1 } else { queuedPages -= 1 }
                releasePages(of: id, 1)
            }
            return outcome

        case .finished(let id, let state, let status, let unixMs, let at):
            guard state.isFinal, let i = jobs.index(forKey: id), !jobs.values[i].isFinal else { return ignored() }
            var event: JobEvent? = nil
            var droppedPending = 0, droppedRunning = 0
            withInout(&jobs.values[i]) { job in
                if job.pending + job.running > 0 {
                    for p in job.pages.indices where !job.pages[p].state.isFinal {
                        job.pages[p].state = .cancelled
                        job.pages[p].workerUID = 0
                        job.cancelled += 1
                    }
                }
                droppedPending = job.pending
                droppedRunning = job.running
                job.pending = 0
                job.running = 0
                job.retries = Deque()
                job.heavyFirst = []
                job.state = state
                job.status = status
                job.finishedUnixMs = unixMs
                job.finishedAt = at
                job.descriptors = []  // the page bytes are no longer needed
                let finished = JobFinished.with {
                    $0.state = state
                    $0.status = status
                    $0.pagesDone = UInt32(job.done)
                    $0.pagesFailed = UInt32(job.failed)
                }
                event = Self.sequenced(&job, .finished(finished))
                job.finishedEvent = event
            }
            queuedPages -= droppedPending
            releasePages(of: id, droppedPending + droppedRunning)
            runningPages -= droppedRunning
            activeJobs -= 1
            finishedOrder.append(id)
            return (true, event)

        case .evicted(let id):
            guard let job = jobs[id], job.isFinal else { return ignored() }
            jobs[id] = nil
            let key = Self.scopedKey(job.spec.jobKey, job.spec.owner)
            if !job.spec.jobKey.isEmpty, jobsByKey[key] == id { jobsByKey[key] = nil }
            if finishedOrder.first == id { _ = finishedOrder.popFirst() }
            else { finishedOrder = rebuilt(finishedOrder) { $0 != id } }
            if creationOrder.count > 64, creationOrder.count > 2 * jobs.count {
                creationOrder.removeAll { jobs[$0] == nil }
            }
            return (true, nil)
        }
    }

    // MARK: - Reads

    /// The job an idempotency key was first submitted as by `owner` (keys are per principal:
    /// another client's key names nothing).
    package func jobID(forKey key: String, owner: String = "") -> String? {
        key.isEmpty ? nil : jobsByKey[Self.scopedKey(key, owner)]
    }

    private static func scopedKey(_ key: String, _ owner: String) -> String { owner + "\u{0}" + key }

    /// Whether `access` may see job `id` (false when there is no such job).
    package func allows(_ access: JobAccess, _ id: String) -> Bool {
        guard let job = jobs[id] else { return false }
        return access.allows(job.spec.owner)
    }

    package func contains(_ jobID: String) -> Bool { jobs[jobID] != nil }

    /// Where job `id` is to be announced when it finishes; nil for nowhere (or no such job).
    package func callbackURL(of id: String) -> String? {
        guard let url = jobs[id]?.spec.callbackURL, !url.isEmpty else { return nil }
        return url
    }

    /// The oldest finished job still in memory (the next to evict).
    package var oldestFinished: String? { finishedOrder.first }

    /// When the oldest finished job finished (coordinator time), nil when none is kept.
    package var oldestFinishedAt: Duration? { finishedOrder.first.flatMap { jobs[$0]?.finishedAt } }

    /// The job as GetJob / ListJobs report it.
    package func job(_ id: String, includePageStates: Bool = false) -> Job? {
        read(id) { Self.snapshot($0, includePageStates: includePageStates) }
    }

    /// Jobs `access` may see, newest first, only those in `states` (all when empty), at most
    /// `limit` (0: 100).
    package func listJobs(states: [JobState] = [], limit: Int = 0, access: JobAccess = .everyone) -> [Job] {
        listJobs(states: states, limit: limit, access: access, after: nil).jobs
    }

    /// Up to `limit` jobs newest first, after `cursor` (the last job of the previous page), and
    /// the cursor of the next page when there are more.
    package func listJobs(states: [JobState], limit: Int, access: JobAccess, after cursor: JobListCursor?)
        -> (jobs: [Job], next: JobListCursor?) {
        let limit = limit <= 0 ? 100 : limit
        var out: [Job] = []
        var passed = cursor == nil
        for id in creationOrder.reversed() {
            guard let job = jobs[id] else { continue }
            if !passed, let cursor {
                // Past the cursor's job, or past where it was if it has been deleted since.
                if id == cursor.jobID { passed = true; continue }
                guard job.createdUnixMs < cursor.createdUnixMs else { continue }
                passed = true
            }
            guard access.allows(job.spec.owner), states.isEmpty || states.contains(job.state) else { continue }
            if out.count == limit {
                let last = out[out.count - 1]
                return (out, JobListCursor(jobID: last.jobId, createdUnixMs: jobs[last.jobId]?.createdUnixMs ?? 0))
            }
            out.append(Self.snapshot(job, includePageStates: false))
        }
        return (out, nil)
    }

    /// Jobs in memory by state, and PENDING pages by the language string of their job's
    /// options ("eng", "deu+eng"; "" for the default): the figures `/metrics` reports. O(jobs).
    package func census() -> (jobsByState: [JobState: Int], queuedPagesByLanguages: [String: Int]) {
        var states: [JobState: Int] = [:]
        var queued: [String: Int] = [:]
        for job in jobs.values {
            states[job.state, default: 0] += 1
            if !job.isFinal, job.pending > 0 { queued[job.spec.options?.languages ?? "", default: 0] += job.pending }
        }
        return (states, queued)
    }

    /// What a watcher attaching with `from_page` gets first: the recorded PageCompleted and
    /// PageFailed events of pages `>= fromPage` in page order, then JobFinished if the job is
    /// final. Each carries the sequence number it was first sent with. At most `limit` page
    /// events: `next` is the page to go on from, nil when this chunk ends the replay.
    package func replayChunk(_ id: String, fromPage: Int = 0, limit: Int = .max) -> (events: [JobEvent], next: Int?)? {
        read(id) { job in
            var out: [JobEvent] = []
            var p = max(0, fromPage)
            while p < job.pages.count {
                if out.count == limit { return (out, p) }
                if let event = job.pages[p].outcome { out.append(event) }
                p += 1
            }
            if let finished = job.finishedEvent { out.append(finished) }
            return (out, nil)
        }
    }

    /// The whole replay at once (``replayChunk(_:fromPage:limit:)`` without a limit).
    package func replay(_ id: String, fromPage: Int = 0) -> [JobEvent]? { replayChunk(id, fromPage: fromPage)?.events }

    /// The figures of a job the scheduler decides with (a small copy, not the page array).
    struct JobSummary: Sendable {
        var isFinal: Bool
        var owner: String
        var priority: Int32
        var maxAttempts: UInt32
        var deadline: Duration?
        var pageCount: Int
        var pending: Int, running: Int, done: Int, failed: Int
        var createdAt: Duration
        var firstDispatchAt: Duration?
        var requestDigest: UInt64
    }

    /// Reads job `id` in place (no copy of the record).
    @inline(__always)
    func read<R>(_ id: String, _ body: (borrowing JobRecord) -> R) -> R? {
        guard let i = jobs.index(forKey: id) else { return nil }
        return body(jobs.values[i])
    }

    func summary(_ id: String) -> JobSummary? {
        read(id) { job in
            JobSummary(isFinal: job.isFinal, owner: job.spec.owner, priority: job.spec.priority, maxAttempts: job.spec.maxAttempts,
                       deadline: job.deadline, pageCount: job.pages.count, pending: job.pending,
                       running: job.running, done: job.done, failed: job.failed, createdAt: job.createdAt,
                       firstDispatchAt: job.firstDispatchAt, requestDigest: job.spec.requestDigest)
        }
    }

    /// Page `page` of job `id` while the job is not final.
    func page(_ id: String, _ page: Int) -> PageRecord? {
        read(id) { job in
            !job.isFinal && job.pages.indices.contains(page) ? job.pages[page] : nil
        } ?? nil
    }

    /// The input file a page came from ("" when unknown).
    func fileName(_ id: String, _ page: Int) -> String {
        read(id) { job in job.descriptors.indices.contains(page) ? job.descriptors[page].file : "" } ?? ""
    }

    /// DISPATCHED pages of a job with the uid holding each. O(pages): for cancel and expiry.
    func dispatchedPages(_ id: String) -> [(page: Int, workerUID: UInt64)] {
        read(id) { job in
            job.running == 0 ? [] : job.pages.indices.compactMap { p in
                job.pages[p].state == .dispatched ? (p, job.pages[p].workerUID) : nil
            }
        } ?? []
    }

    /// The status of a job's lowest FAILED page. O(pages): once, when the job finishes.
    func firstFailure(_ id: String) -> Status? {
        read(id) { job in job.pages.first { $0.state == .failed }?.lastError } ?? nil
    }

    /// The next PENDING page of a job (requeued pages first, then heavy ones), without taking
    /// it: `.dispatched` takes it. Drops stale queue entries on the way (index upkeep, not a
    /// state change).
    mutating func nextPendingPage(_ id: String) -> Int? {
        guard let i = jobs.index(forKey: id) else { return nil }
        return withInout(&jobs.values[i]) { job -> Int? in
            guard !job.isFinal, job.pending > 0 else { return nil }
            while let p = job.retries.first {
                if job.pages[p].state == .pending { return p }
                _ = job.retries.popFirst()
            }
            while let p = job.heavyFirst.first {
                if job.pages[p].state == .pending { return p }
                _ = job.heavyFirst.popFirst()
            }
            while job.nextFresh < job.pages.count {
                if job.pages[job.nextFresh].state == .pending { return job.nextFresh }
                job.nextFresh += 1
            }
            return nil
        }
    }

    /// Stamps a non-state event (JobProgress) with the job's next sequence number.
    mutating func sequencedProgress(_ id: String, _ progress: JobProgress) -> JobEvent? {
        guard let i = jobs.index(forKey: id) else { return nil }
        return withInout(&jobs.values[i]) { Self.sequenced(&$0, .progress(progress)) }
    }

    // MARK: - Helpers

    private mutating func ignored() -> (applied: Bool, event: JobEvent?) {
        ignoredChanges += 1
        return (false, nil)
    }

    /// Runs `body` on page `page` of live job `id` when its state is one of `from`.
    /// `count` pages of job `id` became final: they leave their owner's quota.
    private mutating func releasePages(of id: String, _ count: Int) {
        guard count > 0, let owner = jobs[id]?.spec.owner else { return }
        let left = unfinishedPagesByOwner[owner, default: 0] - count
        unfinishedPagesByOwner[owner] = left > 0 ? left : nil
    }

    private mutating func mutatePage(_ id: String, _ page: Int, from: [PageState],
                                     _ body: (inout JobRecord, Int) -> JobEvent?,
                                     counts: (inout JobStore) -> Void) -> (applied: Bool, event: JobEvent?) {
        guard let i = jobs.index(forKey: id) else { return ignored() }
        let ok = withInout(&jobs.values[i]) { job in
            !job.isFinal && job.pages.indices.contains(page) && from.contains(job.pages[page].state)
        }
        guard ok else { return ignored() }
        let event = withInout(&jobs.values[i]) { body(&$0, page) }
        counts(&self)
        return (true, event)
    }

    private func rebuilt(_ deque: Deque<String>, keeping: (String) -> Bool) -> Deque<String> {
        var out = Deque<String>()
        for e in deque.elements where keeping(e) { out.append(e) }
        return out
    }

    private static func sequenced(_ job: inout JobRecord, _ event: JobEvent.Event) -> JobEvent {
        job.sequence += 1
        var e = JobEvent()
        e.jobId = job.spec.jobID
        e.sequence = job.sequence
        e.event = event
        return e
    }

    static func snapshot(_ job: borrowing JobRecord, includePageStates: Bool) -> Job {
        var j = Job()
        j.jobId = job.spec.jobID
        j.jobKey = job.spec.jobKey
        j.state = job.state
        j.pageCount = UInt32(job.pageCount)
        j.pagesDone = UInt32(job.done)
        j.pagesFailed = UInt32(job.failed)
        j.priority = job.spec.priority
        j.createdUnixMs = job.createdUnixMs
        j.finishedUnixMs = job.finishedUnixMs
        j.files = job.spec.files
        j.status = job.status
        j.options = job.spec.options
        if includePageStates { j.pageStates = job.pages.map(\.state) }
        return j
    }
}

extension JobState {
    /// SUCCEEDED, PARTIAL, FAILED, CANCELLED, EXPIRED: nothing changes afterwards.
    package var isFinal: Bool {
        switch self {
        case .succeeded, .partial, .failed, .cancelled, .expired: true
        default: false
        }
    }
}

extension PageState {
    /// DONE, FAILED, CANCELLED.
    package var isFinal: Bool {
        switch self {
        case .done, .failed, .cancelled: true
        default: false
        }
    }
}

/// Runs `body` on `value` in place (a free function, so it does not access `self` while one of
/// its stored properties is being mutated).
@inline(__always)
func withInout<T, R>(_ value: inout T, _ body: (inout T) -> R) -> R { body(&value) }
