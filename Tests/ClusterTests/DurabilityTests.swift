import Foundation
import Synchronization
import OCRTestSupport
import Testing
import OCRClient
import OCRWire

/// DESIGN section 5: `kill -9` the coordinator mid-job and restart it on the same journal and
/// ports; the job resumes, the worker reconnects by itself and the client re-attaches.
@Suite(.serialized, .blocking) struct DurabilityTests {
    /// Events seen by `document(for:)`'s progress callback (called off the test's task).
    final class Seen: Sendable {
        private let events = Mutex<[JobEvent]>([])
        func append(_ e: JobEvent) { events.withLock { $0.append(e) } }
        var all: [JobEvent] { events.withLock { $0 } }
        var completedPages: [UInt32] { all.compactMap { $0.pageCompleted?.result?.pageIndex } }
    }

    /// With either journal: the SQLite file, or a PostgreSQL database (the restarted process
    /// leads it again, the dead one's session having ended).
    @Test(arguments: TestJournal.allCases)
    func killNineMidJobThenRestartOnTheSameJournalFinishesEveryPageOnce(journal: TestJournal) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (journalArguments, database) = try journal.arguments(in: directory)
        defer { withExtendedLifetime(database) {} }
        func coordinator(_ clients: String, _ workers: String) throws -> ChildProcess {
            try ChildProcess("ocr-coordinator", ["--client-endpoint", clients, "--worker-endpoint", workers,
                                                 "--heartbeat-ms", "200", "--log-level", "debug",
                                                 "--http-endpoint", "127.0.0.1:0"] + journalArguments)
        }

        // The first coordinator picks free ports; the second binds the same ones.
        let first = try coordinator("tcp://127.0.0.1:*", "tcp://127.0.0.1:*")
        let endpoints = try await first.waitForStderr(#"coordinator listening" clients=(\S+) workers=(\S+)"#)
        let worker = try ChildProcess("ocr-worker", ["--coordinator", endpoints[1], "--slots", "2", "--heartbeat-ms", "200",
                                                     "--engine", "sleep:600", "--log-level", "debug"])
        defer { worker.signal(SIGKILL) }
        _ = try await first.waitForStderr("worker ready")

        // Default watch timeout and re-attach policy: the dropped connection itself (libzmq's
        // socket monitor) fails the stream at once, so no tuning is needed to resume quickly.
        let client = try OCRClient(endpoint: endpoints[0], callTimeout: .seconds(20))
        defer { client.close() }
        let png = [UInt8](try Data(contentsOf: Binaries.fixtures.appendingPathComponent("tiny.png")))
        // 30 pages of 600 ms on 2 slots: 9 s, so the kill lands mid-job even when the test's
        // own polling and the watcher's start are slowed down by a loaded machine (at 6 s, a
        // CI run with every suite at once saw the job finish before the watcher printed a page).
        let pageCount = 30
        let inputs = (0..<pageCount).map { i in InputFile.with { $0.name = String(format: "p%02d.png", i); $0.content = png; $0.format = .png } }
        let job = try await client.submit(inputs: inputs)
        #expect(job.pageCount == UInt32(pageCount))
        let seen = Seen()
        let document = Task { try await client.document(for: job) { seen.append($0) } }
        // And someone following the job from the command line.
        let watch = try ChildProcess("ocr-submit", ["--coordinator", endpoints[0], "watch", job.jobId])

        // Mid-job: a few pages done, most not, and the watcher attached (it has printed a page):
        // a kill during its first call would only test that it finds no coordinator.
        let deadline = ContinuousClock.now + .seconds(20)
        while seen.completedPages.count < 3 || !String(decoding: watch.stdout, as: UTF8.self).contains(" done"),
              ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        first.signal(SIGKILL)
        await first.wait(timeout: .seconds(5))
        let doneAtKill = seen.completedPages.count
        #expect((3..<pageCount).contains(doneAtKill))

        // Down for a while, as when a supervisor restarts it: the client's re-attach keeps trying.
        try await Task.sleep(for: .seconds(3))
        let second = try coordinator(endpoints[0], endpoints[1])
        defer { second.signal(SIGKILL) }
        _ = try await second.waitForStderr("coordinator listening")
        #expect(second.stderr.contains("journal restored"))

        let resumed = ContinuousClock.now
        let result = try await document.value
        #expect(ContinuousClock.now - resumed < .seconds(15), "re-attached well before the 20 s idle timeout")
        #expect(result.pages.count == pageCount)
        #expect(result.recognizedPages.map(\.pageIndex) == Array(0..<UInt32(pageCount)))
        #expect(result.gaps.isEmpty)
        // Every page exactly once, though the re-attach replayed the pages done before the kill.
        let completed = seen.completedPages
        #expect(completed.count == pageCount && Set(completed).count == pageCount, "pages seen: \(completed)")
        #expect(seen.all.last?.finished?.state == .succeeded)
        // The worker reconnected by itself to the new process, which did the rest.
        let status = try await client.clusterStatus()
        #expect(status.workers.count == 1 && status.pagesDone >= UInt64(pageCount - doneAtKill))
        let again = try await client.job(job.jobId)
        #expect(again.state == .succeeded && again.pagesDone == UInt32(pageCount))

        // `ocr-submit watch` followed the job across the restart too: every page once, then the end.
        #expect(await watch.wait(timeout: .seconds(30)) == 0, "stderr: \(watch.stderr)")
        let lines = String(decoding: watch.stdout, as: UTF8.self).split(separator: "\n")
        let watchedPages = lines.filter { $0.hasPrefix("page ") && $0.contains(" done") }.map { $0.split(separator: " ")[1] }
        #expect(watchedPages.count == pageCount && Set(watchedPages).count == pageCount, "watch printed: \(lines)")
        #expect(lines.last?.contains("SUCCEEDED") == true, "watch printed: \(lines)")

        second.signal(SIGTERM)
        await second.wait(timeout: .seconds(10))
    }
}
