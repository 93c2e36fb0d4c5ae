import Foundation
import OCRTestSupport
import Testing

/// What an operator reads: one version everywhere (the executables' --version, the workers'
/// announcement, the startup lines), worker labels in every view of the cluster, and an access
/// log line per HTTP request that names who asked and never the token.
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl"), "needs curl"))
struct OperatorTests {
    @Test func oneVersionLabelsEverywhereAndAnAccessLog() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-operator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tokens = scratch.appendingPathComponent("http.tokens")
        try "ops operator-token-0123456789ab admin\n".write(to: tokens, atomically: true, encoding: .utf8)
        let version = try await runAsync([Binaries.path("ocr-worker"), "--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let number = try #require(version.split(separator: " ").last.map(String.init), "\(version)")

        let cluster = try await TestCluster(coordinatorArguments: ["--http-tokens", tokens.path])
        let worker = try await cluster.addWorker(slots: 1, engine: "null", extra: ["--label", "zone=eu-1", "--label", "gpu=none"])
        try await cluster.waitForWorkers(1)
        let base = try #require(cluster.httpURL)
        let curl = Curl(scratch: scratch)
        let auth = ["-H", "Authorization: Bearer operator-token-0123456789ab"]

        let status = try await curl.run(auth + [base + "/v1/cluster"])
        let workers = try #require(try status.object()["workers"] as? [[String: Any]])
        #expect(workers.first?["version"] as? String == number, "the worker announces \(number): \(workers)")
        #expect(workers.first?["labels"] as? [String: String] == ["zone": "eu-1", "gpu": "none"], "\(workers)")
        // One spelling of the worker's id: 16 hex digits in its log, the coordinator's and ClusterStatus.
        let logged = try #require(worker.stderr.firstMatch(of: /msg=connecting worker=([0-9a-f]{16})/).map { String($0.1) }, "\(worker.stderr.prefix(800))")
        #expect(workers.first?["uid"] as? String == logged, "\(workers)")
        #expect(cluster.coordinator.stderr.contains("msg=\"worker ready\" worker=\(logged)"))
        let cli = try await cluster.submit(["status", "--json"])
        #expect(cli.stdout.contains("\"zone\"") && cli.stdout.contains("\"eu-1\""), "status --json: \(cli.stdout)")
        let text = try await cluster.submit(["status"])
        #expect(text.stdout.contains("[gpu=none,zone=eu-1]"), "\(text.stdout)")

        #expect(cluster.coordinator.stderr.contains("version=\(number)"), "the coordinator's startup line names its version")
        #expect(worker.stderr.contains("msg=\"worker starting\" version=\(number)"), "\(worker.stderr.prefix(600))")

        let submitted = try await curl.run(auth + ["-X", "POST", "--data-binary", "@" + Binaries.fixtures.appendingPathComponent("text.png").path,
                                                   base + "/v1/jobs"])
        #expect(submitted.status == 202)
        _ = try await curl.run([base + "/v1/jobs?access_token=operator-token-0123456789ab"])
        _ = try await curl.run([base + "/v1/jobs"])
        try await Task.sleep(for: .milliseconds(300))
        let log = cluster.coordinator.stderr
        #expect(log.contains(/msg="http request" method=GET path=\/v1\/cluster status=200 principal=http:ops bytes=\d+ ms=\d+/), "\(log.suffix(1500))")
        #expect(log.contains(/msg="http request" method=POST path=\/v1\/jobs status=202 principal=http:ops/))
        #expect(log.contains(/msg="http request" method=GET path=\/v1\/jobs status=401 principal=-/), "refused requests are logged too")
        #expect(log.contains(/msg="job accepted" job=job-[0-9a-f]+ pages=1 existing=false principal=http:ops/), "\(log.suffix(1500))")
        #expect(!log.contains("operator-token-0123456789ab"), "the log never carries a token")
        await cluster.stop()
    }
}
