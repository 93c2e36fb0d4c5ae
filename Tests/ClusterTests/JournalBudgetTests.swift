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
        defer { try? FileManager.default.removeItem(at: scratch) }
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
        #expect(refused.headers.contains("Retry-After: 5"), "the RPC's retry_after_ms in whole seconds: \(refused.headers)")
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

/// Names, keys and labels are bounded at submit, naming the field; a name at the bound on a
/// 100-page file grows the journal by the upload and a small constant per page, not by the name
/// per page (a 1 MiB name on a 100-page 11 kB TIFF used to grow it by 318 MB).
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl") && commandExists("convert"), "needs curl and ImageMagick"))
struct BoundedNameTests {
    /// Bytes of the journal and its spool under `scratch`.
    static func journalBytes(_ scratch: URL) -> Int {
        let walker = FileManager.default.enumerator(atPath: scratch.path)
        return (walker?.allObjects as? [String] ?? []).filter { $0.hasPrefix("journal.db") }.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: scratch.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    @Test func longNamesAreRefusedAndANameAtTheBoundIsStoredOncePerFile() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tiff = scratch.appendingPathComponent("pages.tif")
        let made = try await runAsync(["convert", "-size", "40x40", "xc:white", "-duplicate", "99", "-compress", "group4", tiff.path])
        #expect(made.status == 0, "\(made.stderr)")
        let content = try Data(contentsOf: tiff)
        let cluster = try await TestCluster(coordinatorArguments: ["--journal", scratch.appendingPathComponent("journal.db").path])
        try await cluster.addWorker(slots: 2, engine: "null")
        let base = try #require(cluster.httpURL)
        let curl = Curl(scratch: scratch)

        func submit(name: String, labels: [String: String] = [:], jobKey: String = "") async throws -> CurlReply {
            let body: [String: Any] = ["files": [["name": name, "content": content.base64EncodedString()]], "labels": labels, "job_key": jobKey]
            let file = scratch.appendingPathComponent("request-\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: body).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            return try await curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + file.path, base + "/v1/jobs"])
        }

        let before = Self.journalBytes(scratch)
        for (reply, field) in [(try await submit(name: String(repeating: "n", count: 1 << 20)), "the name of file #1"),
                               (try await submit(name: "a.tif", labels: ["k": String(repeating: "v", count: 4096)]), "label k"),
                               (try await submit(name: "a.tif", labels: [String(repeating: "k", count: 200): "v"]), "a label key"),
                               (try await submit(name: "a.tif", jobKey: String(repeating: "j", count: 300)), "job_key")] {
            #expect(reply.status == 400, "\(field): \(reply.status) \(reply.text.prefix(300))")
            let message = try reply.object()["message"] as? String ?? ""
            #expect(message.hasPrefix(field + " is ") && message.contains("bytes; at most"), "\(message.prefix(300))")
        }
        let name = String(repeating: "n", count: 1020) + ".tif"
        let accepted = try await submit(name: name, labels: ["team": "ops"])
        #expect(accepted.status == 202, "\(accepted.text.prefix(300))")
        let id = try #require(try accepted.object()["id"] as? String)
        let events = try await curl.run(["-N", base + "/v1/jobs/\(id)/events"], maxSeconds: 60)
        #expect(events.text.contains("event: finished"))
        let document = try await curl.run([base + "/v1/jobs/\(id)/document?format=json"])
        #expect(document.status == 200)
        await cluster.stop()
        let growth = Self.journalBytes(scratch) - before
        // The upload once in the spool, and per page its result (which names its file) and rows.
        let bound = content.count * 12 / 10 + 100 * 4096 + (256 << 10)
        print("[figures] 100 pages, \(content.count) bytes, a \(name.utf8.count)-byte name: journal and spool grew \(growth) bytes (bound \(bound))")
        #expect(growth < bound, "journal and spool grew \(growth) bytes for a \(content.count)-byte upload")

        // Restarted on the same journal, every page still names its file.
        let again = try await TestCluster(coordinatorArguments: ["--journal", scratch.appendingPathComponent("journal.db").path])
        let restored = try await curl.run([try #require(again.httpURL) + "/v1/jobs/\(id)/document?format=json"])
        let pages = try #require(try restored.object()["pages"] as? [[String: Any]])
        let files = pages.map { ($0["result"] as? [String: Any])?["file"] as? String }
        #expect(files.count == 100 && files.allSatisfy { $0 == name }, "\(files.prefix(1))")
        await again.stop()
    }
}
