import OCRPageModel
import Testing

/// An amount's comma read as a point where its box sits on the digits' baseline (pure: words in
/// and out).
@Suite struct DecimalPointsTests {
    /// `text` with one symbol per character, digits 12 px tall on a baseline at y 112, each mark
    /// ending `markBottom`.
    static func word(_ text: String, markBottom: Int) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            let left = 100 + 10 * i
            return c.isNumber || c.isLetter
                ? RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: left, top: 100, right: left + 8, bottom: 112))
                : RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: left, top: markBottom - 3, right: left + 3, bottom: markBottom))
        }
        return RawWord(text: text, confidence: 0.9, rect: RawRect(left: 100, top: 100, right: 100 + 10 * text.count, bottom: 112), symbols: symbols)
    }

    @Test func aCommaOnTheBaselineIsAPoint() throws {
        for (text, read) in [("9,00", "9.00"), ("RM33,92", "RM33.92"), ("27,40", "27.40")] {
            let point = try #require(DecimalPoints.pointed(Self.word(text, markBottom: 113)), "\(text)")
            #expect(point.text == read)
            #expect(point.symbols.map(\.text).joined() == read)
        }
    }

    @Test func aCommaReachingBelowTheDigitsOrNoAmountStays() {
        let cases: [(String, Int)] = [
            ("9,00", 115),      // its tail 3 px below the digits: a comma
            ("1,234", 112),     // thousands
            ("12,5", 112),      // one digit after it
            ("1,2,00", 112),    // two commas
            ("Street,", 112),   // a word
            (",00", 112),       // no digit before it
        ]
        for (text, bottom) in cases {
            #expect(DecimalPoints.pointed(Self.word(text, markBottom: bottom)) == nil, "\(text)")
        }
        // Symbols that do not match the characters one to one: left as read.
        var ligature = Self.word("9,00", markBottom: 112)
        ligature.symbols.removeLast()
        #expect(DecimalPoints.pointed(ligature) == nil)
    }

    @Test func theBlocksCountTheWordsChanged() {
        let blocks = [RawBlock(rect: RawRect(left: 0, top: 0, right: 500, bottom: 200), type: .text, paragraphs: [
            RawParagraph(rect: RawRect(left: 0, top: 0, right: 500, bottom: 200), lines: [
                RawLine(rect: RawRect(left: 0, top: 0, right: 500, bottom: 200),
                        words: [Self.word("TOTAL", markBottom: 112), Self.word("9,00", markBottom: 112), Self.word("1,234", markBottom: 112)]),
            ]),
        ])]
        let read = DecimalPoints.read(blocks)
        #expect(read.changed == 1)
        #expect(read.blocks[0].paragraphs[0].lines[0].words.map(\.text) == ["TOTAL", "9.00", "1,234"])
    }
}
