import OCRPages
import OCRWire

/// A journal of `JobChange`s: every change, in order, durable when `append` returns, read back
/// by `load` for `Scheduler.restore`. Two backends store the same rows (`JournalRecords`):
/// `SQLiteJournal` (a file and a spool directory on one machine) and `PostgreSQLJournal` (a
/// database several coordinators share, one of them leading).
package protocol JobJournal: AnyObject {
    /// Writes `changes` in one transaction; when it returns they are durable. Throws when the
    /// batch could not be written (nothing of it counts), `LeadershipLost` when this
    /// coordinator may no longer write at all. After a throw, the next call must begin with the
    /// same changes (`JournalWriter` retries a failed batch ahead of what came after it): a
    /// backend may have written some of them, and skips those.
    func append(_ changes: [JobChange]) throws
    /// Every journaled change in order, with times re-based to this process's start.
    func load() throws -> [JobChange]
    /// How often the journal wants `keepAlive` while no changes come (nil: never).
    var keepAliveInterval: Duration? { get }
    /// Renews whatever the journal holds while idle (a leader's lease). Throws as `append`.
    func keepAlive() throws
}

/// This coordinator has lost the leadership of a shared journal (another one took it over):
/// it must write nothing more and stop serving.
package struct LeadershipLost: Error, Sendable, CustomStringConvertible {
    package var description: String
}

/// The rows both journal backends store, and the one translation between them and `JobChange`.
///
/// `changes`: one row per change (`ChangeRecord`). `page_refs`: an accepted job's pages, one row
/// per page (`PageRecord`: its file's SHA-256 and how to cut it out); each uploaded file is
/// stored once, by digest, in the backend's spool. Times are stored as wall-clock microseconds
/// (start time + offset) and re-based on load to the new process's start, so a job deadline
/// stays the same instant across a restart (and across coordinators).
struct JournalRecords {
    enum Kind: Int64 {
        case accepted = 1, dispatched, requeued, completed, failed, finished, evicted
    }

    /// One row of `changes`.
    struct Change {
        var kind: Kind
        var job: String
        var page: Int64 = 0
        var num: Int64 = 0
        var atUs: Int64
        var unixMs: Int64 = 0
        var deadlineUs: Int64?
        var body: [UInt8]?
        var owner: String = ""
    }

    /// One row of `page_refs`.
    struct Page {
        var job: String
        var index: Int64
        /// The file's name when it is not one of the job's files by index (`fileIndex` -1).
        var file: String
        var filePage: Int64
        var format: Int64
        var digest: String
        var cut: Int64
        var cutOffset: Int64
        var fileIndex: Int64
    }

    /// What one change asks of the store, in order.
    enum Write {
        /// An accepted job: its row, its pages, and its files (digest and bytes, in first use order).
        case accepted(Change, pages: [Page], files: [(digest: String, content: [UInt8])])
        case row(Change)
        /// A finished job's row: once committed, its files may leave the spool.
        case finished(Change)
        /// An evicted job: its rows are deleted.
        case evicted(job: String)
    }

    let startedAtUnixUs: Int64

    init(startedAtUnixMs: Int64) { startedAtUnixUs = startedAtUnixMs * 1000 }

    func wallUs(_ d: Duration) -> Int64 { startedAtUnixUs + d.microseconds }
    func offset(_ wallUs: Int64) -> Duration { .microseconds(wallUs - startedAtUnixUs) }

    // MARK: Writing

