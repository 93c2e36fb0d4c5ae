import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// A real list of donations (camelot's `campaign_donors.pdf`, dithered to a 200-dpi fax): on
    /// the whole page Tesseract splits ID numbers at their separators ("26.034" ".823") and reads
    /// the next column's dither as a full stop after every date ("09/10/2013."), plain
    /// `tesseract` too. `accurate` reads each such number again alone (DoubtfulNumbers.swift).
    @Suite struct DoubtfulNumbersReading {
        static let page = "real/camelot/campaign_donors-p1-fax.png"

        @Test func numbersSplitOrStuckToSpecksAreReadAgainAlone() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("pass_single_line"))
            let words = result.words.map(\.text)
            #expect(words.filter { $0 == "09/10/2013" }.count >= 50, "\(result.text)")
            #expect(!words.contains("09/10/2013."), "\(result.text)")
            for number in ["26.034.823", "23.249.597", "27.382.271", "27-11292939-3"] {
                #expect(words.contains(number), "\(number) in \(result.text)")
            }
            // Nothing added: the page's rows keep their words, and no word is read twice.
            #expect(words.filter { $0 == "EFECTIVO" }.count <= 57)
        }

        /// `fast` reads as Tesseract does, the dates with their full stops.
        @Test func fastReadsThePageOnce() async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = .fast })
            #expect(try #require(result.timings?.steps).map(\.step).contains("pass_single_line") == false)
            #expect(result.words.map(\.text).contains("09/10/2013."), "\(result.text)")
        }
    }
}
