import OCRPageModel
import Testing

/// A round bracket read as a curly one, told by its partner in the line (pure: lines in and out).
@Suite struct BracketPairsTests {
    /// The words of `lines` after `BracketPairs.read`, line by line, and how many changed; each
    /// word spelt by one symbol per character.
    static func read(_ lines: [[String]]) -> (texts: [[String]], symbols: [[String]], changed: Int) {
        let rawLines = lines.enumerated().map { row, texts in
            let words = texts.enumerated().map { i, text in
                let symbols = text.enumerated().map { j, c in
                    RawSymbol(text: String(c), confidence: 0.9,
                              rect: RawRect(left: 100 * i + 10 * j, top: 30 * row, right: 100 * i + 10 * j + 8, bottom: 30 * row + 20))
                }
                return RawWord(text: text, confidence: 0.9,
                               rect: RawRect(left: 100 * i, top: 30 * row, right: 100 * i + 10 * text.count, bottom: 30 * row + 20), symbols: symbols)
            }
            return RawLine(rect: RawRect(left: 0, top: 30 * row, right: 100 * texts.count, bottom: 30 * row + 20), words: words)
        }
        let rect = RawRect(left: 0, top: 0, right: 1000, bottom: 30 * lines.count)
        let blocks = [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: rawLines)])]
        let read = BracketPairs.read(blocks)
        let out = read.blocks[0].paragraphs[0].lines
        return (out.map { $0.words.map(\.text) }, out.map { $0.words.map { $0.symbols.map(\.text).joined() } }, read.changed)
    }

    /// The receipts' misreads: in one word, across words, and beside square brackets.
    @Test func theCurlyBracketOfAMixedPairIsMadeRound() {
        let read = Self.read([["Tax{RM)", "Amount($}"], ["{Price", "Inclusive", "Of", "GST)"], ["(872981-V}"], ["[a{b)]"]])
        #expect(read.texts == [["Tax(RM)", "Amount($)"], ["(Price", "Inclusive", "Of", "GST)"], ["(872981-V)"], ["[a(b)]"]])
        #expect(read.symbols == read.texts)
        #expect(read.changed == 5)
    }

    /// Curly pairs, round pairs, a curly bracket with no partner, and brackets of two lines,
    /// which never pair.
    @Test func matchedPairsAndLoneBracketsStay() {
        let lines = [["{x}", "f(x)", "{1", "CAS}", "(867388-U)}"], ["(a", "{b}"], ["c}"], ["{d"], ["e)"]]
        let read = Self.read(lines)
        #expect(read.texts == lines)
        #expect(read.changed == 0)
    }
}
