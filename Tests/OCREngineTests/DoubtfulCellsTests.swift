import Testing
import OCREngine
import OCRPageModel
import OCRWire
@testable import OCREngine

/// Which cells of a ruled table are read again for their doubtful words (DoubtfulCells.swift),
/// on rules and words drawn here, and a real page read by the engine.
@Suite struct DoubtfulCellsTests {
    /// A grid of two columns (x 0-300, 300-800) and two rows (y 0-100, 100-400), rules 4 px thick.
    static let rules = [
        RawRect(left: 0, top: 0, right: 800, bottom: 4), RawRect(left: 0, top: 100, right: 800, bottom: 104),
        RawRect(left: 0, top: 400, right: 800, bottom: 404),
        RawRect(left: 0, top: 0, right: 4, bottom: 404), RawRect(left: 300, top: 0, right: 304, bottom: 404),
        RawRect(left: 800, top: 0, right: 804, bottom: 404),
    ]

    static func page(_ words: [RawWord]) -> [RawBlock] {
        [RawBlock(rect: RawRect(left: 0, top: 0, right: 804, bottom: 404), type: .text,
                  paragraphs: [RawParagraph(rect: RawRect(left: 0, top: 0, right: 804, bottom: 404), lines: [
                      RawLine(rect: RawRect(left: 0, top: 0, right: 804, bottom: 404), words: words)])])]
    }

    static func word(_ text: String, _ confidence: Float, _ rect: RawRect) -> RawWord {
        RawWord(text: text, confidence: confidence, rect: rect)
    }

    @Test func aDoubtfulWordsCellIsReadInsideItsRules() {
        let words = [Self.word("Menocaine", 0.45, RawRect(left: 320, top: 20, right: 480, bottom: 50)),
                     Self.word("Inj.", 0.94, RawRect(left: 20, top: 20, right: 80, bottom: 50))]
        // Inset from the rules by an eighth of the word's height (30 px: 3, at least 2).
        #expect(DoubtfulCells.cells(in: Self.page(words), rules: Self.rules) == [RawRect(left: 307, top: 7, right: 797, bottom: 97)])
    }

    @Test func sureWordsAndWordsOnTheirSideAreNotReadAgain() {
        let words = [Self.word("Inj.", 0.94, RawRect(left: 20, top: 20, right: 80, bottom: 50)),
                     // A column head turned a quarter: taller than wide.
                     Self.word("Handgun", 0.3, RawRect(left: 320, top: 20, right: 340, bottom: 90)),
                     // Marks only.
                     Self.word("|", 0.2, RawRect(left: 100, top: 20, right: 104, bottom: 50))]
        #expect(DoubtfulCells.cells(in: Self.page(words), rules: Self.rules).isEmpty)
    }

    @Test func aFrameTallerThanSixLinesIsNotACell() {
        // The lower row is 300 px tall: more than six of a 40 px word's heights.
        let words = [Self.word("Lienocaine", 0.34, RawRect(left: 20, top: 200, right: 200, bottom: 240))]
        #expect(DoubtfulCells.cells(in: Self.page(words), rules: Self.rules).isEmpty)
        let taller = [Self.word("Lienocaine", 0.34, RawRect(left: 20, top: 200, right: 200, bottom: 250))]
        #expect(DoubtfulCells.cells(in: Self.page(taller), rules: Self.rules) == [RawRect(left: 10, top: 110, right: 294, bottom: 394)])
    }

    @Test func aCellsReadingKeepsTheFirstReadingsMarks() {
        let first = Self.page([Self.word("17.4%", 0.7, RawRect(left: 320, top: 20, right: 400, bottom: 50))])
        let cell = Self.page([Self.word("174%", 0.95, RawRect(left: 321, top: 20, right: 400, bottom: 50))])
        let combined = DoubtfulCells.combination.combine([first, cell])
        #expect(RawBlock.wordsWithText(combined).map(\.text) == ["17.4%"])
        let better = Self.page([Self.word("Lignocaine", 0.92, RawRect(left: 320, top: 20, right: 400, bottom: 50))])
        let fixed = DoubtfulCells.combination.combine([Self.page([Self.word("Menocaine", 0.45, RawRect(left: 320, top: 20, right: 400, bottom: 50))]), better])
        #expect(RawBlock.wordsWithText(fixed).map(\.text) == ["Lignocaine"])
    }
}

extension EngineTests {
    /// Page 1 of camelot's `medicine.pdf` (MIT), 300 dpi, 1 bpp: a ruled table whose cells hold
    /// two tight lines each, their text against the rules. Tesseract's layout analysis reads the
    /// cells' lines into the rows around them ("Oint Li ine Or ... | ink Henocaine Wir Miaocaine
    /// yrocaine", plain `tesseract` alike); `accurate` reads each cell holding doubtful words
    /// again alone.
    @Suite struct DoubtfulCellsReading {
        static let page = "real/camelot/medicine-p1-bilevel.png"

        static func lines(_ result: PageResult) -> [String] {
            result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text).joined(separator: " ") }
        }

        @Test func eachCellReadsAsItsText() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            let lines = Self.lines(result)
            #expect(lines.contains("Inj. Lignocaine OR Lidocaine OR Xylocaine HCL"), "\(lines)")
            #expect(lines.filter { $0.contains("Oint Lignocaine Or Lidocaine OR Xylocaine HCL") }.count == 2, "\(lines)")
            for misread in ["Henocaine", "Hgnocaine", "Miaocaine", "yrocaine"] {
                #expect(!result.words.contains { $0.text == misread }, "\(misread) in \(lines)")
            }
            #expect(try #require(result.timings?.steps).map(\.step).contains("pass_cell_block"))
        }

        /// `fast` reads as plain Tesseract does, the cells' lines run into the rows around them.
        @Test func fastReadsTheRowsRunTogether() async throws {
            var options = RecognitionOptions()
            options.level = .fast
            let result = try await recognize(Fixtures.page(Self.page), options)
            #expect(result.words.contains { $0.text == "Hgnocaine" }, "\(result.text)")
            #expect(!Self.lines(result).contains { $0.contains("Oint Lignocaine Or Lidocaine") }, "\(result.text)")
        }
    }
}
