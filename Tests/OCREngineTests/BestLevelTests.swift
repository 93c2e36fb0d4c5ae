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

        /// `best` needs no full model (its passes read with the page's own model): a worker
        /// without one (`--legacy-tessdata` empty) reads it as any worker does, while the combined
        /// engine asked for outright fails, naming the directory.
        @Test func bestNeedsNoFullModel() async throws {
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
            let withModel = try await recognize(page, options)
            #expect(result.text == withModel.text)
            #expect(characterErrorRate(result.text, reference: Fixtures.text("text.txt")) < 0.02, "\(result.text)")
            var combined = RecognitionOptions()
            combined.engineMode = .combined
            let asked = combined
            let failed = await ocrError { _ = try await engine.run { r throws(OCRError) in try r.recognize(page, options: asked) } }
            #expect(failed?.code == .failedPrecondition)
            #expect(failed?.message.contains(empty.path) == true, "\(failed?.message ?? "")")
        }

        /// On a page it is unsure of (a short one), `best` reads three more times, and a 1 bpp
        /// page, which has no background to normalise, twice: the passes in the page's steps.
        @Test func bestReadsAGrayPageThreeTimesMoreAndABilevelOneTwice() async throws {
            var options = RecognitionOptions()
            options.level = .best
            func passes(_ page: PageDescriptor) async throws -> Set<String> {
                Set(try #require(try await recognize(page, options).timings?.steps).map(\.step).filter { $0.hasPrefix("pass_") })
            }
            let gray = try await passes(Fixtures.page("text.png"))
            #expect(gray.isSuperset(of: ["pass_background_normalized", "pass_median_filtered", "pass_single_block"]), "\(gray)")
            let bilevel = try await passes(Fixtures.page("text-bilevel.png"))
            #expect(bilevel.isSuperset(of: ["pass_median_filtered", "pass_single_block"]), "\(bilevel)")
            #expect(!bilevel.contains("pass_background_normalized"), "\(bilevel)")
        }
    }
}

/// Which pages `best` reads again (pure: raw hierarchies in, a decision out).
@Suite struct BestLevelTriggerTests {
    @Test func unsurePagesAreThoseWithDoubtfulOrFewWords() {
        let many = (0..<100).map { RawPages.word("word", $0 * 100) }
        #expect(!BestLevel.isUnsure(RawPages.page(many)))
        var doubtful = many
        doubtful[3].confidence = 0.5
        #expect(BestLevel.isUnsure(RawPages.page(doubtful)))
        #expect(BestLevel.isUnsure(RawPages.page(Array(many.prefix(10)))))
    }
}
