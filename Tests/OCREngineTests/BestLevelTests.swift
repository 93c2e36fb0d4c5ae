import Foundation
import OCREngine
import OCRPages
import OCRWire
import Testing

extension EngineTests {
    /// `--level best` on a real engine: a short page (fewer than 60 words) is always unsure, so
    /// every extra pass runs and is combined.
    @Suite struct BestLevelReading {
        @Test func aShortPageReadsAtLeastAsWellAsAccurate() async throws {
            var options = RecognitionOptions()
            options.level = .best
            let best = try await recognize(Fixtures.page("text.png"), options)
            let accurate = try await recognize(Fixtures.page("text.png"))
            let reference = Fixtures.text("text.txt")
            #expect(characterErrorRate(best.text, reference: reference) <= characterErrorRate(accurate.text, reference: reference))
            #expect(characterErrorRate(best.text, reference: reference) < 0.02, "\(best.text)")
            checkBoxes(best)
        }

        /// A worker without the full model (`--legacy-tessdata` empty) reads `best` without the
        /// combined-engine pass instead of failing the page.
        @Test func withoutTheFullModelTheOtherEnginePassIsSkipped() async throws {
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-legacy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: empty) }
            let engine = EngineThread(name: "best-no-legacy", configuration: EngineConfiguration(legacyTessdataPath: empty.path))
            defer { engine.shutdown() }
            var best = RecognitionOptions()
            best.level = .best
            let page = Fixtures.page("text.png")
            let options = best
            let result = try await engine.run { r throws(OCRError) in try r.recognize(page, options: options) }
            #expect(characterErrorRate(result.text, reference: Fixtures.text("text.txt")) < 0.02, "\(result.text)")
            // The same page with the combined engine asked for outright fails, naming the directory.
            var combined = RecognitionOptions()
            combined.engineMode = .combined
            let asked = combined
            let failed = await ocrError { _ = try await engine.run { r throws(OCRError) in try r.recognize(page, options: asked) } }
            #expect(failed?.code == .failedPrecondition)
            #expect(failed?.message.contains(empty.path) == true, "\(failed?.message ?? "")")
        }
    }
}
