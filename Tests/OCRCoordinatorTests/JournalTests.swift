import Foundation
import OCRClient
import OCRCoordinator
import OCRPages
import OCRWire
import OCRTestSupport
import Testing

/// The SQLite journal: changes written per event, read back in a "new process" (another start
/// time), and restored into a fresh scheduler.
@Suite(.blocking) struct JournalTests {
    static let start: Int64 = 1_700_000_000_000

    /// A fresh journal file in a temporary directory (removed by the caller's `defer`).
    static func temporaryPath() throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory.appendingPathComponent("coordinator.db").path, directory)
    }

    /// A journal of either backend, reopened as a restarted process would open it.
    final class Backend {
        let kind: TestJournal
        let path: String
        let directory: URL
        let database: PostgreSQLServer?

        init(_ kind: TestJournal) throws {
            self.kind = kind
            (path, directory) = try JournalTests.temporaryPath()
            database = kind == .postgresql ? try PostgreSQLServer() : nil
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Opens the journal; for PostgreSQL, wins its leadership first (at once when the last
        /// holder's connection is gone, as after a crash).
        func open(startedAtUnixMs: Int64) throws -> any JobJournal {
            guard let database else { return try SQLiteJournal(path: path, startedAtUnixMs: startedAtUnixMs) }
            let deadline = ContinuousClock.now + .seconds(15)
            let election = PostgreSQLLeaderElection(uri: database.uri, holder: "test \(startedAtUnixMs)", lease: .seconds(5))
            let leadership = try #require(election.lead(standing: { _ in }, stopped: { ContinuousClock.now > deadline }))
            return try leadership.journal(startedAtUnixMs: startedAtUnixMs)
        }
    }

    /// Sends `event`, then journals its changes in one transaction (as the shell does).
    static func send(_ h: inout SchedulerHarness, _ journal: any JobJournal, _ event: SchedulerEvent) throws -> [SchedulerDirective] {
        let out = h.send(event)
        try journal.append(out.compactMap { if case .journal(let c) = $0 { c } else { nil } })
        return out
    }

    @Test(arguments: TestJournal.allCases)
    func journalAndRestoreRebuildJobsPagesAndResults(kind: TestJournal) throws {
        let backend = try Backend(kind)

        // The first process: job a (4 pages, 60 s timeout) half done, job b cancelled.
        var h = SchedulerHarness { $0.journalChanges = true }
        var journal: (any JobJournal)? = try backend.open(startedAtUnixMs: Self.start)
        _ = try Self.send(&h, journal!, h.readyEvent(1, slots: 4))
        let tasks = try Self.send(&h, journal!, .submitJob(JobSubmission(
            request: 1, jobID: "a", jobKey: "key-a", pages: SchedulerHarness.pages(4, file: "a.tiff"),
            timeout: .seconds(60), labels: ["team": "ocr"], requestDigest: 42))).tasks
        #expect(tasks.map(\.task.pageIndex) == [0, 1, 2, 3])  // 4 slots
        h.now = .seconds(1)
        _ = try Self.send(&h, journal!, h.resultEvent(1, tasks[0].task, text: "page one"))
        _ = try Self.send(&h, journal!, h.resultEvent(1, tasks[1].task, error: .invalidArgument))  // FAILED for good
        _ = try Self.send(&h, journal!, .submitJob(JobSubmission(request: 2, jobID: "b", pages: SchedulerHarness.pages(2, file: "b.tiff"))))
        _ = try Self.send(&h, journal!, .cancelJob(request: 3, jobID: "b"))
        let before = h.scheduler.store.job("a", includePageStates: true)!
        #expect(before.pageStates == [.done, .failed, .dispatched, .dispatched])
        journal = nil  // "kill -9": the connection goes away without any shutdown step

        // The second process starts 5 s later (wall clock).
        let restarted = try backend.open(startedAtUnixMs: Self.start + 5_000)
        let changes = try restarted.load()
        var r = SchedulerHarness { $0.journalChanges = true }
        let requeues = r.scheduler.restore(changes, now: .zero)
        try restarted.append(requeues.compactMap { if case .journal(let c) = $0 { c } else { nil } })

        let a = r.scheduler.store.job("a", includePageStates: true)!
        #expect(a.pageStates == [.done, .failed, .pending, .pending])  // DISPATCHED -> PENDING
        #expect(a.state == .running && a.jobKey == "key-a" && a.pagesDone == 1 && a.pagesFailed == 1)
        #expect(a.createdUnixMs == before.createdUnixMs)
        #expect(r.scheduler.store.jobID(forKey: "key-a") == "a")
        #expect(r.scheduler.store.job("b")?.state == .cancelled)
        #expect(r.scheduler.store.replay("b") == h.scheduler.store.replay("b"))
        let results = r.scheduler.store.replay("a")!.compactMap { $0.pageCompleted?.result }
        #expect(results.map(\.text) == ["page one"])
        #expect(r.scheduler.store.replay("a")!.compactMap(\.pageFailed).map(\.pageIndex) == [1])

        // A worker of the new process gets the two pages again, with their bytes, and the
        // deadline is the same instant: 60 s after acceptance = 55 s after the restart.
        let again = r.send(r.readyEvent(7, slots: 2)).tasks
        #expect(again.map(\.task.pageIndex).sorted() == [2, 3])
        #expect(again.allSatisfy { $0.task.content == SchedulerHarness.pages(1, file: "").first!.content })
        #expect(again.allSatisfy { $0.task.file == "a.tiff" && $0.task.attempt == 2 })
        #expect(again.allSatisfy { (54_000...55_000).contains($0.task.remainingMs) })
        #expect(r.scheduler.store.queuedPages == 0 && r.scheduler.store.runningPages == 2)
    }

    @Test(arguments: TestJournal.allCases)
    func restoredRequeuesAreJournaledSoASecondRestartAgrees(kind: TestJournal) throws {
        let backend = try Backend(kind)
        var h = SchedulerHarness { $0.journalChanges = true }
        var journal: (any JobJournal)? = try backend.open(startedAtUnixMs: Self.start)
        _ = try Self.send(&h, journal!, h.readyEvent(1, slots: 1))
        let task = try Self.send(&h, journal!, .submitJob(JobSubmission(request: 1, jobID: "a", pages: SchedulerHarness.pages(2, file: "a.tiff")))).tasks[0].task
        journal = nil

        // Restart 1: page 0 back to PENDING, then a new worker finishes the whole job.
        var j1: (any JobJournal)! = try backend.open(startedAtUnixMs: Self.start + 1_000)
        var r = SchedulerHarness { $0.journalChanges = true }
        try j1.append(r.scheduler.restore(try j1.load(), now: .zero).compactMap { if case .journal(let c) = $0 { c } else { nil } })
        var pending = try Self.send(&r, j1, r.readyEvent(2, slots: 2)).tasks
        #expect(pending.map(\.task.pageIndex).sorted() == [0, 1] && task.pageIndex == 0)
        while let next = pending.popLast() {
            _ = try Self.send(&r, j1, r.resultEvent(2, next.task, text: "p\(next.task.pageIndex)"))
        }
        #expect(r.scheduler.store.job("a")?.state == .succeeded)
        j1 = nil

        // Restart 2: the job is finished, its results replay in page order.
        let j2 = try backend.open(startedAtUnixMs: Self.start + 2_000)
        var s = SchedulerHarness { $0.journalChanges = true }
        _ = s.scheduler.restore(try j2.load(), now: .zero)
        #expect(s.scheduler.store.job("a")?.state == .succeeded)
        #expect(s.scheduler.store.replay("a")!.compactMap { $0.pageCompleted?.result?.text } == ["p0", "p1"])
        #expect(s.scheduler.store.replay("a")!.last?.finished?.state == .succeeded)
        #expect(s.scheduler.store.activeJobs == 0 && s.scheduler.store.queuedPages == 0)
    }

    @Test func evictedJobsLeaveTheJournal() throws {
        let (path, directory) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        var h = SchedulerHarness { $0.journalChanges = true; $0.retainedFinishedJobs = 1 }
        var journal: SQLiteJournal? = try SQLiteJournal(path: path, startedAtUnixMs: Self.start)
        for id in ["x", "y", "z"] {
            _ = try Self.send(&h, journal!, .submitJob(JobSubmission(request: 1, jobID: id, pages: SchedulerHarness.pages(1, file: id))))
            _ = try Self.send(&h, journal!, .cancelJob(request: 2, jobID: id))
        }
        journal = nil
        let changes = try SQLiteJournal(path: path, startedAtUnixMs: Self.start).load()
        #expect(changes.count == 2)  // z: accepted, finished
        var r = SchedulerHarness()
        _ = r.scheduler.restore(changes, now: .zero)
        #expect(r.scheduler.listJobs(ListJobsRequest()).jobs.map(\.jobId) == ["z"])
    }

    @Test func aSecondCoordinatorOnTheSameJournalIsRefused() throws {
        let (path, directory) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        var first: SQLiteJournal? = try SQLiteJournal(path: path, startedAtUnixMs: Self.start)
        #expect(throws: SQLiteError.self) { try SQLiteJournal(path: path, startedAtUnixMs: Self.start) }
        first = nil  // the lock goes with the connection (and with the process on kill -9)
        #expect(throws: Never.self) { try SQLiteJournal(path: path, startedAtUnixMs: Self.start) }
        _ = first
    }

    @Test func aFileThatIsNotAJournalIsAStartupError() throws {
        let (path, directory) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not a database, just some text that is long enough to have a header".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SQLiteError.self) { try SQLiteJournal(path: path, startedAtUnixMs: Self.start) }
    }
}

extension SchedulerHarness {
    func readyEvent(_ name: UInt8, slots: UInt32) -> SchedulerEvent {
        .workerReady(worker(name), Ready.with {
            $0.workerUid = UInt64(name) &* 0x9E37_79B9_7F4A_7C15 | 1
            $0.slots = slots
            $0.languages = ["eng"]
        })
    }

    func resultEvent(_ name: UInt8, _ task: PageTask, text: String = "", error: StatusCode? = nil) -> SchedulerEvent {
        .taskResult(worker(name), TaskResult.with {
            $0.jobId = task.jobId
            $0.pageIndex = task.pageIndex
            $0.attempt = task.attempt
            if let error {
                $0.outcome = .error(Status.with { $0.code = error; $0.message = "bad page" })
            } else {
                $0.outcome = .result(PageResult.with { $0.text = text; $0.pageIndex = task.pageIndex })
            }
        })
    }
}

/// The client side of a restart: how `document(for:)` spaces its re-attach tries.
@Suite struct ReattachPolicyTests {
    @Test func backoffDoublesUpToTheCap() {
        let policy = ReattachPolicy(attempts: 6, initialDelay: .milliseconds(100), maxDelay: .milliseconds(500))
        #expect((0..<6).map { policy.delay(afterFailures: $0) } ==
                [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500), .milliseconds(500)])
        #expect(ReattachPolicy().delay(afterFailures: 1_000) == .seconds(5))
    }
}

