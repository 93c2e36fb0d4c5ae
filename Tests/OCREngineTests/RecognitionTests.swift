import Foundation
import OCREngine
import OCRPages
import OCRWire
import Testing

extension EngineTests {
    @Suite struct Recognition {
        @Test func cleanPageMatchesGroundTruthAndCLI() async throws {
            let result = try await recognize(Fixtures.page("text.png"))
            let cer = characterErrorRate(result.text, reference: Fixtures.text("text.txt"))
            print("[figures] text.png: CER \(cer), recognize \(result.timings?.recognizeUs ?? 0) us, mean confidence \(result.meanConfidence)")
            #expect(cer < 0.02)
            #expect(result.width == 1049 && result.height == 357 && result.dpi == 300)
            let cli = try #require(tesseractCLI(Fixtures.root.appendingPathComponent("text.png").path, ["--dpi", "300"]))
            #expect(result.text == cli)
            checkBoxes(result)
            #expect(result.words.count > 20)
            #expect(result.words.allSatisfy { (0...1).contains($0.confidence) && $0.candidates.first?.text == $0.text })
            #expect(result.blocks.allSatisfy { $0.type == .text })
            #expect(result.file == "text.png" && result.pageIndex == 0 && result.filePage == 1)
        }

        /// Each step's CPU time is in the result, in the order the steps ran, and the steps add
        /// up to no more than the page's own time on the engine thread.
        @Test func stepCostsAreReported() async throws {
            var options = RecognitionOptions()
            options.deskew = true
            let result = try await recognize(Fixtures.page("text.png"), options)
            let steps = try #require(result.timings?.steps)
            let names = steps.map(\.step)
            #expect(names.starts(with: ["reduce", "find_photo", "find_converging_lines", "find_skew"]))
            #expect(Set(names).isSuperset(of: ["check_lighting", "recognize", "read_results", "lost_text"]))
            #expect(names.firstIndex(of: "check_lighting")! < names.firstIndex(of: "recognize")!)
            #expect(Set(names).count == names.count)
            let recognize = try #require(steps.first { $0.step == "recognize" })
            #expect(recognize.cpuUs > 10_000)  // Recognising a page is tens of milliseconds at least.
            let total = steps.reduce(UInt64(0)) { $0 + $1.cpuUs }
            #expect(total <= result.timings!.totalUs + 5_000)  // CPU of one thread within the page's wall time.
        }

