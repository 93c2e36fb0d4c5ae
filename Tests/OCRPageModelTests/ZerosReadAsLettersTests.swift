import OCRPageModel
import Testing

/// A lone zero read as the letter "o" among numbers (pure: words in, words out).
@Suite struct ZerosReadAsLettersTests {
    /// A page of one line of `texts`, each word 30 px wide, 40 px apart.
    static func line(_ texts: [String]) -> [RawBlock] {
        let words = texts.enumerated().map { i, text in
            RawWord(text: text, confidence: 0.6, rect: RawRect(left: 40 * i, top: 0, right: 40 * i + 30, bottom: 20))
        }
        let rect = RawRect(left: 0, top: 0, right: 40 * texts.count, bottom: 20)
        return [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: words)])])]
    }

    static func texts(_ blocks: [RawBlock]) -> [String] { RawBlock.allWords(blocks).map(\.text) }

    @Test func aLetterOAmongFiguresIsAZero() {
        let read = ZerosReadAsLetters.read(Self.line(["Iowa", "8,785", "267", "o", "4,596", "O", "27", "4"]))
        #expect(Self.texts(read.blocks) == ["Iowa", "8,785", "267", "0", "4,596", "0", "27", "4"])
        #expect(read.changed == 2)
    }

    @Test func anOAmongWordsOrTooFewFiguresStays() {
        for texts in [["Blood", "group", "O", "positive", "12"],   // among words
                      ["Type", "O", "12", "14"],                  // three others, one a word: 2 of 3 numbers
                      ["O", "12", "14"],                          // two others only
                      ["Zoo", "12", "14", "16", "18"]] {          // no lone "o"
            let read = ZerosReadAsLetters.read(Self.line(texts))
            #expect(Self.texts(read.blocks) == texts)
            #expect(read.changed == 0)
        }
    }
}
