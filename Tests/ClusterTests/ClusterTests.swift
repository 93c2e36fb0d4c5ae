import Foundation
import OCRPages
import OCRTestSupport
import Testing
import OCRClient
import OCREngine
import OCRWire

/// The cluster end to end with real processes on 127.0.0.1: `ocr-coordinator`, `ocr-worker`s
/// and `ocr-submit` as built, a Python client, and fault engines.
@Suite(.serialized) struct ClusterTests {
    let multipage = Binaries.fixtures.appendingPathComponent("multipage.tif").path
    let pdf = Binaries.fixtures.appendingPathComponent("doc.pdf").path

    /// What the engine gives for every page of `file` in this process (the single-process truth).
    func engineTexts(_ file: String) throws -> [String] {
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let pages = try PageSplitter().cutPages(file: file, content: content)
        let recognizer = Recognizer()
        return try pages.map { try recognizer.recognize($0).text }
    }

    @Test func multipageTiffAndPdfThroughTwoWorkersMatchTheEngine() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "tesseract")
        try await cluster.addWorker(slots: 1, engine: "tesseract")
        try await cluster.waitForWorkers(2)

        let result = try await cluster.submit(["--format", "json", "--quiet", multipage, pdf])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pages = try #require(json["pages"] as? [[String: Any]])
        let expected = try engineTexts(multipage) + engineTexts(pdf)
        #expect(pages.count == expected.count)
        #expect(pages.map { $0["pageIndex"] as? Int } == Array(0..<expected.count))
        let texts = pages.map { (($0["result"] as? [String: Any])?["text"] as? String) ?? "<missing>" }
        #expect(texts == expected)
        #expect(expected[0].contains("quick brown fox"))
        // Both workers took part.
        let uids = Set(pages.compactMap { ($0["result"] as? [String: Any])?["workerUid"] as? String })
        #expect(uids.count == 2)
        await cluster.stop()
    }

    @Test func pythonClientSubmitsAndReadsTheStream() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "tesseract")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/python_client.py").path,
                            cluster.clientEndpoint, Binaries.repoRoot.appendingPathComponent("proto").path, multipage]
        let (data, errData) = try await runToCompletion(python)
        let errText = String(decoding: errData, as: UTF8.self)
        #expect(python.terminationStatus == 0, "python stderr: \(errText)")
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "stdout: \(String(decoding: data, as: UTF8.self))")
        #expect(json["page_count"] as? Int == 3)
        #expect((json["unknown_level"] as? [String: Any])?["code"] as? Int == 3, "\(json["unknown_level"] ?? "")")
        #expect((json["unknown_level"] as? [String: Any])?["field"] as? String == "level")
        let events = try #require(json["events"] as? [[String: Any]])
        let pages = events.filter { $0["kind"] as? String == "page_completed" }
        #expect(Set(pages.compactMap { $0["page_index"] as? Int }) == [0, 1, 2])
        #expect(events.last?["kind"] as? String == "finished")
        #expect(events.last?["state"] as? String == "JOB_STATE_SUCCEEDED")
        #expect(json["stream_end_code"] as? Int == 0)
        #expect((json["unknown_method"] as? [String: Int])?["code"] == 12)
        #expect((json["garbage"] as? [String: Int])?["code"] == 3)
        #expect(json["health_after_garbage"] as? String == "SERVING")
        let texts = pages.sorted { ($0["page_index"] as! Int) < ($1["page_index"] as! Int) }.map { $0["text"] as? String ?? "" }
        #expect(texts == (try engineTexts(multipage)))
        await cluster.stop()
    }

    @Test func killingAWorkerMidJobLosesNoPage() async throws {
        let cluster = try await TestCluster()
        let victim = try await cluster.addWorker(slots: 2, engine: "sleep:150")
        try await cluster.addWorker(slots: 2, engine: "sleep:150")
        let pages = try makeManyPageTiff(count: 30)
        let submit = try ChildProcess("ocr-submit", ["--coordinator", cluster.clientEndpoint, "--format", "json", "--quiet", pages])
        try await Task.sleep(for: .milliseconds(600))
        victim.signal(SIGKILL)
        let status = await submit.wait(timeout: .seconds(120))
        #expect(status == 0, "stderr: \(submit.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: submit.stdout) as? [String: Any])
        let states = (json["pages"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == Array(repeating: "OK", count: 30))
        await cluster.stop()
    }

    @Test func aPageThatCrashesItsWorkerEveryTimeFailsAndTheRestIsIntact() async throws {
        let cluster = try await TestCluster()
        for _ in 0..<4 { try await cluster.addWorker(slots: 1, engine: "crash-on:2") }
        let pages = try makeManyPageTiff(count: 6)
        let result = try await cluster.submit(["--format", "json", "--quiet", pages])
        #expect(result.status == 2, "ocr-submit must exit with the partial code; stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let states = (json["pages"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == ["OK", "OK", "FAILED", "OK", "OK", "OK"])
        #expect(result.stderr.contains("page 3 failed"))
        let workersAlive = cluster.workers.filter(\.process.isRunning).count
        #expect(workersAlive == 1, "three attempts, three crashed workers")
        await cluster.stop()
    }

    @Test func cancelStopsTheJob() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "sleep:200")
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        defer { client.close() }
        let file = try makeManyPageTiff(count: 40)
        let job = try await client.submit(files: [URL(fileURLWithPath: file)])
        try await Task.sleep(for: .milliseconds(500))
        let result = try await cluster.submit(["cancel", job.jobId])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("CANCELLED"))
        let final = try await client.job(job.jobId)
        #expect(final.state == .cancelled)
        #expect(final.pagesDone < 40)
        await cluster.stop()
    }

    @Test func smallJobsAreNotStarvedByABigOne() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "sleep:100")
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        defer { client.close() }
        let big = try await client.submit(files: [URL(fileURLWithPath: try makeManyPageTiff(count: 40))])
        let small1 = try await client.submit(files: [URL(fileURLWithPath: multipage)], options: RecognitionOptions.with { $0.pageRanges = [PageRange.with { $0.first = 1; $0.last = 1 }] })
        let small2 = try await client.submit(files: [URL(fileURLWithPath: multipage)], options: RecognitionOptions.with { $0.pageRanges = [PageRange.with { $0.first = 2; $0.last = 2 }] })
        let start = ContinuousClock.now
        async let a = client.document(for: small1)
        async let b = client.document(for: small2)
        _ = try await (a, b)
        let smallDone = ContinuousClock.now - start
        _ = try await client.document(for: big)
        let bigDone = ContinuousClock.now - start
        // 40 pages at 100 ms on 2 slots take about 2 s; the small jobs must not wait for them.
        #expect(smallDone * 4 < bigDone, "small jobs took \(smallDone), the big one \(bigDone)")
        await cluster.stop()
    }

    @Test func aFileNameWithControlCharactersIsEscapedOnStderr() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = dir.appendingPathComponent("bad\nocr-submit: forged\u{1B}[2J.tif").path
        try Data("II*\u{0}garbage".utf8).write(to: URL(fileURLWithPath: name))
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "null")
        let result = try await cluster.submit(["--quiet", name])
        #expect(result.status == 3, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "one error line, no forged second one: \(lines)")
        #expect(lines.first?.contains("bad\\nocr-submit: forged\\u{1B}[2J.tif") == true, "\(lines)")
        #expect(!result.stderr.contains("\u{1B}"), "no raw escape reaches the terminal")
        await cluster.stop()
    }

    /// A bilevel multipage TIFF of `count` pages, made once per count.
    func makeManyPageTiff(count: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-cluster-\(count)-pages.tif").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let source = Binaries.fixtures.appendingPathComponent("text.png").path
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        convert.arguments = ["convert"] + Array(repeating: source, count: count) + ["-monochrome", "-compress", "Group4", path + ".tmp.tif"]
        try convert.run()
        convert.waitUntilExit()
        guard convert.terminationStatus == 0 else { throw TestProcessError("convert failed") }
        try FileManager.default.moveItem(atPath: path + ".tmp.tif", toPath: path)
        return path
    }
}