/// The spool: each uploaded file once beside the journal, whatever the number of its pages.
@Suite(.blocking) struct SpoolTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func aFileOfManyPagesIsJournaledOnceAndItsCutsComeBack() throws {
        let (path, directory) = try JournalTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 400 pages sharing one 1 MB file (as a PDF's pages share its bytes).
        let content = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let digest = FileDigest.sha256(content)
        let pages = (0..<400).map { i in
            PageDescriptor(file: "big.pdf", filePage: i + 1, pageIndex: i, content: content, format: .pdf, cut: .pdfPage, digest: digest)
        }
        var h = SchedulerHarness { $0.journalChanges = true }
        var journal: SQLiteJournal? = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        _ = try JournalTests.send(&h, journal!, .submitJob(JobSubmission(request: 1, jobID: "a", pages: pages)))
        // A second job with the same file and a TIFF cut: still one spool file.
        var second = pages.prefix(2).map { $0 }
        second[1].cut = .tiffDirectory(offset: 123_456_789_012)
        _ = try JournalTests.send(&h, journal!, .submitJob(JobSubmission(request: 2, jobID: "b", pages: second)))
        let spool = path + ".spool"
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool) == [digest])
        #expect(Self.fileSize(spool + "/" + digest) == content.count)
        let database = Self.fileSize(path) + Self.fileSize(path + "-wal")
        #expect(database < 200_000, "journal \(database) bytes for 402 pages of one 1 MB file")
        journal = nil

        let restarted = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        var accepted: [String: [PageDescriptor]] = [:]
        for case .accepted(let a) in try restarted.load() { accepted[a.spec.jobID] = a.pages }
        // memcmp: `==` on 400 MB of arrays takes tens of seconds in a debug build.
        let same = { (bytes: [UInt8]) in bytes.count == content.count && memcmp(bytes, content, content.count) == 0 }
        #expect(accepted["a"]?.count == 400 && accepted["a"]?.allSatisfy { same($0.content) && $0.cut == .pdfPage } == true)
        #expect(accepted["b"]?.map(\.cut) == [.pdfPage, .tiffDirectory(offset: 123_456_789_012)])
        // The file stays while one unfinished job uses it, and goes with the last.
        var r = SchedulerHarness { $0.journalChanges = true }
        _ = r.scheduler.restore(try restarted.load(), now: .zero)
        _ = try JournalTests.send(&r, restarted, .cancelJob(request: 3, jobID: "a"))
        #expect(FileManager.default.fileExists(atPath: spool + "/" + digest))
        _ = try JournalTests.send(&r, restarted, .cancelJob(request: 4, jobID: "b"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty)
    }

    @Test func aSpoolFileNoJobUsesIsSweptAtOpen() throws {
        let (path, directory) = try JournalTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        // What a crash between storing a file and committing its job leaves behind.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + ".spool/.incoming-abc"))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + ".spool/" + FileDigest.sha256([1, 2, 3])))
        _ = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + ".spool").isEmpty)
    }
}
