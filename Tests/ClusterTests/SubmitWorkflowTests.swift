import Foundation
import OCRTestSupport
import Testing

/// ocr-submit's asynchronous workflow against a real coordinator: the job id on stderr, --detach,
/// `result JOB` (75 while the job runs, the document once it is done), Ctrl-C cancelling the job,
/// `status`/`jobs --json`, subcommands refusing an embedded cluster, an oversized submission
/// named as such, and `--version` everywhere.
@Suite(.serialized, .blocking)
struct SubmitWorkflowTests {
    static let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path

    @Test func detachThenResult() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "sleep:1500")
        try await cluster.waitForWorkers(1)
        let detached = try await cluster.submit(["--detach", Self.tiff])
        #expect(detached.status == 0, "\(detached.stderr)")
        let id = detached.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.wholeMatch(of: /job-[0-9a-f]+/) != nil, "stdout is the job id: '\(detached.stdout)'")

        let early = try await cluster.submit(["result", id])
        #expect(early.status == 75, "\(early.stderr)")
        #expect(early.stderr.contains("ocr-submit watch \(id)"))

        let watched = try await cluster.submit(["watch", id])
        #expect(watched.status == 0, "\(watched.stderr)")
        let text = try await cluster.submit(["result", id, "-f", "txt"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").count >= 1)

        let pdf = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-result-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: pdf) }
        let written = try await cluster.submit(["result", id, "-f", "pdf", "-o", pdf.path])
        #expect(written.status == 0, "\(written.stderr)")
        let check = try await runAsync(["qpdf", "--check", pdf.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let jobs = try await cluster.submit(["jobs", "--json"])
        #expect(jobs.status == 0)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(jobs.stdout.utf8)) as? [String: Any])
        let first = try #require((listed["jobs"] as? [[String: Any]])?.first)
        #expect(first["id"] as? String == id)
        #expect(first["state"] as? String == "SUCCEEDED")
        #expect(first["durationSeconds"] as? Double ?? 0 > 0)
        let status = try await cluster.submit(["status", "--json"])
        let view = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect((view["workers"] as? [Any])?.count == 1)
        let plain = try await cluster.submit(["jobs"])
        #expect(plain.stdout.contains(id) && plain.stdout.contains("SUCCEEDED"), "\(plain.stdout)")
        await cluster.stop()
    }

    @Test func interruptCancelsTheJob() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "sleep:5000")
        try await cluster.waitForWorkers(1)
        let submit = try ChildProcess("ocr-submit", ["--coordinator", cluster.clientEndpoint, Self.tiff])
        let accepted = try await submit.waitForStderr(#"job (job-[0-9a-f]+) accepted: 3 pages"#)
        submit.signal(SIGINT)
        let status = await submit.wait(timeout: .seconds(30))
        #expect(status == 130, "\(submit.stderr)")
        #expect(submit.stderr.contains("interrupted: job \(accepted[0]) cancelled"), "\(submit.stderr)")
        let jobs = try await cluster.submit(["jobs", "--json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(jobs.stdout.utf8)) as? [String: Any])
        #expect((listed["jobs"] as? [[String: Any]])?.first?["state"] as? String == "CANCELLED", "\(jobs.stdout)")
        await cluster.stop()
    }

    @Test func subcommandsNeedACoordinatorAndOversizeIsNamed() async throws {
        for words in [["status"], ["jobs"], ["cancel", "job-1"], ["watch", "job-1"], ["result", "job-1"], ["--detach", Self.tiff]] {
            let run = try await runAsync([Binaries.path("ocr-submit")] + words, environment: ["OCR_COORDINATOR": ""])
            #expect(run.status == 64, "\(words): \(run.stderr)")
            #expect(run.stderr.contains("coordinator"), "\(words): \(run.stderr)")
        }
        let cluster = try await TestCluster(coordinatorArguments: ["--max-message-mb", "1", "--http-endpoint", "none"])
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-big-\(UUID().uuidString).tif")
        defer { try? FileManager.default.removeItem(at: big) }
        try (Data("II*\u{0}".utf8) + Data(count: (2 << 20) - 4)).write(to: big)  // a TIFF's signature, 2 MiB
        let refused = try await cluster.submit([big.path])
        #expect(refused.status == 3, "\(refused.stderr)")
        // Sizes that tell the truth: it was "the submission is 1 MB ... at most 1 MB" for 2 MB.
        #expect(refused.stderr.contains("RESOURCE_EXHAUSTED") && refused.stderr.contains("the submission is 2.1 MiB (2,1")
                && refused.stderr.contains("at most 1.0 MiB (1,048,576 bytes)"), "\(refused.stderr)")
        await cluster.stop()
    }

    @Test func everyExecutableHasVersionAndHelp() async throws {
        for tool in ["ocr-coordinator", "ocr-worker", "ocr-submit", "ocr-bench"] {
            let version = try await runAsync([Binaries.path(tool), "--version"])
            #expect(version.status == 0)
            #expect(version.stdout.wholeMatch(of: /\S+ \d+\.\d+\.\d+\n/) != nil, "\(tool): '\(version.stdout)'")
            #expect(version.stdout.hasPrefix(tool + " "))
            let help = try await runAsync([Binaries.path(tool), "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.count > 200, "\(tool) --help")
        }
    }
}
