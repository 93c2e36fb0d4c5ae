import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// A real statistical table scanned (camelot's `district_health.pdf`, page 1, degraded as a
    /// 200-dpi JPEG scan by `scripts/accuracy/real_layout.py`: a dev-half page), its footnotes
    /// on a gray band under the table. The page's threshold makes the band ink, text and fill
    /// alike, so Tesseract reads nothing there, plain `tesseract` too; the lost-text guard finds
    /// the band as a dark box, and read as it is (with no paper around it, whose threshold would
    /// make the fill ink again) it gives the footnotes word for word.
    @Suite struct ShadedFootnoteReading {
        static let page = "real/camelot/district_health-p1-scan.jpg"
        /// The footnotes' words in their order (two readings of the band each won some of them).
        static let footnotes = ["Children Who were given nothing but breast milk till the survey date", "Acute Respiratory Infections",
                                "the women who have heard of", "Last two weeks"]

        /// At `best` too: its whole-page passes come after the band was read as `accurate` reads
        /// it (before, only one of them read "Children" there, unsurely, and it was left out).
        @Test(arguments: [RecognitionLevel.accurate, .best])
        func theShadedFootnotesAreRead(_ level: RecognitionLevel) async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = level })
            for footnote in Self.footnotes {
                #expect(result.text.contains(footnote), "\(footnote) in \(result.text)")
            }
        }

        /// `fast` reads as Tesseract does: none of the footnotes.
        @Test func fastReadsNoneOfThem() async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = .fast })
            #expect(Self.footnotes.allSatisfy { !result.text.contains($0) }, "\(result.text)")
        }
    }
}
