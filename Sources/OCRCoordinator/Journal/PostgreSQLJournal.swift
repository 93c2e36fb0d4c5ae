import Foundation
import OCRPages
import OCRWire

/// The coordinator's journal in a PostgreSQL database that several coordinators share
/// (`--journal postgresql://...`): the same rows as `SQLiteJournal` (`JournalRecords`), with the
/// uploaded files in the database too (`ocr_spool`, in parts of 1 MiB), so that a coordinator
/// on another machine has everything it needs to take over.
///
/// Only the leader writes. A `PostgreSQLJournal` exists only for a coordinator that won the
/// leadership (`PostgreSQLLeaderElection`) with a fencing `epoch`: every transaction first renews
/// the lease in `ocr_leader` where the epoch is still its own, and the row lock that takes is
/// held until the commit, so no takeover can come between that check and the commit. When the
/// row has another epoch, the transaction is rolled back and `LeadershipLost` thrown: a deposed
/// coordinator commits nothing.
///
/// A broken connection (the database restarted, the network failed, the server ended this
/// session, a transaction left idle past the lease) is reconnected on the next call; until then calls fail and the
/// journal thread holds back and retries, as for a full disk.
package final class PostgreSQLJournal: JobJournal {
    /// The fencing token: how many times the leadership has changed hands, this one included.
    package let epoch: Int64
    private let uri: String
    private let lease: Duration
    private let records: JournalRecords
    private var connection: PostgreSQLConnection?
    private var spoolUse = SpoolUse()

    /// Rows per multi-row INSERT: one round trip for many rows, well under the 65,535 parameters
    /// a statement may have.
    private static let rowsPerStatement = 500

    /// Renews the lease three times per lease while idle (each commit renews it too).
    package var keepAliveInterval: Duration? { lease / 3 }

    /// Takes over `connection`, on which the leadership was just won with `epoch`.
    init(connection: PostgreSQLConnection, uri: String, epoch: Int64, lease: Duration, startedAtUnixMs: Int64) throws(PostgreSQLError) {
        self.connection = connection
        self.uri = uri
        self.epoch = epoch
        self.lease = lease
        records = JournalRecords(startedAtUnixMs: startedAtUnixMs)
        try Self.prepareSession(connection, lease: lease)
        let inUse = try connection.execute("""
            SELECT DISTINCT job, digest FROM ocr_page_refs WHERE digest <> ''
            AND job NOT IN (SELECT job FROM ocr_changes WHERE kind = \(JournalRecords.Kind.finished.rawValue))
            """)
        for row in 0..<inUse.count { spoolUse.use(job: inUse.text(row, 0), file: inUse.text(row, 1)) }
        // Files of jobs that finished or never committed (a leader that died between storing a
        // file and committing its job).
        try connection.execute("""
            DELETE FROM ocr_spool s WHERE NOT EXISTS (SELECT 1 FROM ocr_page_refs p WHERE p.digest = s.digest
              AND p.job NOT IN (SELECT job FROM ocr_changes WHERE kind = \(JournalRecords.Kind.finished.rawValue)))
            """)
    }

    /// Settings of a leader's session: a transaction left open (the process stopped in the
    /// middle of one) is ended by the server after a lease, releasing the leader row's lock
    /// for a standby.
    private static func prepareSession(_ connection: PostgreSQLConnection, lease: Duration) throws(PostgreSQLError) {
        try connection.execute("SET idle_in_transaction_session_timeout = \(max(1, lease.milliseconds))")
    }

    private func connected() throws -> PostgreSQLConnection {
        if let connection, connection.isOpen { return connection }
        connection = nil
        let fresh = try PostgreSQLConnection(uri: uri)
        try Self.prepareSession(fresh, lease: lease)
        connection = fresh
        return fresh
    }

    /// Runs `body` in one transaction that first renews the lease under this epoch (and, for a
    /// batch of changes, records its number as the last one committed).
    private func transaction(batch: Int64?, _ body: (PostgreSQLConnection) throws -> Void) throws {
        let db = try connected()
        do {
            try db.execute("BEGIN")
            let renewed = try db.execute("""
                UPDATE ocr_leader SET lease_until = clock_timestamp() + $1 * interval '1 millisecond', last_batch = coalesce($3, last_batch)
                WHERE id = 1 AND epoch = $2
                """, [.integer(lease.milliseconds), .integer(epoch), batch.map { .integer($0) } ?? .null])
            guard renewed.affected == 1 else {
                _ = try? db.execute("ROLLBACK")
                throw lost(db)
            }
            try body(db)
            try db.execute("COMMIT")
        } catch let error as PostgreSQLError {
            if db.isOpen { _ = try? db.execute("ROLLBACK") } else { connection = nil }
            throw error
        }
    }

    private func lost(_ db: PostgreSQLConnection) -> LeadershipLost {
        let holder = (try? db.execute("SELECT epoch, holder FROM ocr_leader WHERE id = 1"))
            .flatMap { $0.count == 1 ? "epoch \($0.text(0, 0)) held by \($0.text(0, 1))" : nil }
        return LeadershipLost(description: "the journal's leadership moved on from epoch \(epoch)\(holder.map { " to \($0)" } ?? "")")
    }

    // MARK: Writing

    /// Renews the lease; a broken connection is replaced once, at once (the server ended this
    /// session, a stopped leader's transaction for instance: the epoch check on a new one says
    /// whether this coordinator still leads).
    package func keepAlive() throws {
        do {
            try transaction(batch: nil) { _ in }
        } catch let error as PostgreSQLError where error.connectionLost {
            try transaction(batch: nil) { _ in }
        }
    }

    /// A batch whose COMMIT may or may not have happened (the connection broke before its
    /// answer): its number, how many changes it had, and the spool bookkeeping it would leave.
    private struct Uncertain {
        var batch: Int64
        var count: Int
        var spoolUse: SpoolUse
    }
    /// What the next call's leading changes are, after a call that failed: `committedPrefix` of
    /// them were written, and the `uncertain` batch after them may have been.
    private var committedPrefix = 0
    private var uncertain: Uncertain?
    /// Numbers of this leader's batches (`ocr_leader.last_batch` is the last committed one).
    private var batchNumber: Int64 = 0

    /// Writes `changes` (and the files of accepted jobs) in one transaction under this epoch.
    ///
    /// A connection that breaks is replaced and the batch tried once more at once (the epoch
    /// check then says whether this coordinator still leads). Whether a batch whose COMMIT got
    /// no answer was committed is read back from `last_batch` before anything else is written.
    /// After a failure the journal thread calls again with the failed changes first
    /// (`JobJournal.append`), so what an earlier call wrote is skipped: nothing is written twice.
    package func append(_ input: [JobChange]) throws {
        var done = committedPrefix
        do {
            for attempt in 0..<2 {
                if let pending = uncertain {
                    if try lastCommittedBatch() >= pending.batch {
                        spoolUse = pending.spoolUse
                        done += pending.count
                    }
                    uncertain = nil
                }
                let changes = input.dropFirst(done)
                guard !changes.isEmpty else { break }
                batchNumber += 1
                let number = batchNumber
                var after = spoolUse
                do {
                    try transaction(batch: number) { db in after = try write(changes, db) }
                    spoolUse = after
                    break
                } catch let error as PostgreSQLError where error.connectionLost {
                    connection = nil
                    uncertain = Uncertain(batch: number, count: changes.count, spoolUse: after)
                    if attempt == 1 { throw error }
                }
            }
            committedPrefix = 0
        } catch {
            committedPrefix = done
            throw error
        }
    }

    /// The number of this leader's last committed batch.
    private func lastCommittedBatch() throws -> Int64 {
        let db = try connected()
        let row = try db.execute("SELECT last_batch FROM ocr_leader WHERE id = 1 AND epoch = $1", [.integer(epoch)])
        guard row.count == 1 else { throw lost(db) }
        return row.int64(0, 0)
    }

    /// The rows of `changes`, in order; returns the spool bookkeeping once they are committed.
    private func write(_ changes: ArraySlice<JobChange>, _ db: PostgreSQLConnection) throws -> SpoolUse {
        var batch = SpoolUse.Batch()
        var rows: [JournalRecords.Change] = []
        var pages: [JournalRecords.Page] = []
        // Rows go in order: an evicted job's rows are deleted after what came before, not what comes after.
        func flush() throws {
            try insert(rows, db)
            try insert(pages, db)
            rows = []
            pages = []
        }
        for change in changes {
            switch records.write(for: change) {
            case .accepted(let row, let jobPages, let files):
                for file in files where spoolUse.needsStoring(file.digest, &batch) { try store(file.content, as: file.digest, db) }
                rows.append(row)
                pages += jobPages
                batch.steps.append(.uses(job: row.job, files: files.map(\.digest)))
            case .row(let row):
                rows.append(row)
            case .finished(let row):
                rows.append(row)
                batch.steps.append(.finished(job: row.job))
            case .evicted(let job):
                try flush()
                try db.execute("DELETE FROM ocr_changes WHERE job = $1", [.text(job)])
                try db.execute("DELETE FROM ocr_page_refs WHERE job = $1", [.text(job)])
            }
        }
        try flush()
        // Files the batch's finished jobs were the last to use leave with the same commit.
        var after = spoolUse
        for file in after.committed(batch) { try db.execute("DELETE FROM ocr_spool WHERE digest = $1", [.text(file)]) }
        return after
    }

    private func insert(_ rows: [JournalRecords.Change], _ db: PostgreSQLConnection) throws {
        try insert(rows, into: "ocr_changes(kind, job, page, num, at_us, unix_ms, deadline_us, body, owner)", db) { row in
            [.integer(row.kind.rawValue), .text(row.job), .integer(row.page), .integer(row.num), .integer(row.atUs),
             .integer(row.unixMs), row.deadlineUs.map { .integer($0) } ?? .null, row.body.map { .bytes($0) } ?? .null, .text(row.owner)]
        }
    }

    private func insert(_ pages: [JournalRecords.Page], _ db: PostgreSQLConnection) throws {
        try insert(pages, into: "ocr_page_refs(job, idx, file, file_page, format, digest, cut, cut_offset, file_idx)", db,
                   onConflict: " ON CONFLICT (job, idx) DO UPDATE SET file = EXCLUDED.file, file_page = EXCLUDED.file_page, format = EXCLUDED.format,"
                   + " digest = EXCLUDED.digest, cut = EXCLUDED.cut, cut_offset = EXCLUDED.cut_offset, file_idx = EXCLUDED.file_idx") { page in
            [.text(page.job), .integer(page.index), .text(page.file), .integer(page.filePage), .integer(page.format),
             .text(page.digest), .integer(page.cut), .integer(page.cutOffset), .integer(page.fileIndex)]
        }
    }

    /// Rows of `ocr_spool` hold a file in parts of this many bytes: neither this process nor
    /// libpq ever builds a message of a whole upload (hundreds of megabytes).
    private static let spoolPartBytes = 1 << 20

    private func store(_ content: [UInt8], as digest: String, _ db: PostgreSQLConnection) throws {
        var part = 0
        repeat {
            let start = part * Self.spoolPartBytes
            let bytes = Array(content[start..<min(content.count, start + Self.spoolPartBytes)])
            try db.execute("INSERT INTO ocr_spool(digest, part, content) VALUES ($1, $2, $3) ON CONFLICT (digest, part) DO NOTHING",
                           [.text(digest), .integer(Int64(part)), .bytes(bytes)])
            part += 1
        } while part * Self.spoolPartBytes < content.count
    }

    /// A stored file, read one part at a time; nil when it has none.
    private func load(spooled digest: String, _ db: PostgreSQLConnection) -> [UInt8]? {
        guard let counted = try? db.execute("SELECT count(*) FROM ocr_spool WHERE digest = $1", [.text(digest)]),
              case let parts = counted.int64(0, 0), parts > 0 else { return nil }
        var content: [UInt8] = []
        for part in 0..<parts {
            guard let row = try? db.execute("SELECT content FROM ocr_spool WHERE digest = $1 AND part = $2", [.text(digest), .integer(part)]),
                  row.count == 1 else { return nil }
            content += row.bytes(0, 0)
        }
        return content
    }

    /// Multi-row INSERTs of `rows` into `table` ("name(col, ...)"), `rowsPerStatement` at a time.
    private func insert<Row>(_ rows: [Row], into table: String, _ db: PostgreSQLConnection, onConflict: String = "",
                             values: (Row) -> [PostgreSQLValue]) throws {
        for chunk in stride(from: 0, to: rows.count, by: Self.rowsPerStatement) {
            let part = rows[chunk..<min(rows.count, chunk + Self.rowsPerStatement)]
            let parameters = part.flatMap(values)
            try db.execute("INSERT INTO \(table) VALUES " + Self.placeholders(rows: part.count, columns: parameters.count / part.count)
                           + onConflict, parameters)
        }
    }

    /// "($1,$2,...),($10,...)" for a multi-row VALUES list.
    private static func placeholders(rows: Int, columns: Int) -> String {
        var out = ""
        out.reserveCapacity(rows * columns * 5)
        for row in 0..<rows {
            if row > 0 { out += "," }
            out += "("
            for column in 0..<columns {
                if column > 0 { out += "," }
                out += "$\(row * columns + column + 1)"
            }
            out += ")"
        }
        return out
    }

    // MARK: Reading

    /// Every journaled change in order, with times re-based to this process's start.
    package func load() throws -> [JobChange] {
        let db = try connected()
        let pageRows = try db.execute("SELECT job, idx, file, file_page, format, digest, cut, cut_offset, file_idx FROM ocr_page_refs ORDER BY job, idx")
        var pages: [JournalRecords.Page] = []
        pages.reserveCapacity(pageRows.count)
        for r in 0..<pageRows.count {
            pages.append(JournalRecords.Page(job: pageRows.text(r, 0), index: pageRows.int64(r, 1), file: pageRows.text(r, 2),
                                             filePage: pageRows.int64(r, 3), format: pageRows.int64(r, 4), digest: pageRows.text(r, 5),
                                             cut: pageRows.int64(r, 6), cutOffset: pageRows.int64(r, 7), fileIndex: pageRows.int64(r, 8)))
        }
        var loaded = try records.pages(pages, unfinished: spoolUse.isUnfinished) { load(spooled: $0, db) }
        let rows = try db.execute("SELECT kind, job, page, num, at_us, unix_ms, deadline_us, body, owner FROM ocr_changes ORDER BY seq")
        var out: [JobChange] = []
        out.reserveCapacity(rows.count)
        for r in 0..<rows.count {
            guard let kind = JournalRecords.Kind(rawValue: rows.int64(r, 0)) else {
                throw JournalError("unknown change kind \(rows.int64(r, 0)) for job \(rows.text(r, 1))")
            }
            let row = JournalRecords.Change(kind: kind, job: rows.text(r, 1), page: rows.int64(r, 2), num: rows.int64(r, 3),
                                            atUs: rows.int64(r, 4), unixMs: rows.int64(r, 5),
                                            deadlineUs: rows.isNull(r, 6) ? nil : rows.int64(r, 6),
                                            body: rows.isNull(r, 7) ? nil : rows.bytes(r, 7), owner: rows.text(r, 8))
            out.append(try records.change(row, pages: &loaded))
        }
        return out
    }
}
