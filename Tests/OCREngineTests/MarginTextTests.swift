import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// Text standing alone in a margin, which Tesseract's layout analysis drops (plain `tesseract`
    /// too): `accurate` reads it on its own (LostText's margin letters).
    @Suite struct MarginText {
        /// A page number alone under the text.
        @Test func aLonePageNumberIsRead() async throws {
            let result = try await recognize(Fixtures.page("rendered/page-number.png"))
            let lines = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text).joined(separator: " ") }
            #expect(lines.last == "2", "\(lines)")
            #expect(lines.contains("references, just not simultaneous ones:"), "\(lines)")
        }

        static let transcript = "real/pdfplumber/scotus-transcript-p1-fax.png"

        /// The numbers of lines of the page of a real court transcript (pdfplumber's
        /// `scotus-transcript-p1.pdf`, dithered to a 200-dpi fax), left of the text: 1 to 25, all
        /// dropped by the layout analysis. `accurate` reads them as a column beside the text.
        static func lineNumbers(_ result: PageResult) -> [String] {
            let textLeft = result.words.filter { $0.text.contains { $0.isLetter } }.map { Int($0.box!.x) }.min() ?? 0
            return result.words.filter { Int($0.box!.x) + Int($0.box!.width) < textLeft }.map(\.text)
        }

        @Test func aTranscriptsLineNumbersAreRead() async throws {
            let result = try await recognize(Fixtures.page(Self.transcript))
            let numbers = Self.lineNumbers(result)
            let right = numbers.filter { Int($0).map { (1...25).contains($0) } ?? false }
            #expect(Set(right).count >= 22, "\(numbers)")
            #expect(numbers.count <= 25, "\(numbers)")
            // The text beside them is read as before.
            #expect(result.text.contains("IN THE SUPREME COURT OF THE UNITED STATES"), "\(result.text)")
            #expect(result.text.contains("Washington, D.C."), "\(result.text)")
        }

        /// `fast` reads as Tesseract does: no line numbers.
        @Test func fastReadsNoLineNumbers() async throws {
            let result = try await recognize(Fixtures.page(Self.transcript), RecognitionOptions.with { $0.level = .fast })
            #expect(Self.lineNumbers(result).isEmpty, "\(result.text)")
        }
    }
}
