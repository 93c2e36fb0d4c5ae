import Foundation
import OCRTestSupport
import Testing

/// `/metrics` as Prometheus sees it: `promtool check metrics` on the page, and a real
/// Prometheus server scraping a running coordinator during a job, queried through its HTTP API.
@Suite(.serialized, .blocking, .enabled(if: ["prometheus", "promtool", "curl"].allSatisfy(commandExists),
                                        "needs Debian's prometheus and curl: run `make deps`"))
struct MetricsTests {
    private let directory: ScratchDirectory
    var scratch: URL { directory.url }

    init() throws {
        directory = try ScratchDirectory("ocr-metrics")
    }

    @Test func prometheusScrapesAJob() async throws {
        let journal = scratch.appendingPathComponent("journal.db").path
        let cluster = try await TestCluster(coordinatorArguments: ["--journal", journal])
        try await cluster.addWorker(slots: 1)
        let base = try #require(cluster.httpURL)
        let target = String(base.dropFirst("http://".count))

        let port = try freeLoopbackPort()
        let config = scratch.appendingPathComponent("prometheus.yml")
        try """
        global: { scrape_interval: 1s, evaluation_interval: 1s }
        scrape_configs:
          - job_name: ocr-coordinator
            static_configs: [{ targets: ["\(target)"] }]
        """.write(to: config, atomically: true, encoding: .utf8)
        let prometheus = try ExternalProcess(["prometheus", "--config.file=\(config.path)", "--storage.tsdb.path=\(scratch.path)/tsdb",
                                              "--web.listen-address=127.0.0.1:\(port)"])
        defer { prometheus.stop() }

        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path
        let submitted = try await runAsync(["curl", "-sS", "--max-time", "60", "-X", "POST", "--data-binary", "@" + tiff, base + "/v1/jobs"])
        let id = try #require((try JSONSerialization.jsonObject(with: submitted.stdoutData) as? [String: Any])?["id"] as? String,
                              "\(submitted.stdout)\(submitted.stderr)")
        _ = try await runAsync(["curl", "-sS", "-N", "--max-time", "180", base + "/v1/jobs/\(id)/events"])

        let page = try await runAsync(["curl", "-sS", "--max-time", "30", base + "/metrics"])
        let check = try await runAsync(["sh", "-c", "promtool check metrics"], stdin: page.stdout)
        #expect(check.status == 0, "promtool: \(check.stdout)\(check.stderr)")
        for family in ["ocr_pages_total", "ocr_page_duration_seconds_bucket", "ocr_page_queue_wait_seconds_count", "ocr_queue_depth",
                       "ocr_jobs{state=\"succeeded\"} 1", "ocr_workers 1", "ocr_slots{kind=\"total\"} 1", "ocr_requeues_total",
                       "ocr_journal_commit_seconds_count", "ocr_journal_bytes", "ocr_build_info{version="] {
            #expect(page.stdout.contains(family), "\(family) missing from /metrics:\n\(page.stdout)")
        }

        // The job's page count, as Prometheus scraped it.
        let query = "sum(ocr_pages_total{job=\"ocr-coordinator\",outcome=\"completed\"})"
        var value: String?
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let answer = try await runAsync(["curl", "-sS", "--max-time", "10", "--get", "--data-urlencode", "query=\(query)",
                                             "http://127.0.0.1:\(port)/api/v1/query"])
            if let object = try? JSONSerialization.jsonObject(with: answer.stdoutData) as? [String: Any],
               let data = object["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
               let sample = result.first?["value"] as? [Any], let text = sample.last as? String {
                value = text
                if text == "3" { break }
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(value == "3", "Prometheus's answer to \(query): \(value ?? "none")\n\(prometheus.output)")
        let up = try await runAsync(["curl", "-sS", "--max-time", "10", "--get", "--data-urlencode", "query=up{job=\"ocr-coordinator\"}",
                                     "http://127.0.0.1:\(port)/api/v1/query"])
        #expect(up.stdout.contains(#""value":["#) && up.stdout.contains(#","1"]"#), "the target is up: \(up.stdout)")
        await cluster.stop()
    }
}


/// A long-running tool that is not ours (Prometheus, a browser), its output kept in a file;
/// `stop()` (and deinit) kill it.
final class ExternalProcess: @unchecked Sendable {
    let process = Process()
    private let log: URL

    init(_ arguments: [String]) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-external-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }
}
