import Foundation
import OCRBasics
@testable import OCREngine
import OCRPageModel
import OCRPages
import OCRTestSupport
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

        /// The same page gives the same words, boxes and confidences on a busy machine as on an
        /// idle one: the extra passes are bounded in number, not in time (they used to stop at
        /// five times the first pass's time, so load decided which readings were combined).
        /// A short page read at `best` (fewer than 60 words: unsure, so every pass runs), then
        /// again while one more spinning thread than there are cores keeps them all busy.
        @Test func theSameAnswerOnABusyMachine() async throws {
            var options = RecognitionOptions()
            options.level = .best
            let page = Fixtures.page("text.png")
            let idle = try await recognize(page, options)
            let busy = try await whileTheMachineIsBusy { try await recognize(page, options) }
            func words(_ r: PageResult) -> [String] {
                r.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map {
                    "\($0.text)@\($0.box.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "-"):\($0.confidence)"
                }
            }
            #expect(words(idle).count > 20)
            #expect(words(busy) == words(idle), "idle and busy readings differ")
            #expect(busy.text == idle.text)
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

/// Which pages `best` reads again (pure: raw hierarchies in, a decision out).
@Suite struct BestLevelTriggerTests {
    @Test func runTogetherPagesAreThoseWithLongImplausibleWords() {
        let words = (0..<40).map { RawPages.word("word", $0 * 100) }
        #expect(!BestLevel.looksRunTogether(RawPages.page(words)))
        var merged = words
        merged[5] = RawPages.word("onceistoo8535here", 500, dictionary: false)
        merged[9] = RawPages.word("orderprogramlike", 900, dictionary: false)
        #expect(BestLevel.looksRunTogether(RawPages.page(merged)))
    }

    @Test func unsurePagesAreThoseWithDoubtfulOrFewWords() {
        let many = (0..<100).map { RawPages.word("word", $0 * 100) }
        #expect(!BestLevel.isUnsure(RawPages.page(many)))
        var doubtful = many
        doubtful[3].confidence = 0.5
        #expect(BestLevel.isUnsure(RawPages.page(doubtful)))
        #expect(BestLevel.isUnsure(RawPages.page(Array(many.prefix(10)))))
    }
}
