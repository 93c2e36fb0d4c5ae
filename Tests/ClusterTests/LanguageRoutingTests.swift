import Foundation
import OCRTestSupport
import Testing
import OCREngine

/// Language-aware dispatch with real processes: a page goes only to a worker whose `Ready`
/// announced its languages, and a language no worker has is refused at submit instead of hanging.
@Suite(.serialized) struct LanguageRoutingTests {
    let multipage = Binaries.fixtures.appendingPathComponent("multipage.tif").path

    /// A tessdata directory with Debian's `eng` model under each of `names` (symlinks). Test-only:
    /// `xeng` is the English model under another name, so one worker has a language the other
    /// lacks without installing a second model.
    static func tessdata(_ names: [String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tessdata-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let eng = EngineConfiguration.defaultTessdataPath + "/eng.traineddata"
        for name in names {
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/\(name).traineddata", withDestinationPath: eng)
        }
        return dir
    }

    /// The worker's uid from its startup log line (`worker=` in hex).
    static func uid(of worker: ChildProcess) async throws -> UInt64 {
        let hex = try await worker.waitForStderr(#"msg=connecting worker=([0-9a-f]+)"#)[0]
        return try #require(UInt64(hex, radix: 16))
    }

    @Test func pagesGoOnlyToTheWorkerWithTheirLanguageAndAMissingLanguageFailsClearly() async throws {
        let engOnly = try Self.tessdata(["eng"])
        let both = try Self.tessdata(["eng", "xeng"])
        defer { for d in [engOnly, both] { try? FileManager.default.removeItem(atPath: d) } }
        let cluster = try await TestCluster()
        let plain = try await cluster.addWorker(slots: 1, engine: "tesseract", extra: ["--tessdata", engOnly])
        let polyglot = try await cluster.addWorker(slots: 1, engine: "tesseract", extra: ["--tessdata", both])
        try await cluster.waitForWorkers(2)
        let plainUID = try await Self.uid(of: plain)
        let polyglotUID = try await Self.uid(of: polyglot)

        // Twice the pages there are slots, so the eng-only worker is idle and asking while the
        // xeng pages wait: none of them may reach it.
        let xeng = try await cluster.submit(["--lang", "xeng", "--format", "json", "--quiet", multipage, multipage])
        #expect(xeng.status == 0, "stderr: \(xeng.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(xeng.stdout.utf8)) as? [String: Any])
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(pages.count == 6)
        let uids = pages.map { (($0["result"] as? [String: Any])?["workerUid"] as? String).flatMap { UInt64($0) } }
        #expect(uids == Array(repeating: polyglotUID, count: 6), "eng-only worker is \(plainUID)")
        let texts = pages.map { (($0["result"] as? [String: Any])?["text"] as? String) ?? "" }
        #expect(texts[0].contains("quick brown fox"))

        // Plain English still goes to both.
        let eng = try await cluster.submit(["--format", "json", "--quiet", multipage, multipage])
        #expect(eng.status == 0, "stderr: \(eng.stderr)")
        let engPages = try #require((try JSONSerialization.jsonObject(with: Data(eng.stdout.utf8)) as? [String: Any])?["pages"] as? [[String: Any]])
        let engUIDs = Set(engPages.compactMap { (($0["result"] as? [String: Any])?["workerUid"] as? String).flatMap { UInt64($0) } })
        #expect(engUIDs == [plainUID, polyglotUID])

        // No connected worker has fra: the job is refused at submit with FAILED_PRECONDITION,
        // naming the language and what is installed; the workers stay up.
        let fra = try await cluster.submit(["--lang", "fra", "--quiet", "--pages", "1", multipage])
        #expect(fra.status == 3)
        #expect(fra.stderr.contains("FAILED_PRECONDITION"), "stderr: \(fra.stderr)")
        #expect(fra.stderr.contains("fra"))
        #expect(fra.stderr.contains("installed: "), "stderr: \(fra.stderr)")
        #expect(fra.stderr.contains("xeng"), "the polyglot worker's language is named: \(fra.stderr)")
        let workersUp = cluster.workers.allSatisfy { $0.process.isRunning }
        #expect(workersUp)
        await cluster.stop()
    }
}
