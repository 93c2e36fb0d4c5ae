import OCRPageModel
import Testing

/// An "S" read as "§", told from a real section sign by the letter after it (pure: words in and out).
@Suite struct SectionSignsTests {
    /// The line's words after `SectionSigns.read`, and how many changed; each word spelt by one
    /// symbol per character.
    static func read(_ texts: [String]) -> (texts: [String], symbols: [String], changed: Int) {
        let words = texts.enumerated().map { i, text in
            let symbols = text.enumerated().map { j, c in
                RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: 100 * i + 10 * j, top: 0, right: 100 * i + 10 * j + 8, bottom: 20))
            }
            return RawWord(text: text, confidence: 0.9, rect: RawRect(left: 100 * i, top: 0, right: 100 * i + 10 * text.count, bottom: 20), symbols: symbols)
        }
        let rect = RawRect(left: 0, top: 0, right: 100 * texts.count, bottom: 20)
        let blocks = [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: words)])])]
        let read = SectionSigns.read(blocks)
        let out = RawBlock.allWords(read.blocks)
        return (out.map(\.text), out.map { $0.symbols.map(\.text).joined() }, read.changed)
    }

    @Test func aSignBeforeALetterIsAnS() {
        let read = Self.read(["§R", "§B01", "Sushi", "§C-03,"])
        #expect(read.texts == ["SR", "SB01", "Sushi", "SC-03,"])
        #expect(read.symbols == read.texts && read.changed == 3)
    }

    /// Before a number, alone (a table's reference mark), or after a letter (a note's mark).
    @Test func aSignBeforeANumberOrAloneStays() {
        let texts = ["§", "12", "§12", "§§", "101-103", "€§00093091", "§", "=", "United", "entry§", "1.60", "§"]
        let read = Self.read(texts)
        #expect(read.texts == texts && read.changed == 0)
    }
}
