import Foundation
import OCRClient
import OCRTestSupport
import OCRWire
import Testing

/// The journal on a disk that fills up (a 96 MB tmpfs this test mounts): the coordinator never
/// stops; new submissions get RESOURCE_EXHAUSTED naming the disk; a restart on the full disk comes
/// up serving what it has; once space is back, submissions are taken again.
@Suite(.serialized, .blocking) struct DiskFullTests {
    @Test(.enabled(if: ScratchFilesystem.isAvailable, "needs permission to mount a tmpfs"))
    func aFullJournalDiskRefusesNewJobsAndNeverStopsTheCoordinator() async throws {
        let scratch = try ScratchFilesystem(megabytes: 96)
        defer { scratch.unmount() }
        let disk = scratch.directory
        let journal = disk.appendingPathComponent("coordinator.db").path
        func coordinator(_ clients: String, _ workers: String) throws -> ChildProcess {
            try ChildProcess("ocr-coordinator", ["--client-endpoint", clients, "--worker-endpoint", workers,
                                                 "--journal", journal, "--log-level", "info", "--http-endpoint", "127.0.0.1:0"])
        }
        let first = try coordinator("tcp://127.0.0.1:*", "tcp://127.0.0.1:*")
        let endpoints = try await first.waitForStderr(#"coordinator listening" clients=(\S+) workers=(\S+)"#)
        let worker = try ChildProcess("ocr-worker", ["--coordinator", endpoints[1], "--slots", "1", "--engine", "sleep:1500"])
        defer { worker.signal(SIGKILL) }
        _ = try await first.waitForStderr("worker ready")
        // 60 s per call: a bound that only a hang reaches. The running job's page finishes after
        // the restart once the worker has reconnected and the page is requeued, which on a
        // loaded CI machine (the whole suite at once) once took over 20 s.
        let client = try OCRClient(endpoint: endpoints[0], callTimeout: .seconds(60))
        defer { client.close() }
        let png = [UInt8](try Data(contentsOf: Binaries.fixtures.appendingPathComponent("tiny.png")))
        let input = InputFile.with { $0.name = "tiny.png"; $0.content = png; $0.format = .png }
        let before = try await client.submit(inputs: [input])
        _ = try await client.document(for: before)

        // A job whose result arrives after the disk is full (its page takes 1.5 s).
        let running = try await client.submit(inputs: [input])
        // Fill the disk to the last block.
        try scratch.fill()
        do {
            _ = try await client.submit(inputs: [input])
            Issue.record("a submission was taken on a full disk")
        } catch let error as OCRError {
            #expect(error.code == .resourceExhausted && error.message.contains("disk is full") && error.message.contains(disk.path), "\(error)")
        }
        #expect(try await client.health() == .serving)
        #expect(try await client.job(before.jobId).state == .succeeded)
        try await Task.sleep(for: .seconds(2))  // the running job's result meets the full disk
        #expect(try await client.health() == .serving)

        // A restart on the full disk comes up and serves what it has.
        first.signal(SIGKILL)
        await first.wait(timeout: .seconds(5))
        let second = try coordinator(endpoints[0], endpoints[1])
        _ = try await second.waitForStderr("coordinator listening")
        #expect(try await client.job(before.jobId).state == .succeeded)
        #expect(try await client.health() == .serving)

        // Space again: the job that was running finishes (after the restart it was requeued, or
        // its held result was committed), and submissions are taken and run.
        try scratch.remove()
        do {
            #expect(try await client.document(for: running).recognizedPages.count == 1)
            let after = try await client.submit(inputs: [input])
            let document = try await client.document(for: after)
            #expect(document.recognizedPages.count == 1)
        } catch {
            // Once, under the whole suite, a call here reached its 60 s bound; what the worker
            // and the coordinator said then is what the next reader needs.
            Issue.record("\(error)\nworker: \(worker.stderr.suffix(3000))\ncoordinator: \(second.stderr.suffix(3000))")
        }
        #expect(!second.stderr.contains("fatal") && !second.stderr.contains("cannot start"), "\(second.stderr)")
    }

    /// The same with the journal in PostgreSQL whose tables live on a disk that fills up (a
    /// tablespace on a 64 MB tmpfs): the database refuses to grow them (53100), the coordinator
    /// holds back what it cannot journal and keeps serving, `/readyz` says why, new submissions
    /// get RESOURCE_EXHAUSTED naming the journal; once space is back, the running job finishes
    /// and submissions are taken again.
    @Test(.enabled(if: ScratchFilesystem.isAvailable && PostgreSQLServer.isAvailable, "needs a tmpfs mount and PostgreSQL"))
    func aFullDatabaseDiskRefusesNewJobsAndNeverStopsTheCoordinator() async throws {
        let scratch = try ScratchFilesystem(megabytes: 64)
        defer { scratch.unmount() }
        let database = try PostgreSQLServer()
        let tablespace = scratch.directory.appendingPathComponent("tablespace")
        try FileManager.default.createDirectory(at: tablespace, withIntermediateDirectories: true)
        _ = try runProcess(["chown", "postgres:postgres", tablespace.path])
        _ = try database.query("CREATE TABLESPACE small LOCATION '\(tablespace.path)'")
        _ = try database.query("ALTER DATABASE postgres SET default_tablespace = small")

        let coordinator = try ChildProcess("ocr-coordinator", ["--client-endpoint", "tcp://127.0.0.1:*", "--worker-endpoint", "tcp://127.0.0.1:*",
                                                               "--journal", database.uri, "--http-endpoint", "127.0.0.1:0"])
        defer { coordinator.signal(SIGKILL) }
        let endpoints = try await coordinator.waitForStderr(#"coordinator listening" clients=(\S+) workers=(\S+)"#)
        let http = try await coordinator.waitForStderr(#"http listening" url=(\S+)"#)[0]
        let worker = try ChildProcess("ocr-worker", ["--coordinator", endpoints[1], "--slots", "1", "--engine", "sleep:1500"])
        defer { worker.signal(SIGKILL) }
        _ = try await coordinator.waitForStderr("worker ready")
        let client = try OCRClient(endpoint: endpoints[0], callTimeout: .seconds(60))
        defer { client.close() }
        let png = [UInt8](try Data(contentsOf: Binaries.fixtures.appendingPathComponent("tiny.png")))
        let input = InputFile.with { $0.name = "tiny.png"; $0.content = png; $0.format = .png }
        let before = try await client.submit(inputs: [input])
        _ = try await client.document(for: before)
        #expect(try tablespaceHolds(database, "ocr_changes"), "the journal's tables are on the small disk")

        // A job whose result arrives after the disk is full, then the disk filled to its last
        // block, then a submission whose upload (1 MB of its own) the journal cannot store: its
        // answer waits for the commit, which waits for room.
        let running = try await client.submit(inputs: [input])
        try scratch.fill()
        var large = input
        large.content = png + (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255) }
        large.name = "large.png"
        let held = Task { try await client.submit(inputs: [large]) }
        _ = try await coordinator.waitForStderr("journal write failed", timeout: .seconds(30))
        do {
            _ = try await client.submit(inputs: [input])
            Issue.record("a submission was taken while the journal could not be written")
        } catch let error as OCRError {
            #expect(error.code == .resourceExhausted && error.message.contains("the journal cannot be written"), "\(error)")
        }
        let ready = try runProcess(["curl", "-s", "-w", "\n%{http_code}", "\(http)/readyz"]).stdout
        #expect(ready.hasSuffix("\n503") && ready.contains("the journal cannot be written"), "readyz: \(ready)")
        #expect(try await client.health() == .serving)
        #expect(try await client.job(before.jobId).state == .succeeded)

        // Space again: what was held is committed, the jobs finish, new jobs run.
        try scratch.remove()
        #expect(try await client.document(for: running).recognizedPages.count == 1)
        #expect(try await client.document(for: try await held.value).recognizedPages.count == 1)
        let after = try await client.submit(inputs: [input])
        #expect(try await client.document(for: after).recognizedPages.count == 1)
        #expect(coordinator.process.isRunning)
        #expect(coordinator.stderr.contains("journal writable again"))
    }

    private func tablespaceHolds(_ database: PostgreSQLServer, _ table: String) throws -> Bool {
        try database.query("SELECT coalesce(t.spcname, '') FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace WHERE c.relname = '\(table)'") == "small"
    }
}
