import Foundation
import Synchronization

/// Which of the coordinators sharing a PostgreSQL journal leads: a lease with a fencing epoch in
/// the one row of `ocr_leader` (epoch, holder, the holder's database session, lease end by the
/// database's clock, so that coordinators' clocks never matter).
///
/// A standby takes over when the lease has lapsed, or at once when the holder's session is gone
/// (a leader killed or crashed closes its connection, and the server ends its session): it
/// increments the epoch in an UPDATE that re-checks both conditions under the row's lock, so
/// that of two standbys, or a standby and a leader renewing, exactly one wins, and a leader
/// busy in a long transaction (a large upload) keeps its lease. A deposed leader (stopped or
/// cut off past its lease) finds another epoch at its next write and steps down
/// (`PostgreSQLJournal`).
package struct PostgreSQLLeaderElection: Sendable {
    /// A libpq connection URI.
    package var uri: String
    /// Who this coordinator is, for standbys, logs and `/readyz` ("host pid endpoint").
    package var holder: String
    /// How long a leader that stops renewing keeps the leadership.
    package var lease: Duration

    package init(uri: String, holder: String, lease: Duration) {
        self.uri = uri
        self.holder = holder
        self.lease = lease
    }

    /// What a coordinator that does not lead sees.
    package enum Standing: Sendable, Equatable {
        /// The database cannot be reached (or refuses us): why.
        case unreachable(String)
        /// Another coordinator leads.
        case standby(leader: String, epoch: Int64)
    }

    /// How often a standby looks: a tenth of the lease, between 100 and 500 ms.
    var pollInterval: Duration { min(.milliseconds(500), max(.milliseconds(100), lease / 10)) }

    /// Blocks until this coordinator leads, then returns the leadership (the session it was won
    /// on and the new epoch); nil when `stopped` says to give up. `standing` is called whenever what a standby
    /// sees changes. Errors are not thrown: a standby waits through them (the database may be
    /// restarting), reporting them as `.unreachable`.
    package func lead(standing: (Standing) -> Void, stopped: () -> Bool) -> PostgreSQLLeadership? {
        var last: Standing?
        var connection: PostgreSQLConnection?
        func report(_ now: Standing) {
            if now != last { standing(now) }
            last = now
        }
        while !stopped() {
            do {
                let db = try connection ?? PostgreSQLConnection(uri: uri)
                if connection == nil {
                    try Self.createSchema(db)
                    // A standby's UPDATE never waits long behind a leader's commit.
                    try db.execute("SET lock_timeout = 1000")
                    connection = db
                }
                switch try attempt(db) {
                case .won(let epoch):
                    try db.execute("SET lock_timeout = 0")
                    return PostgreSQLLeadership(election: self, epoch: epoch, connection: db)
                case .lost(let leader, let epoch):
                    report(.standby(leader: leader, epoch: epoch))
                }
            } catch let error as PostgreSQLError {
                if error.connectionLost || connection?.isOpen == false { connection = nil }
                // 55P03 (lock_not_available): the leader is committing; it is alive.
                if error.sqlState != "55P03" { report(.unreachable(error.description)) }
            } catch {
                connection = nil
                report(.unreachable("\(error)"))
            }
            Thread.sleep(forTimeInterval: Double(pollInterval.milliseconds) / 1000)
        }
        return nil
    }

    private enum Attempt { case won(epoch: Int64), lost(leader: String, epoch: Int64) }

    private func attempt(_ db: PostgreSQLConnection) throws(PostgreSQLError) -> Attempt {
        let leaseMs = PostgreSQLValue.integer(lease.milliseconds)
        let mySession = "(SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid())"
        let first = try db.execute("""
            INSERT INTO ocr_leader(id, epoch, holder, backend_pid, backend_start, lease_until)
            VALUES (1, 1, $1, pg_backend_pid(), \(mySession), clock_timestamp() + $2 * interval '1 millisecond')
            ON CONFLICT (id) DO NOTHING
            """, [.text(holder), leaseMs])
        if first.affected == 1 { return .won(epoch: 1) }
        let seen = try db.execute("""
            SELECT epoch, holder, lease_until < clock_timestamp(),
                   EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid AND a.backend_start = l.backend_start)
            FROM ocr_leader l WHERE id = 1
            """)
        guard seen.count == 1 else { return .lost(leader: "nobody", epoch: 0) }
        let epoch = seen.int64(0, 0), leader = seen.text(0, 1)
        let lapsed = seen.bool(0, 2), alive = seen.bool(0, 3)
        guard lapsed || !alive else { return .lost(leader: leader, epoch: epoch) }
        // A leader in the middle of a transaction holds the row's lock (its renewal is not yet
        // visible, so its lease looks lapsed): this UPDATE waits for it, up to lock_timeout, and
        // then sees the renewed lease. A leader stopped inside a transaction has it ended by the
        // server after a lease (idle_in_transaction_session_timeout); one stopped between
        // transactions holds nothing, and finds another epoch at its next write.
        let taken = try db.execute("""
            UPDATE ocr_leader l SET epoch = epoch + 1, holder = $1, backend_pid = pg_backend_pid(), backend_start = \(mySession),
                   lease_until = clock_timestamp() + $2 * interval '1 millisecond', last_batch = 0
            WHERE id = 1 AND epoch = $3 AND (lease_until < clock_timestamp()
                OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid AND a.backend_start = l.backend_start))
            RETURNING epoch
            """, [.text(holder), leaseMs, .integer(epoch)])
        return taken.count == 1 ? .won(epoch: taken.int64(0, 0)) : .lost(leader: leader, epoch: epoch)
    }

    /// The journal's tables, created once by whichever coordinator comes first (an advisory
    /// lock keeps two from racing on the catalog).
    static func createSchema(_ db: PostgreSQLConnection) throws(PostgreSQLError) {
        try db.execute("""
            BEGIN;
            SELECT pg_advisory_xact_lock(7308327211840913473);
            CREATE TABLE IF NOT EXISTS ocr_leader(
                id integer PRIMARY KEY CHECK (id = 1), epoch bigint NOT NULL, holder text NOT NULL,
                backend_pid integer NOT NULL, backend_start timestamptz, lease_until timestamptz NOT NULL,
                last_batch bigint NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS ocr_changes(
                seq bigserial PRIMARY KEY, kind bigint NOT NULL, job text NOT NULL, page bigint NOT NULL DEFAULT 0,
                num bigint NOT NULL DEFAULT 0, at_us bigint NOT NULL DEFAULT 0, unix_ms bigint NOT NULL DEFAULT 0,
                deadline_us bigint, body bytea, owner text NOT NULL DEFAULT '');
            CREATE INDEX IF NOT EXISTS ocr_changes_by_job ON ocr_changes(job);
            CREATE TABLE IF NOT EXISTS ocr_page_refs(
                job text NOT NULL, idx bigint NOT NULL, file text NOT NULL, file_page bigint NOT NULL, format bigint NOT NULL,
                digest text NOT NULL, cut bigint NOT NULL, cut_offset bigint NOT NULL, file_idx bigint NOT NULL,
                PRIMARY KEY (job, idx));
            CREATE TABLE IF NOT EXISTS ocr_spool(digest text NOT NULL, part integer NOT NULL, content bytea NOT NULL,
                PRIMARY KEY (digest, part));
            COMMIT;
            """)
    }
}

/// The leadership of a shared journal as `PostgreSQLLeaderElection.lead` won it: the epoch and
/// the database session it was won on, until the coordinator's journal takes them over.
package final class PostgreSQLLeadership: Sendable {
    package let election: PostgreSQLLeaderElection
    /// The fencing token this coordinator writes with.
    package let epoch: Int64
    private let connection: Mutex<PostgreSQLConnection?>

    init(election: PostgreSQLLeaderElection, epoch: Int64, connection: sending PostgreSQLConnection) {
        self.election = election
        self.epoch = epoch
        self.connection = Mutex(connection)
    }

    /// The journal that writes under this leadership (on the session it was won on, once;
    /// later on a new one). `startedAtUnixMs`: as for `SQLiteJournal`.
    package func journal(startedAtUnixMs: Int64) throws -> PostgreSQLJournal {
        let session = connection.withLock { connection -> PostgreSQLConnection? in
            defer { connection = nil }
            return connection
        }
        return try PostgreSQLJournal(connection: session ?? PostgreSQLConnection(uri: election.uri), uri: election.uri, epoch: epoch,
                                     lease: election.lease, startedAtUnixMs: startedAtUnixMs)
    }
}
