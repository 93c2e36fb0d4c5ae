import OCRPages
import OCRWire

/// How hard a journal commit waits for the disk (`PRAGMA synchronous` in WAL mode).
package enum JournalSync: String, Sendable, CaseIterable {
    /// The WAL is fsynced at checkpoints only. A committed change survives `kill -9` and any
    /// crash of the coordinator process (the bytes are in the OS page cache); an OS crash or
    /// power cut may lose the last commits. The default: DESIGN's failure model is a process
    /// crash, and one commit per scheduler event then costs a `write`, not an `fsync`.
    case normal
    /// Every commit fsyncs the WAL: also survives an OS crash or power cut, at the price of one
    /// fsync per commit (the journal thread groups the events that came during the previous one).
    case full
}

/// The coordinator's write-ahead journal: every `JobChange`, in order, in a SQLite database in
/// WAL mode. `append` writes one batch (the changes of the scheduler events since the last
/// commit, handed over by `JournalWriter` on its own thread) in one transaction; the shell carries
/// out those events' other directives only after it returns, so nothing a client or worker sees is
/// ahead of the journal. `load` reads the changes back for `Scheduler.restore`.
///
/// Times: changes carry `Duration`s since the process started (`at`, `createdAt`, `deadline`).
/// The journal stores them as wall-clock microseconds (start time + offset) and re-bases them on
/// load to the new process's start, so a job deadline stays the same instant across a restart.
///
/// Storage: one row per change in `changes`; an accepted job's page bytes in `pages` (one row
/// per page), so a restarted coordinator can dispatch them again. When a job finishes its page
/// bytes are dropped (NULL). An eviction is one more row; the rows of evicted jobs are deleted
/// when the journal is opened (compaction), so a commit while running touches one table page
/// and no index (cost: see README's status table).
package final class Journal {
    private let db: SQLiteConnection
    private let startedAtUnixUs: Int64
    private let insertChange: SQLiteStatement
    private let insertPage: SQLiteStatement
    private let dropContent: SQLiteStatement
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement

    private enum Kind: Int64 {
        case accepted = 1, dispatched, requeued, completed, failed, finished, evicted
    }

    /// Opens or creates the journal at `path`.
    /// - Parameter startedAtUnixMs: wall-clock time of this process's `now == .zero` (the same
    ///   value the scheduler was given), for re-basing times.
    package init(path: String, startedAtUnixMs: Int64, sync: JournalSync = .normal) throws(SQLiteError) {
        db = try SQLiteConnection(path: path)
        startedAtUnixUs = startedAtUnixMs * 1000
        // One coordinator per journal: the exclusive lock (taken by the first write below and
        // held until the connection closes) makes a second one fail at start with SQLITE_BUSY,
        // and spares every commit the lock and shared-memory system calls.
        try db.execute("PRAGMA locking_mode=EXCLUSIVE")
        let mode = try db.pragma("PRAGMA journal_mode=WAL")
        guard mode.lowercased() == "wal" else {
            throw SQLiteError(code: 0, message: "\(path): cannot switch to WAL mode (journal_mode=\(mode))")
        }
        try db.execute("""
            PRAGMA synchronous=\(sync == .full ? "FULL" : "NORMAL");
            CREATE TABLE IF NOT EXISTS changes(
                seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, job TEXT NOT NULL,
                page INTEGER NOT NULL DEFAULT 0, num INTEGER NOT NULL DEFAULT 0,
                at_us INTEGER NOT NULL DEFAULT 0, unix_ms INTEGER NOT NULL DEFAULT 0,
                deadline_us INTEGER, body BLOB);
            CREATE TABLE IF NOT EXISTS pages(
                job TEXT NOT NULL, idx INTEGER NOT NULL, file TEXT NOT NULL, file_page INTEGER NOT NULL,
                format INTEGER NOT NULL, content BLOB, PRIMARY KEY(job, idx)) WITHOUT ROWID;
            """)
        insertChange = try db.prepare("INSERT INTO changes(kind, job, page, num, at_us, unix_ms, deadline_us, body) VALUES (?,?,?,?,?,?,?,?)")
        insertPage = try db.prepare("INSERT OR REPLACE INTO pages(job, idx, file, file_page, format, content) VALUES (?,?,?,?,?,?)")
        dropContent = try db.prepare("UPDATE pages SET content = NULL WHERE job = ?")
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
        try db.execute("""
            BEGIN IMMEDIATE;
            CREATE TEMP TABLE evicted AS SELECT DISTINCT job FROM changes WHERE kind = \(Kind.evicted.rawValue);
            DELETE FROM changes WHERE job IN (SELECT job FROM evicted);
            DELETE FROM pages WHERE job IN (SELECT job FROM evicted);
            DROP TABLE evicted;
            COMMIT;
            """)
    }

    // MARK: Writing

    /// Writes `changes` in one transaction; when it returns they are durable (see `JournalSync`).
    package func append(_ changes: [JobChange]) throws(SQLiteError) {
        guard !changes.isEmpty else { return }
        try begin.run([])
        do throws(SQLiteError) {
            for change in changes { try write(change) }
            try commit.run([])
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    private func write(_ change: JobChange) throws(SQLiteError) {
        switch change {
        case .accepted(let a):
            let header = SubmitJobRequest.with {
                $0.files = a.files.map { name in InputFile.with { $0.name = name } }
                if let options = a.options { $0.options = options }
                $0.jobKey = a.jobKey
                $0.priority = a.priority
                $0.maxAttempts = a.maxAttempts
                $0.labels = a.labels
            }
            try row(.accepted, a.jobID, num: Int64(bitPattern: a.requestDigest), at: a.createdAt, unixMs: a.createdUnixMs,
                    deadline: a.deadline, body: header.serializedBytes())
            for (i, page) in a.pages.enumerated() {
                try insertPage.run([.text(a.jobID), .integer(Int64(i)), .text(page.file), .integer(Int64(page.filePage)),
                                    .integer(Int64(page.format.rawValue)), .blob(page.content)])
            }
        case .dispatched(let id, let page, let uid, let at):
            try row(.dispatched, id, page: page, num: Int64(bitPattern: uid), at: at)
        case .requeued(let id, let page, let failure, let at):
            try row(.requeued, id, page: page, at: at, body: failure?.serializedBytes())
        case .completed(let id, let page, let result, let at):
            try row(.completed, id, page: page, at: at, body: result.serializedBytes())
        case .failed(let id, let page, let status, let at):
            try row(.failed, id, page: page, at: at, body: status.serializedBytes())
        case .finished(let id, let state, let status, let unixMs, let at):
            try row(.finished, id, num: Int64(state.rawValue), at: at, unixMs: unixMs, body: status.serializedBytes())
            try dropContent.run([.text(id)])  // page bytes are not needed once the job is final
        case .evicted(let id):
            try row(.evicted, id, at: .zero)  // rows deleted at the next open
        }
    }

    private func row(_ kind: Kind, _ job: String, page: Int = 0, num: Int64 = 0, at: Duration, unixMs: Int64 = 0,
                     deadline: Duration? = nil, body: [UInt8]? = nil) throws(SQLiteError) {
        try insertChange.run([.integer(kind.rawValue), .text(job), .integer(Int64(page)), .integer(num),
                              .integer(wallUs(at)), .integer(unixMs), deadline.map { .integer(wallUs($0)) } ?? .null,
                              body.map { .blob($0) } ?? .null])
    }

    // MARK: Reading

    /// Every journaled change in order, with times re-based to this process's start.
    package func load() throws -> [JobChange] {
        var pagesByJob: [String: [PageDescriptor]] = [:]
        let pages = try db.prepare("SELECT job, idx, file, file_page, format, content FROM pages ORDER BY job, idx")
        try pages.bind([])
        while try pages.step() {
            let job = pages.text(0)
            let index = Int(pages.int64(1))
            var list = pagesByJob[job, default: []]
            guard index == list.count else { throw JournalError("job \(job): page \(index) follows page \(list.count - 1)") }
            list.append(PageDescriptor(file: pages.text(2), filePage: Int(truncatingIfNeeded: pages.int64(3)), pageIndex: index,
                                       content: pages.isNull(5) ? [] : pages.blob(5),
                                       format: ImageFormat(rawValue: Int32(truncatingIfNeeded: pages.int64(4)))))
            pagesByJob[job] = list
        }
        var out: [JobChange] = []
        let rows = try db.prepare("SELECT kind, job, page, num, at_us, unix_ms, deadline_us, body FROM changes ORDER BY seq")
        try rows.bind([])
        while try rows.step() {
            let job = rows.text(1)
            let page = Int(rows.int64(2))
            let num = rows.int64(3)
            let at = offset(rows.int64(4))
            let body = rows.isNull(7) ? nil : rows.blob(7)
            switch Kind(rawValue: rows.int64(0)) {
            case .accepted?:
                let header = try SubmitJobRequest(serializedBytes: body ?? [])
                out.append(.accepted(AcceptedJob(
                    jobID: job, jobKey: header.jobKey, files: header.files.map(\.name),
                    pages: pagesByJob.removeValue(forKey: job) ?? [], options: header.options,
                    priority: header.priority, maxAttempts: header.maxAttempts,
                    deadline: rows.isNull(6) ? nil : offset(rows.int64(6)), labels: header.labels,
                    requestDigest: UInt64(bitPattern: num), createdAt: at, createdUnixMs: rows.int64(5))))
            case .dispatched?:
                out.append(.dispatched(jobID: job, page: page, workerUID: UInt64(bitPattern: num), at: at))
            case .requeued?:
                out.append(.requeued(jobID: job, page: page, failure: try body.map { try Status(serializedBytes: $0) }, at: at))
            case .completed?:
                out.append(.completed(jobID: job, page: page, result: try PageResult(serializedBytes: body ?? []), at: at))
            case .failed?:
                out.append(.failed(jobID: job, page: page, status: try Status(serializedBytes: body ?? []), at: at))
            case .finished?:
                out.append(.finished(jobID: job, state: JobState(rawValue: Int32(truncatingIfNeeded: num)),
                                     status: try Status(serializedBytes: body ?? []), unixMs: rows.int64(5), at: at))
            case .evicted?:
                out.append(.evicted(jobID: job))
            case nil:
                throw JournalError("unknown change kind \(rows.int64(0)) for job \(job)")
            }
        }
        return out
    }

    // MARK: Time

    private func wallUs(_ d: Duration) -> Int64 { startedAtUnixUs + d.microseconds }
    private func offset(_ wallUs: Int64) -> Duration { .microseconds(wallUs - startedAtUnixUs) }
}

/// A journal whose content does not make sense (written by a different version, or damaged).
package struct JournalError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = "journal: " + description }
}
