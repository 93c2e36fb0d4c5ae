import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// Text too small for Tesseract's thresholding, or not much larger and read with doubt, is read
    /// again enlarged (SmallText.swift), its boxes in the page's own pixels; other pages, and
    /// `fast`, are read once.
    @Suite struct SmallTextReading {
        @Test func smallTextIsReadAgainEnlargedWithBoxesInThePagesPixels() async throws {
            let small = try await recognize(Fixtures.page("small-text.png"))
            let steps = try #require(small.timings?.steps).map(\.step)
            #expect(steps.contains("pass_enlarged"))
            #expect(small.width == 420 && small.height == 143)
            #expect(characterErrorRate(small.text, reference: Fixtures.text("text.txt")) < 0.03)
            checkBoxes(small)
            // The same words as on the page it was reduced from (to 40%), where that page has them.
            let full = try await recognize(Fixtures.page("text.png"))
            #expect(try #require(full.timings?.steps).map(\.step).contains("pass_enlarged") == false)
            var compared = 0
            for word in small.words {
                let box = try #require(word.box)
                guard let twin = full.words.compactMap({ w in w.box.map { (w.text, $0) } }).first(where: { text, full in
                    text == word.text && abs(Double(full.x) * 0.4 - Double(box.x)) < 6 && abs(Double(full.y) * 0.4 - Double(box.y)) < 6
                })?.1 else { continue }
                compared += 1
                #expect(abs(Double(twin.width) * 0.4 - Double(box.width)) <= 4, "\(word.text): \(box) against \(twin)")
                #expect(abs(Double(twin.height) * 0.4 - Double(box.height)) <= 4, "\(word.text): \(box) against \(twin)")
            }
            #expect(compared >= 25)
        }

        /// Text of 29 px, first read with doubt (the head of a real table whose column heads are
        /// printed turned: Tesseract's mean confidence 0.64), is read enlarged too; the same
        /// table's rows, 29 px and read at 0.84, are not.
        @Test func doubtfulTextUpTo30PixelsIsReadEnlarged() async throws {
            let doubtful = try await recognize(Fixtures.page("real/camelot/agstat-p1-heads.png"))
            #expect(try #require(doubtful.timings?.steps).map(\.step).contains("pass_enlarged"))
            let sure = try await recognize(Fixtures.page("real/camelot/agstat-p1-districts.png"))
            #expect(try #require(sure.timings?.steps).map(\.step).contains("pass_enlarged") == false)
        }

        @Test func fastReadsSmallTextAsItIs() async throws {
            let result = try await recognize(Fixtures.page("small-text.png"), RecognitionOptions.with { $0.level = .fast })
            let steps = try #require(result.timings?.steps).map(\.step)
            #expect(!steps.contains("pass_enlarged"))
        }
    }
}
