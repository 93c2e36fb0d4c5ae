@testable import OCREngine
import OCRPageModel
import OCRTestSupport
import OCRWire
import Testing

/// Which cells of a ruled grid are read again (RuledCells.swift), on rules and letters drawn
/// here; and a real table whose single-digit cells Tesseract drops, read cell by cell.
@Suite struct RuledCellsTests {
    /// A grid of two rows of three cells, 60 px tall, between rules 3 px thick.
    static let rules = [0, 60, 120].map { RawRect(left: 100, top: $0, right: 700, bottom: $0 + 3) }
        + [100, 300, 500, 700].map { RawRect(left: $0, top: 0, right: $0 + 3, bottom: 123) }

    @Test func aLetterInACellMakesThatCellARegion() {
        let letter = RawRect(left: 320, top: 75, right: 340, bottom: 105)
        #expect(RuledCells.cells(around: [letter], rules: Self.rules) == [RawRect(left: 306, top: 66, right: 497, bottom: 117)])
    }

    @Test func twoLettersOfOneCellMakeOneRegionInReadingOrder() {
        let letters = [RawRect(left: 520, top: 15, right: 540, bottom: 45), RawRect(left: 320, top: 75, right: 340, bottom: 105),
                       RawRect(left: 350, top: 75, right: 370, bottom: 105)]
        #expect(RuledCells.cells(around: letters, rules: Self.rules) == [RawRect(left: 506, top: 6, right: 697, bottom: 57),
                                                                          RawRect(left: 306, top: 66, right: 497, bottom: 117)])
    }

    @Test func aWordOverABrokenRuleIsReadInOneCell() {
        // The rule under the first row is broken at x 400-420: the word's letter over the break
        // sees a cell down to the rule under the second row, overlapping its first letter's
        // cell, and is read there once.
        var rules = Self.rules.filter { $0.top != 60 || $0.width <= $0.height }
        rules += [RawRect(left: 100, top: 60, right: 400, bottom: 63), RawRect(left: 420, top: 60, right: 700, bottom: 63)]
        let letters = [RawRect(left: 330, top: 15, right: 350, bottom: 45), RawRect(left: 410, top: 15, right: 430, bottom: 45)]
        #expect(RuledCells.cells(around: letters, rules: rules) == [RawRect(left: 306, top: 6, right: 497, bottom: 57)])
    }

    @Test func aCellOfSeveralLinesIsReadAsABlock() {
        // Rules 180 px apart around letters 30 px tall: 5.8 letter heights, five rows of figures.
        let rules = [0, 180].map { RawRect(left: 100, top: $0, right: 300, bottom: $0 + 3) }
            + [100, 300].map { RawRect(left: $0, top: 0, right: $0 + 3, bottom: 183) }
        let cells = RuledCells.lostCells(around: [RawRect(left: 200, top: 40, right: 220, bottom: 70)], rules: rules)
        #expect(cells.lines.isEmpty)
        #expect(cells.blocks == [RawRect(left: 106, top: 6, right: 297, bottom: 177)])
        // Short cells are read as lines, not as blocks.
        let short = RuledCells.lostCells(around: [RawRect(left: 320, top: 75, right: 340, bottom: 105)], rules: Self.rules)
        #expect(short.lines.count == 1 && short.blocks.isEmpty)
    }

    @Test func aLetterOutsideTheGridOrInAFrameAroundTextIsNoCell() {
        let outside = RawRect(left: 800, top: 75, right: 820, bottom: 105)
        #expect(RuledCells.cells(around: [outside], rules: Self.rules).isEmpty)
        // A frame 600 px tall around letters 30 px tall holds a block of text, not a cell.
        let frame = [RawRect(left: 100, top: 200, right: 700, bottom: 203), RawRect(left: 100, top: 800, right: 700, bottom: 803),
                     RawRect(left: 100, top: 200, right: 103, bottom: 803), RawRect(left: 700, top: 200, right: 703, bottom: 803)]
        #expect(RuledCells.cells(around: [RawRect(left: 300, top: 400, right: 320, bottom: 430)], rules: frame).isEmpty)
        let lost = RuledCells.lostCells(around: [RawRect(left: 300, top: 400, right: 320, bottom: 430)], rules: frame)
        #expect(lost.lines.isEmpty && lost.blocks.isEmpty)
    }
}

