import Foundation
import OCRBasics
import OCRCoordinator
import OCRTestSupport
import Testing

/// The lease and its fencing epoch on a real PostgreSQL server: one leader at a time, a standby
/// that waits while the leader lives and renews, takes over when the lease lapses or the
/// leader's session ends, and a deposed leader that can commit nothing.
@Suite(.serialized, .blocking, .enabled(if: PostgreSQLServer.isAvailable, "needs PostgreSQL (apt-get install postgresql)"))
struct LeaderElectionTests {
    static let start: Int64 = 1_700_000_000_000

    /// A finished one-page job's changes, as a scheduler would journal them.
    static func changes(_ job: String) -> [JobChange] {
        var h = SchedulerHarness { $0.journalChanges = true }
        var out = h.send(h.readyEvent(1, slots: 1))
        let submitted = h.send(.submitJob(JobSubmission(request: 1, jobID: job, pages: SchedulerHarness.pages(1, file: "\(job).png"))))
        out += submitted
        out += h.send(h.resultEvent(1, submitted.tasks[0].task, text: "text of \(job)"))
        return out.compactMap { if case .journal(let c) = $0 { c } else { nil } }
    }

    static func election(_ database: PostgreSQLServer, _ name: String, lease: Duration) -> PostgreSQLLeaderElection {
        PostgreSQLLeaderElection(uri: database.uri, holder: name, lease: lease)
    }

    /// Tries to lead for `patience`; nil when it stayed a standby.
    static func lead(_ election: PostgreSQLLeaderElection, patience: Duration,
                     seen: Locked<[PostgreSQLLeaderElection.Standing]> = Locked([])) -> PostgreSQLLeadership? {
        let deadline = ContinuousClock.now + patience
        return election.lead(standing: { standing in seen.withLock { $0.append(standing) } }, stopped: { ContinuousClock.now > deadline })
    }

