import OCRPageModel
import Testing

/// Colons read as semicolons, told apart by where the mark's box ends against the line's
/// baseline (pure: words in and out).
@Suite struct SemicolonColonsTests {
    /// `text` with one symbol per character: letters and digits 20 px tall on a baseline at
    /// y 120, each other mark ending at `markBottom`.
    static func word(_ text: String, left: Int = 100, markBottom: Int) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            let x = left + 12 * i
            return c.isLetter || c.isNumber
                ? RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: x, top: 100, right: x + 10, bottom: 120))
                : RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: x, top: 106, right: x + 3, bottom: markBottom))
        }
        return RawWord(text: text, confidence: 0.9, rect: RawRect(left: left, top: 100, right: left + 12 * text.count, bottom: max(120, markBottom)),
                       symbols: symbols)
    }

    static func read(_ words: [RawWord]) -> (texts: [String], changed: Int) {
        let rect = RawRect(left: 0, top: 90, right: 800, bottom: 130)
        let blocks = [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: words)])])]
        let read = SemicolonColons.read(blocks)
        return (RawBlock.allWords(read.blocks).map(\.text), read.changed)
    }

    @Test func aSemicolonEndingOnTheBaselineIsAColon() {
        let read = Self.read([Self.word("NO;", markBottom: 121), Self.word(";", left: 200, markBottom: 120), Self.word("0013", left: 300, markBottom: 120)])
        #expect(read.texts == ["NO:", ":", "0013"] && read.changed == 2)
    }

    @Test func aSemicolonWhoseTailReachesBelowStays() {
        // 4 px below a 20 px line (0.2 of its letters, as the corpus's prose semicolons).
        let read = Self.read([Self.word("position;", markBottom: 124), Self.word("and", left: 300, markBottom: 120)])
        #expect(read.texts == ["position;", "and"] && read.changed == 0)
        // Symbols that do not match the characters one to one, and a line without letters.
        var ligature = Self.word("NO;", markBottom: 120)
        ligature.symbols.removeFirst()
        #expect(Self.read([ligature, Self.word("and", left: 300, markBottom: 120)]).texts == ["NO;", "and"])
        #expect(Self.read([Self.word(";", markBottom: 120)]).texts == [";"])
    }
}
