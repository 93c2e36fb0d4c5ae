import Foundation
import OCRClient
import OCRTestSupport
import OCRWire
import Testing

/// WatchJob streams that start while pages complete and their commits are still pending (a
/// journal with one fsync per commit) get every page exactly once: in their replay or live,
/// never both. `make bench`'s journal run found 15-45 duplicate PageCompleted events in 20,000
/// before the watcher was registered when its replay is sent rather than when it is read.
@Suite(.serialized, .blocking) struct WatchReplayTests {
    /// With each journal (SQLite with one fsync per commit; PostgreSQL's commits are round trips).
    @Test(arguments: TestJournal.allCases)
    func streamsStartedDuringCommitsSeeEveryPageOnce(journal: TestJournal) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tiff = dir.appendingPathComponent("tiny.tif").path
        let make = try await runAsync([Binaries.path("ocr-bench"), "tiny-tiff", "--pages", "6000", "--out", tiff])
        #expect(make.status == 0, "\(make.stderr)")
        let (journalArguments, database) = try journal.arguments(in: dir)
        defer { withExtendedLifetime(database) {} }
        let cluster = try await TestCluster(coordinatorArguments: journalArguments + ["--journal-sync", "full"])
        for _ in 0..<2 { try await cluster.addWorker(slots: 2, engine: "null") }
        try await cluster.waitForWorkers(2)
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        defer { client.close() }
        let job = try await client.submit(files: [URL(fileURLWithPath: tiff)])
        let pages = Int(job.pageCount)
        // Twenty streams, one every 25 ms while the job runs, each counting its page events.
        let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for i in 0..<20 {
                group.addTask {
                    try await Task.sleep(for: .milliseconds(25 * i))
                    var seen: [Int: Int] = [:]
                    for try await event in client.events(for: job) {
                        if case .pageCompleted(let done)? = event.event { seen[Int(done.result?.pageIndex ?? UInt32.max), default: 0] += 1 }
                        if case .finished? = event.event { break }
                    }
                    return (seen.count, seen.values.reduce(0, +))
                }
            }
            var all: [(Int, Int)] = []
            for try await c in group { all.append(c) }
            return all
        }
        #expect(counts.count == 20)
        for (distinct, events) in counts {
            #expect(distinct == pages && events == pages, "\(pages) pages: \(distinct) distinct, \(events) events")
        }
        await cluster.stop()
    }
}
