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
/// Storage: one row per change in `changes`; an accepted job's pages in `page_refs` (one row per
/// page: its file's SHA-256 and how to cut it out), and each uploaded file once in the `Spool`
/// beside the database (`PATH.spool/`), so a restarted coordinator can dispatch them again and a
/// job costs its input bytes once however many pages share them. A spool file is deleted when
/// the last unfinished job using it finishes. An eviction is one more row; the rows of evicted
/// jobs are deleted when the journal is opened (compaction, which also sweeps the spool), so a
/// commit while running touches one table page and no index (cost: see docs/status.md).
package final class Journal {
    /// Where the uploads of the journal at `journalPath` are kept.
    static func spoolDirectory(journalPath: String) -> String { journalPath + ".spool" }

    private let db: SQLiteConnection
    private let startedAtUnixUs: Int64
    private let insertChange: SQLiteStatement
    private let insertPage: SQLiteStatement
    private let deleteChanges: SQLiteStatement
    private let deletePages: SQLiteStatement
    private let spool: Spool
    /// Spool files used by unfinished jobs: by job, and how many such jobs use each file.
    private var filesOfJob: [String: [String]] = [:]
    private var jobsUsingFile: [String: Int] = [:]
    /// Why compaction was skipped at open (a full disk), or nil.
    package private(set) var compactionSkipped: String?
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement

    private enum Kind: Int64 {
        case accepted = 1, dispatched, requeued, completed, failed, finished, evicted
    }

    /// Opens or creates the journal at `path`.
    /// - Parameter startedAtUnixMs: wall-clock time of this process's `now == .zero` (the same
    ///   value the scheduler was given), for re-basing times.
    package init(path: String, startedAtUnixMs: Int64, sync: JournalSync = .normal) throws {
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
            CREATE TABLE IF NOT EXISTS page_refs(
                job TEXT NOT NULL, idx INTEGER NOT NULL, file TEXT NOT NULL, file_page INTEGER NOT NULL,
                format INTEGER NOT NULL, digest TEXT NOT NULL, cut INTEGER NOT NULL, cut_offset INTEGER NOT NULL,
                PRIMARY KEY(job, idx)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS changes_by_job ON changes(job);
            """)
        // Journals from before principals have no owner column: their jobs are the anonymous principal's.
        if try db.pragma("SELECT count(*) FROM pragma_table_info('changes') WHERE name = 'owner'") == "0" {
            try db.execute("ALTER TABLE changes ADD COLUMN owner TEXT NOT NULL DEFAULT ''")
        }
        insertChange = try db.prepare("INSERT INTO changes(kind, job, page, num, at_us, unix_ms, deadline_us, body, owner) VALUES (?,?,?,?,?,?,?,?,?)")
        // Pages name their file by its place in the job (file_idx), so a file's name is stored
        // once per job, not once per page; journals from before keep names in `file` (file_idx -1).
        if try db.pragma("SELECT count(*) FROM pragma_table_info('page_refs') WHERE name = 'file_idx'") == "0" {
            try db.execute("ALTER TABLE page_refs ADD COLUMN file_idx INTEGER NOT NULL DEFAULT -1")
        }
        insertPage = try db.prepare("INSERT OR REPLACE INTO page_refs(job, idx, file, file_page, format, digest, cut, cut_offset, file_idx) VALUES (?,?,?,?,?,?,?,?,?)")
        deleteChanges = try db.prepare("DELETE FROM changes WHERE job = ?")
        deletePages = try db.prepare("DELETE FROM page_refs WHERE job = ?")
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
        spool = try Spool(directory: Self.spoolDirectory(journalPath: path), sync: sync == .full)
        try migrateInlinePages()
        // Compaction writes; on a full disk it is skipped (the journal still opens and serves
        // what it has: a restart on a full disk must not become a crash loop).
        do {
            try db.execute("""
                BEGIN IMMEDIATE;
                CREATE TEMP TABLE evicted AS SELECT DISTINCT job FROM changes WHERE kind = \(Kind.evicted.rawValue);
                DELETE FROM changes WHERE job IN (SELECT job FROM evicted);
                DELETE FROM page_refs WHERE job IN (SELECT job FROM evicted);
                DROP TABLE evicted;
                COMMIT;
                """)
        } catch {
            try? db.execute("ROLLBACK")
            compactionSkipped = "\(error)"
        }
        do {  // Scoped: the statement is finalized before the first write.
            let inUse = try db.prepare("""
                SELECT DISTINCT job, digest FROM page_refs WHERE digest != ''
                AND job NOT IN (SELECT job FROM changes WHERE kind = \(Kind.finished.rawValue))
                """)
            try inUse.bind([])
            while try inUse.step() {
                filesOfJob[inUse.text(0), default: []].append(inUse.text(1))
                jobsUsingFile[inUse.text(1), default: 0] += 1
            }
        }
        spool.sweep(keeping: Set(jobsUsingFile.keys))
    }

    /// Journals written before the spool kept each page's bytes in a `pages` table: move them
    /// to the spool (a page already cut is a file of its own) and drop the table.
    private func migrateInlinePages() throws {
        guard try db.pragma("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'pages'") != "0" else { return }
        try begin.run([])
        do {  // Scoped: the statement is finalized before the table is dropped.
            let old = try db.prepare("SELECT job, idx, file, file_page, format, content FROM pages")
            try old.bind([])
            while try old.step() {
                var digest = ""
                if !old.isNull(5) {
                    let content = old.blob(5)
                    digest = FileDigest.sha256(content)
                    try spool.store(content, as: digest)
                }
                try insertPage.run([.text(old.text(0)), .integer(old.int64(1)), .text(old.text(2)), .integer(old.int64(3)),
                                    .integer(old.int64(4)), .text(digest), .integer(0), .integer(0), .integer(-1)])
            }
        }
        try db.execute("DROP TABLE pages")
        try commit.run([])
    }

    // MARK: Writing

    /// Writes `changes` in one transaction (and the files of accepted jobs to the spool, first);
    /// when it returns they are durable (see `JournalSync`). Throws `SQLiteError` or
    /// `JournalError` (a spool file that cannot be written); then nothing of the batch counts.
    package func append(_ changes: [JobChange]) throws {
        guard !changes.isEmpty else { return }
        var batch = Batch()
        try begin.run([])
        do {
            for change in changes { try write(change, &batch) }
            try commit.run([])
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        // Committed: count the files the batch's jobs use, and delete the ones no unfinished job uses.
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
                        spool.remove(file)
                    }
                }
            }
        }
    }

    /// What a batch changes in the spool's bookkeeping, applied in order once it commits.
    private struct Batch {
        enum Step { case uses(job: String, files: [String]), finished(job: String) }
        var steps: [Step] = []
        var stored: Set<String> = []
    }

    private func write(_ change: JobChange, _ batch: inout Batch) throws {
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
            try row(.accepted, a.spec.jobID, num: Int64(bitPattern: a.spec.requestDigest), at: a.createdAt, unixMs: a.createdUnixMs,
                    deadline: a.deadline, body: header.serializedBytes(), owner: a.spec.owner)
            var files: [String] = []
            var fileIndex = 0
            for (i, page) in a.pages.enumerated() {
                // Pages come in file order: the first file at or after the last one with this name.
                while fileIndex < a.spec.files.count, a.spec.files[fileIndex] != page.file { fileIndex += 1 }
                let named = fileIndex < a.spec.files.count
                // Pages from the real splitter carry their file's digest; others (tests' splitters) are hashed here.
                let digest = page.digest.isEmpty ? FileDigest.sha256(page.content) : page.digest
                if files.last != digest, !files.contains(digest) {
                    files.append(digest)
                    if jobsUsingFile[digest] == nil, batch.stored.insert(digest).inserted {
                        try spool.store(page.content, as: digest)
                    }
                }
                let (cut, offset): (Int64, UInt64) = switch page.cut {
                case .none: (0, 0)
                case .tiffDirectory(let offset): (1, offset)
                case .pdfPage: (2, 0)
                }
                try insertPage.run([.text(a.spec.jobID), .integer(Int64(i)), .text(named ? "" : page.file), .integer(Int64(page.filePage)),
                                    .integer(Int64(page.format.rawValue)), .text(digest), .integer(cut),
                                    .integer(Int64(bitPattern: offset)), .integer(named ? Int64(fileIndex) : -1)])
                if !named { fileIndex = 0 }
            }
            batch.steps.append(.uses(job: a.spec.jobID, files: files))
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
            batch.steps.append(.finished(job: id))  // its spool files go once no other job uses them
        case .evicted(let id):
            // Its rows go now (the space is reused by what comes next: a journal's size is bounded
            // by what it keeps), and nothing of it is replayed.
            try deleteChanges.run([.text(id)])
            try deletePages.run([.text(id)])
        }
    }

    private func row(_ kind: Kind, _ job: String, page: Int = 0, num: Int64 = 0, at: Duration, unixMs: Int64 = 0,
                     deadline: Duration? = nil, body: [UInt8]? = nil, owner: String = "") throws(SQLiteError) {
        try insertChange.run([.integer(kind.rawValue), .text(job), .integer(Int64(page)), .integer(num),
                              .integer(wallUs(at)), .integer(unixMs), deadline.map { .integer(wallUs($0)) } ?? .null,
                              body.map { .blob($0) } ?? .null, .text(owner)])
    }

    // MARK: Reading

    /// Every journaled change in order, with times re-based to this process's start.
    /// A job whose spool file is missing (deleted by hand) comes back with empty pages, which
    /// fail on the worker naming the file, rather than keeping the coordinator from starting.
    package func load() throws -> [JobChange] {
        var pagesByJob: [String: [PageDescriptor]] = [:]
        var files: [String: [UInt8]] = [:]
        var fileIndexesByJob: [String: [Int]] = [:]
        let pages = try db.prepare("SELECT job, idx, file, file_page, format, digest, cut, cut_offset, file_idx FROM page_refs ORDER BY job, idx")
        try pages.bind([])
        while try pages.step() {
            let job = pages.text(0)
            let index = Int(pages.int64(1))
            var list = pagesByJob[job, default: []]
            guard index == list.count else { throw JournalError("job \(job): page \(index) follows page \(list.count - 1)") }
            let digest = pages.text(5)
            // Finished jobs keep their page rows (file, page) but not their files.
            var content: [UInt8] = []
            if filesOfJob[job] != nil, !digest.isEmpty {
                if files[digest] == nil { files[digest] = spool.load(digest) ?? [] }
                content = files[digest]!
            }
            let cut: PageCut = switch pages.int64(6) {
            case 1: .tiffDirectory(offset: UInt64(bitPattern: pages.int64(7)))
            case 2: .pdfPage
            default: .none
            }
            list.append(PageDescriptor(file: pages.text(2), filePage: Int(truncatingIfNeeded: pages.int64(3)), pageIndex: index,
                                       content: content, format: ImageFormat(rawValue: Int32(truncatingIfNeeded: pages.int64(4))),
                                       cut: cut, digest: digest))
            pagesByJob[job] = list
            fileIndexesByJob[job, default: []].append(Int(truncatingIfNeeded: pages.int64(8)))
        }
        var out: [JobChange] = []
        let rows = try db.prepare("SELECT kind, job, page, num, at_us, unix_ms, deadline_us, body, owner FROM changes ORDER BY seq")
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
                var jobPages = pagesByJob.removeValue(forKey: job) ?? []
                for (i, fileIndex) in (fileIndexesByJob.removeValue(forKey: job) ?? []).enumerated() where fileIndex >= 0 {
                    guard fileIndex < header.files.count else { throw JournalError("job \(job): page \(i) names file #\(fileIndex) of \(header.files.count)") }
                    jobPages[i].file = header.files[fileIndex].name
                }
                out.append(.accepted(AcceptedJob(
                    jobID: job, jobKey: header.jobKey, owner: rows.text(8), files: header.files.map(\.name),
                    pages: jobPages, options: header.options,
                    priority: header.priority, maxAttempts: header.maxAttempts,
                    deadline: rows.isNull(6) ? nil : offset(rows.int64(6)), labels: header.labels,
                    callbackURL: header.callbackUrl, requestDigest: UInt64(bitPattern: num), createdAt: at, createdUnixMs: rows.int64(5))))
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
    /// The OS error behind it (ENOSPC: the disk is full), or 0.
    package var errno: Int32
    init(_ description: String, errno: Int32 = 0) {
        self.description = "journal: " + description
        self.errno = errno
    }
}
