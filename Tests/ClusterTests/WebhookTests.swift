import Foundation
import OCRTestSupport
import Testing

/// Webhooks end to end: a real coordinator and worker, jobs submitted over HTTP with a
/// `callback_url`, and a receiver on loopback (Python's http.server, checking the signature
/// with Python's hmac). Each job is announced exactly once, also when the receiver only comes
/// up seconds after the job finished; a callback outside `--webhook-allow` is refused at submit.
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl") && commandExists("python3"), "needs curl and python3"))
struct WebhookTests {
    private let directory: ScratchDirectory
    var scratch: URL { directory.url }
    static let receiver = Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/webhook_receiver.py").path

    init() throws {
        directory = try ScratchDirectory("ocr-webhook")
    }

    @Test func oneSignedPostPerJobAcrossAReceiverOutage() async throws {
        let secret = "webhook-secret-for-tests-0123456789"
        let secretFile = scratch.appendingPathComponent("secret")
        try (secret + "\n").write(to: secretFile, atomically: true, encoding: .utf8)
        let port = try freeLoopbackPort()
        let cluster = try await TestCluster(coordinatorArguments: ["--webhook-allow", "http://127.0.0.1:\(port)/hooks/",
                                                                    "--webhook-secret", secretFile.path])
        try await cluster.addWorker(slots: 1)
        let base = try #require(cluster.httpURL)
        let curl = Curl(scratch: scratch)
        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path
        let log = scratch.appendingPathComponent("received.jsonl")

        // Refused at submit: another path, another port, a look-alike host, no http(s); dot
        // segments however they are spelled, encoded slashes and control characters.
        let hooks = "http://127.0.0.1:\(port)/hooks/"
        for url in ["http://127.0.0.1:\(port)/other", "http://127.0.0.1:\(port + 1)/hooks/a", "http://127.0.0.1.nip.io:\(port)/hooks/a",
                    "http://evil@127.0.0.1:\(port)/hooks/a", "file:///etc/passwd",
                    hooks + "../x", hooks + "%2e%2e/x", hooks + "%2E%2e/x", hooks + ".%2e/x", hooks + "..%2f..%2fx", hooks + "a%2Fb",
                    hooks + "a%5c..%5cx", hooks + "a\\..\\x", hooks + "a%0d%0aX-Injected:1", hooks + "a?x=%00", hooks + "a\tb", hooks + "%zz"] {
            let refused = try await curl.run(["-X", "POST", "--data-binary", "@" + tiff, "--url-query", "callback_url=\(url)", base + "/v1/jobs"])
            #expect(refused.status == 403, "\(url): \(refused.status) \(refused.text)")
            #expect(try refused.object()["code"] as? String == "PERMISSION_DENIED")
        }

        // Job A finishes while nobody listens: its webhook is retried until the receiver is up.
        let first = try await submit(curl, base, tiff, callback: "http://127.0.0.1:\(port)/hooks/a")
        _ = try await curl.run(["-N", base + "/v1/jobs/\(first)/events"], maxSeconds: 120)
        try await Task.sleep(for: .seconds(2))
        #expect(!FileManager.default.fileExists(atPath: log.path))
        let receiver = try ExternalProcess(["python3", Self.receiver, "\(port)", log.path, secret])
        defer { receiver.stop() }
        try await waitForLines(log, count: 1, timeout: .seconds(40))

        // Job B, with the receiver up.
        let second = try await submit(curl, base, tiff, callback: "http://127.0.0.1:\(port)/hooks/b")
        _ = try await curl.run(["-N", base + "/v1/jobs/\(second)/events"], maxSeconds: 120)
        try await waitForLines(log, count: 2, timeout: .seconds(20))
        try await Task.sleep(for: .seconds(3))  // nothing more may come

        let records = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 2, "one POST per job: \(records)")
        for (record, (job, path)) in zip(records, [(first, "/hooks/a"), (second, "/hooks/b")]) {
            #expect(record["path"] as? String == path)
            #expect(record["valid_signature"] as? Bool == true, "signature \(record["signature"] ?? "none")")
            #expect(record["job"] as? String == job)
            #expect(record["content_type"] as? String == "application/json")
            let body = try #require(record["body"] as? [String: Any])
            #expect(body["event"] as? String == "job.finished")
            let summary = try #require(body["job"] as? [String: Any])
            #expect(summary["id"] as? String == job)
            #expect(summary["state"] as? String == "SUCCEEDED")
            #expect(summary["pagesDone"] as? Int == 3)
        }
        let metrics = try await curl.run([base + "/metrics"])
        #expect(metrics.text.contains("ocr_webhooks_total{outcome=\"delivered\"} 2"), "\(metrics.text)")
        #expect(!metrics.text.contains("ocr_webhooks_total{outcome=\"retried\"} 0"), "job A's webhook was retried")
        #expect(cluster.coordinator.stderr.contains("msg=\"webhook failed; retrying\""))
        await cluster.stop()
    }

    /// A coordinator without `--webhook-allow` refuses any callback (FAILED_PRECONDITION, 409).
    @Test func noWebhooksConfigured() async throws {
        let cluster = try await TestCluster()
        let base = try #require(cluster.httpURL)
        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path
        let refused = try await Curl(scratch: scratch).run(["-X", "POST", "--data-binary", "@" + tiff,
                                                            base + "/v1/jobs?callback_url=http://127.0.0.1:9/x"])
        #expect(refused.status == 409, "\(refused.text)")
        #expect(try refused.object()["code"] as? String == "FAILED_PRECONDITION")
        await cluster.stop()
    }

    private func submit(_ curl: Curl, _ base: String, _ file: String, callback: String) async throws -> String {
        let reply = try await curl.run(["-X", "POST", "--data-binary", "@" + file, "--url-query", "callback_url=\(callback)", base + "/v1/jobs"])
        #expect(reply.status == 202, "\(reply.text)")
        return try #require(try reply.object()["id"] as? String)
    }

    private func waitForLines(_ file: URL, count: Int, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").count
            if lines >= count { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestProcessError("fewer than \(count) webhooks arrived in \(file.path) within \(timeout)")
    }
}
