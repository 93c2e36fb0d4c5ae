import OCRPageModel
import Testing

/// Capitals as small as the line's lower-case letters read in lower case (pure: symbols in).
@Suite struct LetterCaseTests {
    /// A word of symbols 14 px wide on a line whose baseline is at 130: lower-case letters 17 px
    /// tall, ascenders and capitals 23 px, `small` the indices of the letters drawn small.
    static func word(_ text: String, _ left: Int, small: Set<Int>) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            let tall = !small.contains(i)
            return RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: left + 16 * i, top: tall ? 107 : 113, right: left + 16 * i + 14, bottom: 130))
        }
        return RawWord(text: text, confidence: 0.9, rect: WordCombination.bounds(symbols.map(\.rect))!, symbols: symbols)
    }

    static func line(_ words: [RawWord]) -> [RawBlock] {
        let rect = WordCombination.bounds(words.map(\.rect))!
        return [RawBlock(confidence: 0.9, rect: rect, type: .text, paragraphs: [RawParagraph(confidence: 0.9, rect: rect, lines: [
            RawLine(confidence: 0.9, rect: rect, baseline: [rect.left, 130, rect.right, 130], words: words)])])]
    }

    static func texts(_ blocks: [RawBlock]) -> [String] {
        blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map(\.text)
    }

    /// "Children Of diarrhoea With COSt": the "O", "W", "C" and "S" are as small as the "e"s: of,
    /// with, cost. "Children" starting the line keeps its capital, as tall as the "h".
    /// "SMOkeleSS" would come out "sMokeless" (an "M" is no doubtful letter) and "JOHN" in small
    /// capitals "JoHN": both stay as read.
    @Test func smallCapitalsOfShapesAlikeAreLowerCase() {
        let words = [Self.word("Children", 0, small: [5, 6, 7]), Self.word("Of", 200, small: [0]),
                     Self.word("diarrhoea", 300, small: [2, 3, 4, 6, 7, 8]), Self.word("With", 500, small: [0]),
                     Self.word("COSt", 600, small: [0, 1, 2]), Self.word("SMOkeleSS", 700, small: [0, 1, 2, 4, 6, 7, 8]),
                     Self.word("JOHN", 900, small: [1, 2, 3])]
        let read = LetterCase.read(Self.line(words))
        #expect(Self.texts(read.blocks) == ["Children", "of", "diarrhoea", "with", "cost", "SMOkeleSS", "JOHN"])
        #expect(read.changed == 3)
    }

    /// Never the other way: a small letter whose box is tall (a second reading's box may span
    /// its word) stays small; a line of capitals only has no x-height to go by.
    @Test func tallBoxesAndLinesOfCapitalsChangeNothing() {
        let words = [Self.word("of", 0, small: []), Self.word("area", 100, small: [0, 1, 2, 3])]
        #expect(Self.texts(LetterCase.read(Self.line(words)).blocks) == ["of", "area"])
        let capitals = [Self.word("TOTAL", 0, small: [0, 1, 2, 3, 4]), Self.word("COST", 200, small: [0, 1, 2, 3])]
        #expect(LetterCase.read(Self.line(capitals)).changed == 0)
    }
}