    func write(for change: JobChange) -> Write {
        switch change {
        case .accepted(let a):
            let header = SubmitJobRequest.with {
                $0.files = a.spec.files.map { name in InputFile.with { $0.name = name } }
                if let options = a.spec.options { $0.options = options }
                $0.jobKey = a.spec.jobKey
                $0.priority = a.spec.priority
                $0.maxAttempts = a.spec.maxAttempts
                $0.labels = a.spec.labels
                $0.callbackUrl = a.spec.callbackURL
            }
            let row = Change(kind: .accepted, job: a.spec.jobID, num: Int64(bitPattern: a.spec.requestDigest), atUs: wallUs(a.createdAt),
                             unixMs: a.createdUnixMs, deadlineUs: a.deadline.map(wallUs), body: header.serializedBytes(), owner: a.spec.owner)
            var pages: [Page] = []
            var files: [(digest: String, content: [UInt8])] = []
            var fileIndex = 0
            for (i, page) in a.pages.enumerated() {
                // Pages come in file order: the first file at or after the last one with this name.
                while fileIndex < a.spec.files.count, a.spec.files[fileIndex] != page.file { fileIndex += 1 }
                let named = fileIndex < a.spec.files.count
                // Pages from the real splitter carry their file's digest; others (tests' splitters) are hashed here.
                let digest = page.digest.isEmpty ? FileDigest.sha256(page.content) : page.digest
                if files.last?.digest != digest, !files.contains(where: { $0.digest == digest }) {
                    files.append((digest, page.content))
                }
                let (cut, offset): (Int64, UInt64) = switch page.cut {
                case .none: (0, 0)
                case .tiffDirectory(let offset): (1, offset)
                case .pdfPage: (2, 0)
                }
                pages.append(Page(job: a.spec.jobID, index: Int64(i), file: named ? "" : page.file, filePage: Int64(page.filePage),
                                  format: Int64(page.format.rawValue), digest: digest, cut: cut, cutOffset: Int64(bitPattern: offset),
                                  fileIndex: named ? Int64(fileIndex) : -1))
                if !named { fileIndex = 0 }
            }
            return .accepted(row, pages: pages, files: files)
        case .dispatched(let id, let page, let uid, let at):
            return .row(Change(kind: .dispatched, job: id, page: Int64(page), num: Int64(bitPattern: uid), atUs: wallUs(at)))
        case .requeued(let id, let page, let failure, let at):
            return .row(Change(kind: .requeued, job: id, page: Int64(page), atUs: wallUs(at), body: failure?.serializedBytes()))
        case .completed(let id, let page, let result, let at):
            return .row(Change(kind: .completed, job: id, page: Int64(page), atUs: wallUs(at), body: result.serializedBytes()))
        case .failed(let id, let page, let status, let at):
            return .row(Change(kind: .failed, job: id, page: Int64(page), atUs: wallUs(at), body: status.serializedBytes()))
        case .finished(let id, let state, let status, let unixMs, let at):
            return .finished(Change(kind: .finished, job: id, num: Int64(state.rawValue), atUs: wallUs(at), unixMs: unixMs,
                                    body: status.serializedBytes()))
        case .evicted(let id):
            return .evicted(job: id)
        }
    }

    // MARK: Reading

    /// The jobs' pages from their `page_refs` rows (in job, index order), with the bytes of the
    /// files of unfinished jobs (`content(digest)`; finished jobs keep their page rows, not their
    /// files). A file that is missing comes back empty: its pages fail on the worker naming the
    /// file, rather than keeping the coordinator from starting.
    struct LoadedPages {
        var byJob: [String: [PageDescriptor]] = [:]
        var fileIndexesByJob: [String: [Int]] = [:]
    }

    func pages(_ rows: [Page], unfinished: (String) -> Bool, content: (String) -> [UInt8]?) throws -> LoadedPages {
        var loaded = LoadedPages()
        var files: [String: [UInt8]] = [:]
        for row in rows {
            var list = loaded.byJob[row.job, default: []]
            guard row.index == list.count else { throw JournalError("job \(row.job): page \(row.index) follows page \(list.count - 1)") }
            var bytes: [UInt8] = []
            if unfinished(row.job), !row.digest.isEmpty {
                if files[row.digest] == nil { files[row.digest] = content(row.digest) ?? [] }
                bytes = files[row.digest]!
            }
            let cut: PageCut = switch row.cut {
            case 1: .tiffDirectory(offset: UInt64(bitPattern: row.cutOffset))
            case 2: .pdfPage
            default: .none
            }
            list.append(PageDescriptor(file: row.file, filePage: Int(truncatingIfNeeded: row.filePage), pageIndex: Int(row.index),
                                       content: bytes, format: ImageFormat(rawValue: Int32(truncatingIfNeeded: row.format)),
                                       cut: cut, digest: row.digest))
            loaded.byJob[row.job] = list
            loaded.fileIndexesByJob[row.job, default: []].append(Int(truncatingIfNeeded: row.fileIndex))
        }
        return loaded
    }

