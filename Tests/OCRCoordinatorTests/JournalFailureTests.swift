import Foundation
import OCRLog
import OCRPages
import OCRTestSupport
import OCRWire
import Synchronization
import Testing
@testable import OCRCoordinator

/// The journal when the disk fails it, and journals written by older versions.
@Suite(.serialized) struct JournalFailureTests {
    static func job(_ id: String, _ contents: [[UInt8]]) -> JobChange {
        .accepted(AcceptedJob(jobID: id, jobKey: "", files: ["a.png"],
                              pages: contents.enumerated().map { i, c in PageDescriptor(file: "a.png", filePage: i + 1, pageIndex: i, content: c, format: .png) },
                              options: nil, priority: 0, maxAttempts: 3, deadline: nil, labels: [:], requestDigest: 0,
                              createdAt: .zero, createdUnixMs: JournalTests.start))
    }

    @Test(.enabled(if: ScratchFilesystem.isAvailable, "needs permission to mount a tmpfs"))
    func aBatchTheFullDiskRefusesIsRetriedUntilItCommitsInOrder() async throws {
        let scratch = try ScratchFilesystem(megabytes: 4)
        defer { scratch.unmount() }
        let path = scratch.directory.appendingPathComponent("coordinator.db").path
        let page = (0..<256 << 10).map { UInt8(truncatingIfNeeded: $0 &* 7) }  // 256 kB for the spool: no room
        do {  // the writer holds the journal (its exclusive lock) until it is released
            let writer = JournalWriter(try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start), logger: .disabled)
            let committed = Mutex<[UInt64]>([]), troubles = Mutex<[String?]>([])
            writer.start(committed: { s in committed.withLock { $0.append(s) } }, trouble: { t in troubles.withLock { $0.append(t) } })
            try scratch.fill()
            writer.append([Self.job("a", [page])], sequence: 1)
            writer.append([.evicted(jobID: "zz")], sequence: 2)  // behind the failing batch: waits with it
            let failed = ContinuousClock.now + .seconds(10)
            while troubles.withLock({ $0.isEmpty }), ContinuousClock.now < failed { try await Task.sleep(for: .milliseconds(20)) }
            let trouble = try #require(troubles.withLock { $0.first } ?? nil, "the full disk was not reported")
            #expect(trouble.contains("No space left") || trouble.contains("full"), "\(trouble)")
            #expect(committed.withLock { $0 }.isEmpty, "nothing may count as durable while the disk refuses it")

            try scratch.remove()
            let retried = ContinuousClock.now + .seconds(10)
            while committed.withLock({ $0.isEmpty }), ContinuousClock.now < retried { try await Task.sleep(for: .milliseconds(20)) }
            #expect(committed.withLock { $0 } == [2], "both batches commit together, once there is room")
            #expect(troubles.withLock { $0 }.last == .some(nil), "recovery is reported")
            writer.stop()
        }
        let again = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        var pages: [PageDescriptor] = []
        for case .accepted(let a) in try again.load() { pages = a.pages }
        #expect(pages.map(\.content) == [page])
    }

    @Test func aJournalFromBeforeTheSpoolIsMigratedLosingNothing() throws {
        let (path, directory) = try JournalTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        var journal: SQLiteJournal? = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        try journal!.append([Self.job("old", [[1, 2, 3], [4, 5, 6]])])
        journal = nil
        // Rewrite it into the old layout: page bytes inline in `pages`, no owner column, no spool.
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute("""
                CREATE TABLE pages(job TEXT NOT NULL, idx INTEGER NOT NULL, file TEXT NOT NULL, file_page INTEGER NOT NULL,
                    format INTEGER NOT NULL, content BLOB, PRIMARY KEY(job, idx)) WITHOUT ROWID;
                DROP TABLE page_refs;
                ALTER TABLE changes DROP COLUMN owner;
                """)
            let insert = try db.prepare("INSERT INTO pages VALUES (?,?,?,?,?,?)")
            for (i, content) in [[UInt8]([1, 2, 3]), [4, 5, 6]].enumerated() {
                try insert.run([.text("old"), .integer(Int64(i)), .text("a.png"), .integer(Int64(i + 1)),
                                .integer(Int64(ImageFormat.png.rawValue)), .blob(content)])
            }
        }
        try FileManager.default.removeItem(atPath: path + ".spool")

        let migrated = try SQLiteJournal(path: path, startedAtUnixMs: JournalTests.start)
        var accepted: AcceptedJob?
        for case .accepted(let a) in try migrated.load() { accepted = a }
        #expect(accepted?.pages.map(\.content) == [[1, 2, 3], [4, 5, 6]])
        #expect(accepted?.spec.owner == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + ".spool").count == 2)
    }
}
