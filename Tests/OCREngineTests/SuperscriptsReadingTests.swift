import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// A real statistical table scanned (camelot's `district_health.pdf`, page 1, as the
    /// real-layout corpus degrades it into a 200-dpi JPEG: a dev-half page), its labels carrying
    /// footnote figures set small and raised ("breastfed⁹", "ORS¹¹", "HIV/AIDS¹²"). Tesseract reads
    /// each into its word ("breastfed®", "ORS”", "HIV/AIDS”"), plain `tesseract` too; `accurate`
    /// reads the word apart from its mark (Superscripts.swift).
    @Suite struct SuperscriptsReading {
        static let page = "real/camelot/district_health-p1-scan.jpg"

        @Test func footnoteMarksAreReadApartFromTheirWords() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("superscripts"))
            let lines = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
            for (label, word) in [("exclusively", "breastfed"), ("received", "ORS"), ("testing", "HIV/AIDS")] {
                let line = try #require(lines.first { $0.contains(label) && $0.contains { $0.hasPrefix(word) } }, "\(label) in \(lines)")
                let index = try #require(line.firstIndex { $0.hasPrefix(word) })
                #expect(line[index] == word && index + 1 < line.count && !line[index + 1].hasPrefix("."), "\(line)")
            }
        }

        /// A mark read as no mark ("®" for the raised "9", "”" for "12") is read again alone,
        /// enlarged, as the figure it is.
        @Test func marksReadAsNoMarkAreReadAgainAsFigures() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("superscript_marks"))
            let lines = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
            for (label, word, mark) in [("exclusively", "breastfed", "9"), ("testing", "HIV/AIDS", "12"), ("detecting", "HIV/AIDS", "12")] {
                let line = try #require(lines.first { $0.contains(label) && $0.contains(word) }, "\(label) in \(lines)")
                let index = try #require(line.firstIndex(of: word))
                #expect(index + 1 < line.count && line[index + 1] == mark, "\(line)")
            }
        }

        /// `fast` reads as Tesseract does, the marks in their words.
        @Test func fastKeepsTheMarksInTheirWords() async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = .fast })
            #expect(try #require(result.timings?.steps).map(\.step).contains("superscripts") == false)
            #expect(result.words.map(\.text).contains { $0.hasPrefix("breastfed") && $0 != "breastfed" }, "\(result.text)")
        }
    }
}