    /// The change a `changes` row stands for (an accepted job takes its pages out of `pages`).
    func change(_ row: Change, pages: inout LoadedPages) throws -> JobChange {
        let page = Int(row.page)
        let at = offset(row.atUs)
        switch row.kind {
        case .accepted:
            let header = try SubmitJobRequest(serializedBytes: row.body ?? [])
            var jobPages = pages.byJob.removeValue(forKey: row.job) ?? []
            for (i, fileIndex) in (pages.fileIndexesByJob.removeValue(forKey: row.job) ?? []).enumerated() where fileIndex >= 0 {
                guard fileIndex < header.files.count else { throw JournalError("job \(row.job): page \(i) names file #\(fileIndex) of \(header.files.count)") }
                jobPages[i].file = header.files[fileIndex].name
            }
            return .accepted(AcceptedJob(
                jobID: row.job, jobKey: header.jobKey, owner: row.owner, files: header.files.map(\.name),
                pages: jobPages, options: header.options,
                priority: header.priority, maxAttempts: header.maxAttempts,
                deadline: row.deadlineUs.map(offset), labels: header.labels,
                callbackURL: header.callbackUrl, requestDigest: UInt64(bitPattern: row.num), createdAt: at, createdUnixMs: row.unixMs))
        case .dispatched:
            return .dispatched(jobID: row.job, page: page, workerUID: UInt64(bitPattern: row.num), at: at)
        case .requeued:
            return .requeued(jobID: row.job, page: page, failure: try row.body.map { try Status(serializedBytes: $0) }, at: at)
        case .completed:
            return .completed(jobID: row.job, page: page, result: try PageResult(serializedBytes: row.body ?? []), at: at)
        case .failed:
            return .failed(jobID: row.job, page: page, status: try Status(serializedBytes: row.body ?? []), at: at)
        case .finished:
            return .finished(jobID: row.job, state: JobState(rawValue: Int32(truncatingIfNeeded: row.num)),
                             status: try Status(serializedBytes: row.body ?? []), unixMs: row.unixMs, at: at)
        case .evicted:
            return .evicted(jobID: row.job)
        }
    }
}

/// Which spool files the unfinished jobs use, so that a file is stored once and deleted when
/// the last unfinished job using it finishes. Both backends keep one; it changes only after a
/// commit (`committed`), so a failed batch leaves it as it was.
struct SpoolUse {
    /// Spool files used by unfinished jobs: by job, and how many such jobs use each file.
    private(set) var filesOfJob: [String: [String]] = [:]
    private(set) var jobsUsingFile: [String: Int] = [:]

    /// What a batch changes, applied in order once it commits.
    struct Batch {
        enum Step { case uses(job: String, files: [String]), finished(job: String) }
        var steps: [Step] = []
        /// Files this batch stores (so a file two of its jobs share is written once).
        var stored: Set<String> = []
    }

    /// Whether `digest` must be written to the spool by this batch.
    func needsStoring(_ digest: String, _ batch: inout Batch) -> Bool {
        jobsUsingFile[digest] == nil && batch.stored.insert(digest).inserted
    }

    func isUnfinished(_ job: String) -> Bool { filesOfJob[job] != nil }
    var filesInUse: Set<String> { Set(jobsUsingFile.keys) }

    /// Counts a job read from the journal at open.
    mutating func use(job: String, file: String) {
        filesOfJob[job, default: []].append(file)
        jobsUsingFile[file, default: 0] += 1
    }

    /// Applies a committed batch; returns the files no unfinished job uses any more.
    mutating func committed(_ batch: Batch) -> [String] {
        var unused: [String] = []
        for step in batch.steps {
            switch step {
            case .uses(let job, let files):
                filesOfJob[job] = files
                for file in files { jobsUsingFile[file, default: 0] += 1 }
            case .finished(let job):
                for file in filesOfJob.removeValue(forKey: job) ?? [] {
                    jobsUsingFile[file, default: 1] -= 1
                    if jobsUsingFile[file] == 0 {
                        jobsUsingFile[file] = nil
                        unused.append(file)
                    }
                }
            }
        }
        return unused
    }
}
