import Foundation
import OCRTestSupport
import Testing

/// The OpenAPI document: the one served is the one in the repo, and schemathesis (PyPI), which
/// generates requests from it (valid and invalid, then stateful sequences), finds no server
/// error, no undocumented status or content type, no response off its schema and no invalid
/// request accepted, against a live coordinator with a worker.
@Suite(.serialized, .blocking)
struct OpenAPITests {
    @Test func servedDocumentIsTheRepositorys() async throws {
        let cluster = try await TestCluster()
        let base = try #require(cluster.httpURL)
        let scratch = FileManager.default.temporaryDirectory
        let served = try await Curl(scratch: scratch).run([base + "/openapi.json"])
        let file = try Data(contentsOf: Binaries.repoRoot.appendingPathComponent("openapi.json"))
        #expect(served.status == 200)
        #expect(served.body == file, "run scripts/embed-openapi.sh (make generate) after editing openapi.json")
        let document = try served.object()
        #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
        await cluster.stop()
    }

    /// Two checks are left out, on purpose: `positive_data_acceptance` (a body the schema allows
    /// may still not be a scan: random bytes are rightly 400) and `use_after_free` (DELETE
    /// cancels a job; the cancelled job stays readable, as CancelJob's does).
    @Test(.enabled(if: (try? runProcess(["python3", "-c", "import schemathesis"]).status) == 0,
                   "needs schemathesis from PyPI: run `make deps`"))
    func schemathesisFindsNoFailure() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "null")
        try await cluster.waitForWorkers(1)
        let base = try #require(cluster.httpURL)
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-schemathesis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try await runAsync(["timeout", "-s", "KILL", "600", "schemathesis", "run",
                                      Binaries.repoRoot.appendingPathComponent("openapi.json").path, "--url", base,
                                      "--checks", "all", "--exclude-checks", "positive_data_acceptance,use_after_free",
                                      "--max-examples", "25", "--seed", "20261201", "--request-timeout", "60",
                                      "--report", "junit", "--report-dir", report.path],
                                     in: FileManager.default.temporaryDirectory,  // its cache goes to the working directory
                                     environment: ["NO_COLOR": "1", "SCHEMATHESIS_HOOKS": ""])
        #expect(run.status == 0, "schemathesis:\n\(run.stdout.suffix(6000))\n\(run.stderr.suffix(2000))")
        #expect(run.stdout.contains("API Operations"), "\(run.stdout.suffix(2000))")
        // The coordinator is still serving after all of it.
        let health = try await Curl(scratch: FileManager.default.temporaryDirectory).run([base + "/readyz"])
        #expect(health.status == 200)
        await cluster.stop()
    }
}
