import Foundation
import OCRTestSupport
import Testing

/// Every input the fuzzers were seeded with or ever crashed on (`fuzz/corpus`, `fuzz/crashes`),
/// replayed through the harnesses' own code in a plain build: a fixed crash stays fixed.
@Suite struct FuzzCorpusTests {
    @Test(arguments: ["wire", "tiff", "pdf", "image"])
    func theCorpusAndEveryCrashFoundReplayWithoutACrash(target: String) async throws {
        let fuzz = Binaries.repoRoot.appendingPathComponent("fuzz")
        let corpus = fuzz.appendingPathComponent("corpus/\(target)")
        let crashes = try FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent("crashes").path)
            .filter { $0.hasPrefix(target + "-") }.map { fuzz.appendingPathComponent("crashes/\($0)").path }
        let replay = try ChildProcess("ocr-fuzz", [target, corpus.path] + crashes)
        #expect(await replay.wait() == 0, "stderr: \(replay.stderr)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
        let out = String(decoding: replay.stdout, as: UTF8.self)
        #expect(out.contains("\(target): \(seeds + crashes.count) inputs replayed"), "\(out)")
    }
}
