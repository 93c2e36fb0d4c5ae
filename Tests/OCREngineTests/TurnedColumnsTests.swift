import Foundation
import OCRBasics
@testable import OCREngine
import OCRPageModel
import OCRTestSupport
import OCRWire
import Testing

extension EngineTests {
    /// A real table of counts (PubTabNet's PMC3826085 table, printed by Chromium at 300 dpi):
    /// its columns of one- and two-digit numbers are what Tesseract's layout analysis takes for
    /// vertical text and reads turned ("PrPrPWOODdOrRr"), plain `tesseract` too. The `accurate`
    /// level reads them again as rows (TurnedLines.swift).
    @Suite struct TurnedColumns {
        @Test func aColumnOfCountsIsReadAsRows() async throws {
            let result = try await recognize(Fixtures.page("rendered/counts-table.png"))
            let lines = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text).joined(separator: " ") }
            for row in ["Arabic 0 1 0 1", "Danish 0 0 1 1", "Punjabi 3 2 1 6", "Russian 1 2 3 6", "Total 20 30 30 80"] {
                #expect(lines.contains(row), "\(row) in \(lines)")
            }
            let words = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
            #expect(!words.contains { $0.text.count >= 6 && $0.text.allSatisfy { "OPRWrNFHDdo".contains($0) } }, "\(result.text)")
        }

        /// `fast` keeps no guards: it reads as plain Tesseract does, the columns turned.
        @Test func fastReadsAsTesseractDoes() async throws {
            var options = RecognitionOptions()
            options.level = .fast
            let result = try await recognize(Fixtures.page("rendered/counts-table.png"), options)
            #expect(!result.text.contains("Arabic 0 1 0 1"), "\(result.text)")
        }
    }
}
