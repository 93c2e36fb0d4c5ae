import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// A real table of figures (camelot's `superscript.pdf`, page 1, dithered to a 150-dpi fax as
    /// a dev page of the real-layout corpus is): its text is small, so `accurate` reads it again
    /// enlarged (SmallText.swift). Enlarged as its pixels were, the jagged 1s read as 4s ("17.1"
    /// as "17.4", "1.11" as "1.44") and won over the first reading; smoothed before it is
    /// enlarged, the page reads them right (`SmallText.bilevelSmoothing`).
    @Suite struct BilevelEnlargedReading {
        static let page = "real/camelot/superscript-p1-fax150.png"

        @Test func aSmallFaxIsSmoothedBeforeItIsReadEnlarged() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("pass_enlarged"))
            let words = result.words.map(\.text)
            // The page's figures with 1s in them (each as often as the PDF's text layer has it).
            for (figure, count) in [("17.1", 1), ("1.17", 2), ("1.11", 1), ("31.41", 1), ("0.41", 2), ("2.17", 1), ("4.11", 1), ("11.53", 1)] {
                #expect(words.filter { $0 == figure }.count == count, "\(figure) in \(result.text)")
            }
            // The misreadings of the unsmoothed enlargement: none is on the page.
            for misread in ["17.4", "1.44", "4.17", "31.44"] {
                #expect(!words.contains(misread), "\(misread) in \(result.text)")
            }
        }
    }
}