        @Test(arguments: ["blank.png", "tiny.png"])
        func emptyPagesAreEmptyResultsNotErrors(name: String) async throws {
            for detectOnly in [false, true] {
                var opts = RecognitionOptions()
                opts.detectOnly = detectOnly
                opts.deskew = true
                opts.autoRotate = true
                let result = try await recognize(Fixtures.page(name), opts)
                #expect(result.words.isEmpty && result.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            }
        }

        @Test func pagesDoNotDependOnEarlierPages() async throws {
            let a = Fixtures.page("text.png"), b = Fixtures.page("noise.png")
            let first = try await recognize(a)
            _ = try await recognize(b)
            var opts = RecognitionOptions()
            opts.candidates = 3
            _ = try await recognize(b, opts)
            let again = try await recognize(a)
            #expect(first.text == again.text)
            #expect(first.blocks == again.blocks)
        }

        @Test func noisyPageCERIsBounded() async throws {
            let reference = Fixtures.text("text.txt")
            let plain = try await recognize(Fixtures.page("noise.png"))
            var opts = RecognitionOptions()
            opts.binarization = .sauvola
            let sauvola = try await recognize(Fixtures.page("noise.png"), opts)
            opts.binarization = .otsu
            let otsu = try await recognize(Fixtures.page("noise.png"), opts)
            let cers = [plain, sauvola, otsu].map { characterErrorRate($0.text, reference: reference) }
            print("[figures] noise.png CER: tesseract's own \(cers[0]), Sauvola \(cers[1]), Otsu \(cers[2])")
            #expect(cers.allSatisfy { $0 < 0.35 })
            checkBoxes(plain)
        }

        @Test func candidatesComeBestFirst() async throws {
            var opts = RecognitionOptions()
            opts.candidates = 5
            let result = try await recognize(Fixtures.page("noise.png"), opts)
            let words = result.words
            #expect(words.allSatisfy { $0.candidates.count >= 1 && $0.candidates.count <= 5 && $0.candidates[0].text == $0.text })
            for word in words {
                let confidences = word.candidates.map(\.confidence)
                #expect(confidences == confidences.sorted(by: >), "\(word.text): \(word.candidates)")
                #expect(Set(word.candidates.map(\.text)).count == word.candidates.count)
            }
            #expect(words.contains { $0.candidates.count > 1 })
            // Asking for candidates does not change the best reading.
            let plain = try await recognize(Fixtures.page("noise.png"))
            #expect(plain.text == result.text)
        }

        @Test func whitelistRestrictsCharacters() async throws {
            var opts = RecognitionOptions()
            opts.characterWhitelist = "0123456789"
            let result = try await recognize(Fixtures.page("text.png"), opts)
            #expect(result.text.allSatisfy { $0.isNumber || $0.isWhitespace })
            #expect(result.text.contains("1234"))
            // And the next page without a whitelist is unaffected.
            let plain = try await recognize(Fixtures.page("text.png"))
            #expect(plain.text.contains("quick brown fox"))
        }

        @Test func regionOfInterestLimitsText() async throws {
            var opts = RecognitionOptions()
            var roi = Ocr_V1_NormalizedRect()
            roi.x = 0; roi.y = 0; roi.width = 1; roi.height = 0.45
            opts.regionOfInterest = roi
            let result = try await recognize(Fixtures.page("text.png"), opts)
            #expect(result.text.contains("quick brown fox"))
            #expect(!result.text.contains("zebras"))
            for word in result.words { #expect(Double(word.box!.y) < 0.5 * 357) }
        }

        @Test func minimumTextHeightAndConfidenceFilter() async throws {
            var opts = RecognitionOptions()
            opts.minimumTextHeight = 0.5  // Lines are about a tenth of this page's height.
            #expect(try await recognize(Fixtures.page("text.png"), opts).words.isEmpty)
            opts.minimumTextHeight = 0.02
            let all = try await recognize(Fixtures.page("text.png"), opts)
            #expect(all.words.count > 20)
            var strict = RecognitionOptions()
            strict.minimumConfidence = 0.9
            let noisy = try await recognize(Fixtures.page("noise.png"))
            let filtered = try await recognize(Fixtures.page("noise.png"), strict)
            #expect(filtered.words.count < noisy.words.count)
            #expect(filtered.words.allSatisfy { $0.confidence >= 0.9 })
            #expect(filtered.text.split(separator: " ").count < noisy.text.split(separator: " ").count)
        }

        @Test func detectOnlyGivesBoxesWithoutTextAndIsFaster() async throws {
            let page = Fixtures.page("skew3.png")
            var opts = RecognitionOptions()
            opts.detectOnly = true
            opts.reportCharacterBoxes = true
            var detect = try await recognize(page, opts)
            let full = try await recognize(page)
            // Best of three for each, to keep a busy machine's noise out of the ratio.
            var detectUs = detect.timings!.recognizeUs, fullUs = full.timings!.recognizeUs
            for _ in 0..<2 {
                detect = try await recognize(page, opts)
                detectUs = min(detectUs, detect.timings!.recognizeUs)
                fullUs = min(fullUs, try await recognize(page).timings!.recognizeUs)
            }
            print("[figures] detect-only \(detectUs) us vs recognition \(fullUs) us: \(Double(fullUs) / Double(max(1, detectUs)))x")
            #expect(detect.text.isEmpty)
            #expect(detect.words.count > 20 && detect.words.allSatisfy { $0.text.isEmpty && $0.box != nil })
            #expect(detect.words.contains { !$0.symbols.isEmpty })
            #expect(detect.words.flatMap(\.symbols).allSatisfy { $0.text.isEmpty })
            #expect(fullUs >= 3 * detectUs)
            checkBoxes(detect)
            opts.reportCharacterBoxes = false
            #expect(try await recognize(page, opts).words.allSatisfy { $0.symbols.isEmpty })
        }

        /// `fast` reads a 300-dpi page at 300 dpi, as the CLI does, and reads what the CLI reads
        /// (it used to reduce such pages to 200 dpi, losing words in dense tables).
        @Test func fastReadsAsTheCLIReads() async throws {
            let result = try await recognize(Fixtures.page("text.png"), RecognitionOptions.with { $0.level = .fast })
            #expect(result.dpi == 300)
            #expect(result.text == (try #require(tesseractCLI(Fixtures.root.appendingPathComponent("text.png").path, ["--dpi", "300"]))))
            #expect(result.timings?.steps.contains { $0.step == "scale" } == false)
        }

        @Test func fastVersusAccurate() async throws {
            let page = Fixtures.page("skew3.png")
            var fast = RecognitionOptions()
            fast.level = .fast
            fast.deskew = true
            var accurate = fast
            accurate.level = .accurate
            let a = try await recognize(page, accurate), f = try await recognize(page, fast)
            let reference = Fixtures.text("skew3.txt")
            print("[figures] skew3.png deskewed: accurate \(a.timings!.recognizeUs) us CER \(characterErrorRate(a.text, reference: reference)); fast \(f.timings!.recognizeUs) us CER \(characterErrorRate(f.text, reference: reference))")
            #expect(characterErrorRate(f.text, reference: reference) < 0.1)
            checkBoxes(f, slack: 2)
        }

        @Test func languageCorrectionOffUsesItsOwnEngine() async throws {
            var opts = RecognitionOptions()
            opts.languageCorrection = false
            let result = try await recognize(Fixtures.page("text.png"), opts)
            #expect(characterErrorRate(result.text, reference: Fixtures.text("text.txt")) < 0.05)
            opts.customWords = ["zebras", "quartz"]
            let custom = try await recognize(Fixtures.page("text.png"), opts)
            #expect(custom.text.contains("zebras"))
        }
    }
}
