import Foundation
import OCRTestSupport
import Testing

/// The status page in a real browser: headless Chromium (Debian's) loads `/` while a job runs
/// on a slow worker; its DOM, once the page's script has run, shows the worker, the running
/// job's progress and a failed page with its file. A screenshot is kept in
/// `.build/test-artifacts/status-page.png`.
@Suite(.serialized, .blocking, .enabled(if: commandExists("chromium") && commandExists("curl"), "needs Debian's chromium and curl"))
struct StatusPageTests {
    @Test func chromiumShowsWorkersJobsAndFailures() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "sleep:4000")
        try await cluster.waitForWorkers(1)
        let base = try #require(cluster.httpURL)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let curl = Curl(scratch: scratch)
        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path

        let failing = try await curl.run(["-X", "POST", "--data-binary", "@" + tiff, base + "/v1/jobs?filename=late.tif&pages=1&page_timeout_ms=1"])
        let failingID = try #require(try failing.object()["id"] as? String, "\(failing.text)")
        _ = try await curl.run(["-N", base + "/v1/jobs/\(failingID)/events"])
        let running = try await curl.run(["-X", "POST", "--data-binary", "@" + tiff, base + "/v1/jobs?filename=scan.tif"])
        let id = try #require(try running.object()["id"] as? String, "\(running.text)")
        // Wait for its first page, so the page shows progress.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, (try await curl.run([base + "/v1/jobs/\(id)"]).object()["pagesDone"] as? Int ?? 0) < 1 {
            try await Task.sleep(for: .milliseconds(200))
        }

        let browser = ["timeout", "-s", "KILL", "60", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                       "--user-data-dir=\(scratch.path)/profile", "--virtual-time-budget=5000"]
        let dump = try await runAsync(browser + ["--dump-dom", base + "/"])
        #expect(dump.status == 0, "\(dump.stderr.suffix(2000))")
        let dom = dump.stdout
        let host = ProcessInfo.processInfo.hostName
        #expect(dom.contains("<td>\(host)</td>"), "the worker's host is listed:\n\(dom)")
        #expect(dom.contains("<td>tesseract</td>"), "and its engine:\n\(dom)")
        #expect(dom.contains("<tr id=\"\(id)\"><td>\(id)</td><td>RUNNING</td>"), "the running job:\n\(dom)")
        // Pages take 4 s: the first was done before the browser started, the last is not yet.
        #expect(dom.contains("1 done, 0 failed of 3") || dom.contains("2 done, 0 failed of 3"), "its progress:\n\(dom)")
        #expect(dom.contains("<td>late.tif</td>") && dom.contains("DEADLINE_EXCEEDED"), "the failed page with its file:\n\(dom)")
        #expect(!dom.contains("cannot reach the coordinator"))

        let artifacts = Binaries.buildDirectory.deletingLastPathComponent().appendingPathComponent("test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("status-page.png")
        try? FileManager.default.removeItem(at: screenshot)
        let shot = try await runAsync(browser + ["--window-size=1200,900", "--screenshot=\(screenshot.path)", base + "/"])
        #expect(shot.status == 0, "\(shot.stderr.suffix(2000))")
        let size = (try? FileManager.default.attributesOfItem(atPath: screenshot.path)[.size] as? Int) ?? 0
        #expect(size > 10_000, "a screenshot of \(size) bytes at \(screenshot.path)")
        await cluster.stop()
    }

    /// Behind --http-tokens (as every deploy file runs it) the page opened as
    /// `/?access_token=TOKEN` loads its script and shows the cluster; the data stays behind the
    /// token.
    @Test func thePageLoadsBehindTokens() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-status-tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tokens = scratch.appendingPathComponent("http.tokens")
        try "ops status-page-token-0123456789ab\n".write(to: tokens, atomically: true, encoding: .utf8)
        let cluster = try await TestCluster(coordinatorArguments: ["--http-tokens", tokens.path])
        try await cluster.addWorker(slots: 1, engine: "null", extra: ["--label", "zone=eu-1"])
        try await cluster.waitForWorkers(1)
        let base = try #require(cluster.httpURL)
        let curl = Curl(scratch: scratch)
        #expect(try await curl.run([base + "/status.js"]).status == 200, "the script a <script> tag loads needs no token")
        #expect(try await curl.run([base + "/v1/cluster"]).status == 401, "the data does")
        #expect(try await curl.run([base + "/"]).status == 401)
        let browser = ["timeout", "-s", "KILL", "60", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                       "--user-data-dir=\(scratch.path)/profile", "--virtual-time-budget=5000"]
        let dump = try await runAsync(browser + ["--dump-dom", base + "/?access_token=status-page-token-0123456789ab"])
        #expect(dump.status == 0, "\(dump.stderr.suffix(2000))")
        #expect(dump.stdout.contains("<td>\(ProcessInfo.processInfo.hostName)</td>"), "the worker is listed:\n\(dump.stdout)")
        #expect(dump.stdout.contains("<td>zone=eu-1</td>"), "with its labels:\n\(dump.stdout)")
        #expect(!dump.stdout.contains("HTTP 401") && !dump.stdout.contains("cannot reach the coordinator"), "\(dump.stdout)")
        await cluster.stop()
    }
}
