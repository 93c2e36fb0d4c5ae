import Foundation
import OCRTestSupport
import Testing

/// `--journal-max-mb`: a journal (with its spool) at its budget refuses new jobs with
/// RESOURCE_EXHAUSTED naming the budget, `/readyz` says why it is not ready, the running job
/// finishes, and once its upload leaves the spool new jobs are taken again. The coordinator
/// never stops.
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl") && commandExists("convert"), "needs curl and ImageMagick"))
struct JournalBudgetTests {
    @Test func atTheBudgetNewJobsAreRefusedUntilThereIsRoom() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let big = scratch.appendingPathComponent("big.tif").path
        let made = try await runAsync(["convert", "-size", "1300x1200", "xc:white", "-depth", "8", "-compress", "none", big])
        #expect(made.status == 0, "\(made.stderr)")
        let cluster = try await TestCluster(coordinatorArguments: ["--journal", scratch.appendingPathComponent("journal.db").path,
                                                                    "--journal-max-mb", "1"])
        try await cluster.addWorker(slots: 1, engine: "sleep:4000")
        let base = try #require(cluster.httpURL)
        let curl = Curl(scratch: scratch)

        let first = try await curl.run(["-X", "POST", "--data-binary", "@" + big, base + "/v1/jobs?filename=big.tif"])
        #expect(first.status == 202, "\(first.text)")
        let id = try #require(try first.object()["id"] as? String)

        var ready = try await curl.run([base + "/readyz"])
        let deadline = ContinuousClock.now + .seconds(10)
        while ready.status == 200, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            ready = try await curl.run([base + "/readyz"])
        }
        #expect(ready.status == 503, "\(ready.text)")
        #expect(ready.text.contains("budget"))
        let refused = try await curl.run(["-X", "POST", "--data-binary", "@" + big, base + "/v1/jobs?filename=again.tif"])
        #expect(refused.status == 429, "\(refused.text)")
        #expect(try refused.object()["code"] as? String == "RESOURCE_EXHAUSTED")
        #expect((try refused.object()["message"] as? String ?? "").contains("--journal-max-mb"))
        let metrics = try await curl.run([base + "/metrics"])
        #expect(metrics.text.contains("ocr_journal_budget_bytes 1048576"))

        // The running job finishes; its upload leaves the spool; jobs are taken again.
        let events = try await curl.run(["-N", base + "/v1/jobs/\(id)/events"], maxSeconds: 60)
        #expect(events.text.contains("event: finished"))
        let after = ContinuousClock.now + .seconds(15)
        while ready.status != 200, ContinuousClock.now < after {
            try await Task.sleep(for: .milliseconds(200))
            ready = try await curl.run([base + "/readyz"])
        }
        #expect(ready.status == 200, "\(ready.text)")
        let small = Binaries.fixtures.appendingPathComponent("multipage.tif").path
        let accepted = try await curl.run(["-X", "POST", "--data-binary", "@" + small, base + "/v1/jobs"])
        #expect(accepted.status == 202, "\(accepted.text)")
        #expect(cluster.coordinator.process.isRunning)
        #expect(cluster.coordinator.stderr.contains("journal at its budget"))
        await cluster.stop()
    }
}