    @Test func aStandbyWaitsWhileTheLeaderRenewsAndTakesOverWhenItsLeaseLapses() throws {
        let database = try PostgreSQLServer()
        let a = try #require(Self.lead(Self.election(database, "a", lease: .seconds(1)), patience: .seconds(5)))
        #expect(a.epoch == 1)
        let journalA = try a.journal(startedAtUnixMs: Self.start)
        try journalA.append(Self.changes("one"))

        // While a renews (every 200 ms here), b stays a standby and says who leads.
        let renewing = Locked(true)
        let shared = UncheckedSendable(journalA)  // used by the renewer alone until it ends
        let renewer = Thread {
            while renewing.withLock({ $0 }) {
                try? shared.value.keepAlive()
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        renewer.start()
        let seen = Locked<[PostgreSQLLeaderElection.Standing]>([])
        #expect(Self.lead(Self.election(database, "b", lease: .seconds(1)), patience: .seconds(2), seen: seen) == nil)
        renewing.withLock { $0 = false }
        #expect(seen.withLock { $0 }.contains(.standby(leader: "a", epoch: 1)))
        Thread.sleep(forTimeInterval: 0.3)  // the renewer's last round

        // a stops renewing (a stopped process: its session lives on): after the lease, b leads.
        let before = try database.query("SELECT count(*) FROM ocr_changes")
        let b = try #require(Self.lead(Self.election(database, "b", lease: .seconds(1)), patience: .seconds(5)))
        #expect(b.epoch == 2)
        let journalB = try b.journal(startedAtUnixMs: Self.start)
        #expect(try journalB.load().count == Int(before))

        // a wakes up: whatever it writes is refused, and nothing of it is in the journal.
        #expect(throws: LeadershipLost.self) { try journalA.append(Self.changes("two")) }
        #expect(throws: LeadershipLost.self) { try journalA.keepAlive() }
        #expect(try database.query("SELECT count(*) FROM ocr_changes") == before)
        try journalB.append(Self.changes("three"))
        #expect(try database.query("SELECT count(DISTINCT job) FROM ocr_changes") == "2")
        #expect(try database.query("SELECT holder || ' ' || epoch FROM ocr_leader") == "b 2")
    }

    @Test func aLeaderWhoseSessionEndedIsReplacedAtOnce() throws {
        let database = try PostgreSQLServer()
        let won = try #require(Self.lead(Self.election(database, "a", lease: .seconds(30)), patience: .seconds(5)))
        var journalA: (any JobJournal)? = try won.journal(startedAtUnixMs: Self.start)
        try journalA!.append(Self.changes("one"))
        // The process dies: its connection closes (here: the journal, which took it over, is released).
        journalA = nil
        let started = ContinuousClock.now
        let b = try #require(Self.lead(Self.election(database, "b", lease: .seconds(30)), patience: .seconds(10)))
        // Well before the 30 s lease: the session's end is enough.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(b.epoch == 2)
        #expect(try b.journal(startedAtUnixMs: Self.start).load().count == Self.changes("one").count)
    }

    @Test func fourStandbysRacingForALapsedLeaseMakeOneLeader() async throws {
        let database = try PostgreSQLServer()
        let a = try #require(Self.lead(Self.election(database, "a", lease: .milliseconds(500)), patience: .seconds(5)))
        let journalA = try a.journal(startedAtUnixMs: Self.start)
        try journalA.keepAlive()
        // Four standbys try at once, each for 3 s, and a winner keeps its session (as a leading
        // process does): exactly one wins (epoch 2).
        let won = Locked<[PostgreSQLLeadership]>([])
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<4 {
                group.addTask {
                    await onOwnThread {
                        if let leadership = Self.lead(Self.election(database, "s\(i)", lease: .seconds(30)), patience: .seconds(3)) {
                            won.withLock { $0.append(leadership) }
                        }
                    }
                }
            }
        }
        let winners = won.withLock { $0.map(\.epoch) }
        #expect(winners == [2], "epochs won: \(winners)")
        #expect(throws: LeadershipLost.self) { try journalA.keepAlive() }
    }

    /// The answer to a COMMIT is lost (the server committed; the connection broke first): the
    /// journal reads back whether its batch was committed and never writes it twice.
    @Test func aCommitWhoseAnswerWasLostIsNotWrittenTwice() async throws {
        let database = try PostgreSQLServer()
        let arm = database.directory.appendingPathComponent("arm-\(UUID().uuidString)").path
        let script = Binaries.repoRoot.appendingPathComponent("Tests/OCRCoordinatorTests/pg_commit_cutter.py").path
        let proxy = try ChildProcess("/usr/bin/env", ["python3", script, "\(database.port)", arm])
        let deadline = ContinuousClock.now + .seconds(10)
        while !String(decoding: proxy.stdout, as: UTF8.self).contains("\n"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let port = try #require(Int(String(decoding: proxy.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        let election = PostgreSQLLeaderElection(uri: "postgresql://ocr@127.0.0.1:\(port)/postgres", holder: "a", lease: .seconds(30))
        let leadership = try #require(Self.lead(election, patience: .seconds(5)))
        let journal = try leadership.journal(startedAtUnixMs: Self.start)
        let first = Self.changes("one"), second = Self.changes("two")
        try journal.append(first)

        _ = FileManager.default.createFile(atPath: arm, contents: nil)
        try journal.append(second)  // its COMMIT's answer is lost; append settles it and returns
        #expect(!FileManager.default.fileExists(atPath: arm), "the proxy cut a COMMIT")
        #expect(try database.query("SELECT count(*) FROM ocr_changes") == "\(first.count + second.count)")
        #expect(try journal.load().count == first.count + second.count)

        // Lost again, and the database gone before the retry can settle it: the journal thread's
        // next call (the failed batch first, then more) writes the rest once.
        let third = Self.changes("three"), fourth = Self.changes("four")
        _ = FileManager.default.createFile(atPath: arm, contents: nil)
        try database.stop()
        #expect(throws: PostgreSQLError.self) { try journal.append(third) }
        try database.start()
        try journal.append(third + fourth)
        let rows = first.count + second.count + third.count + fourth.count
        #expect(try database.query("SELECT count(*) FROM ocr_changes") == "\(rows)")
        #expect(try database.query("SELECT count(DISTINCT job) FROM ocr_changes") == "4")
    }
}