extension EngineTests {
    /// PubTabNet's table PMC3826085 (real counts, CDLA-Permissive-1.0) printed by Chromium at
    /// 300 dpi in light-gray hairline rules (`scripts/accuracy/rendered_tables.py`, the page's
    /// top half): Tesseract's layout analysis drops most of its single-digit cells, plain
    /// `tesseract` too and with the rules painted out; the recovery passes over the region read
    /// them no better. `accurate` reads each ruled cell still holding unread letters alone.
    @Suite struct RuledCellsReading {
        static let page = "rendered/counts-table-hairlines.png"

        @Test func everyCountIsRead() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            let lines = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text).joined(separator: " ") }
            for row in ["Mandarin 1 3 9 13", "Arabic 0 1 0 1", "Danish 0 0 1 1", "German 1 0 2 3", "Punjabi 3 2 1 6",
                        "Russian 1 2 3 6", "Tamil 1 0 0 1"] {
                #expect(lines.contains(row), "\(row) in \(lines)")
            }
            // Each header read once, whatever cells its letters see.
            for header in ["Infancy", "Early", "Late", "Total"] {
                #expect(result.words.filter { $0.text == header }.count == (header == "Total" ? 2 : 1), "\(header) in \(result.text)")
            }
        }

        /// `fast` reads as plain Tesseract does, the counts dropped.
        @Test func fastDropsTheCounts() async throws {
            var options = RecognitionOptions()
            options.level = .fast
            let result = try await recognize(Fixtures.page(Self.page), options)
            #expect(!result.text.contains("Arabic 0 1 0 1"), "\(result.text)")
        }
    }
}

extension EngineTests {
    /// The FBI's firearm background checks for November 2015 (pdfplumber's test PDF, MIT), page
    /// 1 turned upright and thresholded: a table ruled every five rows, whose last column
    /// ("Totals", 71,137 down to 38,541) Tesseract's layout analysis drops, plain `tesseract`
    /// too, its few hundred digits too few among the page's thousands for the lost-text guard.
    /// `accurate` reads each ruled cell of five figures alone, as one block.
    @Suite struct TallRuledCellsReading {
        static let page = "real/pdfplumber/nics-background-checks-2015-11-upright-bilevel.png"
        static let totals = ["71,137", "7,095", "27,087", "25,048", "42,271", "26,438", "5,040", "103,532", "50,795", "1,252",
                             "11,925", "129,861", "130,333", "13,794", "18,433", "295,891", "37,752", "38,541"]

        /// Each total's digits, read as a word (a thousands comma of this threshold is read as
        /// a point in three of them, "103.532", as elsewhere on the page: not this guard's).
        static func totalsRead(_ words: [String]) -> [String] {
            let digits = Set(words.map { $0.filter(\.isNumber) })
            return totals.filter { digits.contains($0.filter(\.isNumber)) }
        }

        @Test func theTotalsColumnIsRead() async throws {
            let words = try await recognize(Fixtures.page(Self.page)).words.map(\.text)
            #expect(Self.totalsRead(words) == Self.totals)
            #expect(Self.totals.filter(words.contains).count >= 15, "\(Self.totals.filter(words.contains))")
        }

        /// `fast` reads as plain Tesseract does, the column dropped.
        @Test func fastDropsTheTotals() async throws {
            var options = RecognitionOptions()
            options.level = .fast
            let words = try await recognize(Fixtures.page(Self.page), options).words.map(\.text)
            #expect(Self.totalsRead(words).count <= 2, "\(Self.totalsRead(words))")
        }
    }
}
