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

/// The coordinator's write-ahead journal on one machine: every `JobChange`, in order, in a
/// SQLite database in WAL mode (`--journal PATH`). `append` writes one batch (the changes of the
/// scheduler events since the last commit, handed over by `JournalWriter` on its own thread) in
/// one transaction; the shell carries out those events' other directives only after it returns,
/// so nothing a client or worker sees is ahead of the journal. `load` reads the changes back for
/// `Scheduler.restore`.
///
/// Storage: the rows of `JournalRecords` in `changes` and `page_refs`, and each uploaded file
/// once in the `Spool` beside the database (`PATH.spool/`), so a restarted coordinator can
/// dispatch them again and a job costs its input bytes once however many pages share them. A
/// spool file is deleted when the last unfinished job using it finishes. An evicted job's rows
/// are deleted at once; those of jobs evicted by older versions when the journal is opened
/// (compaction, which also sweeps the spool), so a commit while running touches one table page
/// and no index (cost: see docs/status.md).
package final class SQLiteJournal: JobJournal {
    /// Where the uploads of the journal at `journalPath` are kept.
    static func spoolDirectory(journalPath: String) -> String { journalPath + ".spool" }

    private let db: SQLiteConnection
    private let records: JournalRecords
    private let insertChange: SQLiteStatement
    private let insertPage: SQLiteStatement
    private let deleteChanges: SQLiteStatement
    private let deletePages: SQLiteStatement
    private let spool: Spool
    private var spoolUse = SpoolUse()
    /// Why compaction was skipped at open (a full disk), or nil.
    package private(set) var compactionSkipped: String?
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement

    package var keepAliveInterval: Duration? { nil }
    package func keepAlive() {}

    /// Opens or creates the journal at `path`.
    /// - Parameter startedAtUnixMs: wall-clock time of this process's `now == .zero` (the same
    ///   value the scheduler was given), for re-basing times.
    package init(path: String, startedAtUnixMs: Int64, sync: JournalSync = .normal) throws {
        db = try SQLiteConnection(path: path)
        records = JournalRecords(startedAtUnixMs: startedAtUnixMs)
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
                CREATE TEMP TABLE evicted AS SELECT DISTINCT job FROM changes WHERE kind = \(JournalRecords.Kind.evicted.rawValue);
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
                AND job NOT IN (SELECT job FROM changes WHERE kind = \(JournalRecords.Kind.finished.rawValue))
                """)
            try inUse.bind([])
            while try inUse.step() { spoolUse.use(job: inUse.text(0), file: inUse.text(1)) }
        }
        spool.sweep(keeping: spoolUse.filesInUse)
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
        var batch = SpoolUse.Batch()
        try begin.run([])
        do {
            for change in changes { try write(records.write(for: change), &batch) }
            try commit.run([])
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        for file in spoolUse.committed(batch) { spool.remove(file) }
    }

    private func write(_ write: JournalRecords.Write, _ batch: inout SpoolUse.Batch) throws {
        switch write {
        case .accepted(let row, let pages, let files):
            for file in files where spoolUse.needsStoring(file.digest, &batch) { try spool.store(file.content, as: file.digest) }
            try insert(row)
            for page in pages {
                try insertPage.run([.text(page.job), .integer(page.index), .text(page.file), .integer(page.filePage), .integer(page.format),
                                    .text(page.digest), .integer(page.cut), .integer(page.cutOffset), .integer(page.fileIndex)])
            }
            batch.steps.append(.uses(job: row.job, files: files.map(\.digest)))
        case .row(let row):
            try insert(row)
        case .finished(let row):
            try insert(row)
            batch.steps.append(.finished(job: row.job))  // its spool files go once no other job uses them
        case .evicted(let job):
            // Its rows go now (the space is reused by what comes next: a journal's size is bounded
            // by what it keeps), and nothing of it is replayed.
            try deleteChanges.run([.text(job)])
            try deletePages.run([.text(job)])
        }
    }

    private func insert(_ row: JournalRecords.Change) throws(SQLiteError) {
        try insertChange.run([.integer(row.kind.rawValue), .text(row.job), .integer(row.page), .integer(row.num),
                              .integer(row.atUs), .integer(row.unixMs), row.deadlineUs.map { .integer($0) } ?? .null,
                              row.body.map { .blob($0) } ?? .null, .text(row.owner)])
    }

    // MARK: Reading

    /// Every journaled change in order, with times re-based to this process's start.
    package func load() throws -> [JobChange] {
        var pageRows: [JournalRecords.Page] = []
        let pages = try db.prepare("SELECT job, idx, file, file_page, format, digest, cut, cut_offset, file_idx FROM page_refs ORDER BY job, idx")
        try pages.bind([])
        while try pages.step() {
            pageRows.append(JournalRecords.Page(job: pages.text(0), index: pages.int64(1), file: pages.text(2), filePage: pages.int64(3),
                                                format: pages.int64(4), digest: pages.text(5), cut: pages.int64(6),
                                                cutOffset: pages.int64(7), fileIndex: pages.int64(8)))
        }
        var loaded = try records.pages(pageRows, unfinished: spoolUse.isUnfinished, content: spool.load)
        var out: [JobChange] = []
        let rows = try db.prepare("SELECT kind, job, page, num, at_us, unix_ms, deadline_us, body, owner FROM changes ORDER BY seq")
        try rows.bind([])
        while try rows.step() {
            guard let kind = JournalRecords.Kind(rawValue: rows.int64(0)) else {
                throw JournalError("unknown change kind \(rows.int64(0)) for job \(rows.text(1))")
            }
            let row = JournalRecords.Change(kind: kind, job: rows.text(1), page: rows.int64(2), num: rows.int64(3), atUs: rows.int64(4),
                                            unixMs: rows.int64(5), deadlineUs: rows.isNull(6) ? nil : rows.int64(6),
                                            body: rows.isNull(7) ? nil : rows.blob(7), owner: rows.text(8))
            out.append(try records.change(row, pages: &loaded))
        }
        return out
    }
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
