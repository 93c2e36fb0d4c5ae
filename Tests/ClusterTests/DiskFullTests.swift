import Foundation
import OCRClient
import OCRTestSupport
import OCRWire
import Testing

/// The journal on a disk that fills up (a 96 MB tmpfs this test mounts): the coordinator never
/// stops; new submissions get RESOURCE_EXHAUSTED naming the disk; a restart on the full disk comes
/// up serving what it has; once space is back, submissions are taken again.
@Suite(.serialized) struct DiskFullTests {
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
}
