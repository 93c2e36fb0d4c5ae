import OCRPageModel
import Testing

/// One word read twice over itself, made one (pure: blocks in, blocks out). Words are boxed as
/// ``DotLeadersTests`` boxes them: letters 20 px apart on the line 100-130.
@Suite struct OverlappingWordsTests {
    /// `word` moved down `dy` pixels (a second line over the first).
    static func lowered(_ word: RawWord, _ dy: Int) -> RawWord {
        var word = word
        word.rect = RawRect(left: word.rect.left, top: word.rect.top + dy, right: word.rect.right, bottom: word.rect.bottom + dy)
        word.symbols = word.symbols.map { RawSymbol(text: $0.text, confidence: $0.confidence, rect: RawRect(left: $0.rect.left, top: $0.rect.top + dy, right: $0.rect.right, bottom: $0.rect.bottom + dy)) }
        return word
    }

    /// Two lines of one block, each of the given words.
    static func lines(_ first: [RawWord], _ second: [RawWord]) -> [RawBlock] {
        let one = DotLeadersTests.line(first)[0].paragraphs[0].lines[0], two = DotLeadersTests.line(second)[0].paragraphs[0].lines[0]
        let rect = WordCombination.bounds([one.rect, two.rect])!
        return [RawBlock(confidence: 0.5, rect: rect, type: .text, paragraphs: [RawParagraph(confidence: 0.5, rect: rect, lines: [one, two])])]
    }

    /// "Category" read "Categor" on one line and "gory" on another over it (the dev half's
    /// `medicine` table, plain `tesseract` too): one word, "Category", boxed over both, its
    /// symbols spelling it; the line left empty goes.
    @Test func aWordsEndReadAgainOnALineOverItIsJoinedToIt() throws {
        let start = DotLeadersTests.word("Categor", 0), end = Self.lowered(DotLeadersTests.word("gory", 80), 6)
        let read = OverlappingWords.read(Self.lines([start], [end]))
        #expect(read.changed == 1)
        #expect(DotLeadersTests.texts(read.blocks) == ["Category"])
        let word = try #require(read.blocks.first?.paragraphs.first?.lines.first?.words.first)
        #expect(word.rect == RawRect(left: 0, top: 100, right: 158, bottom: 136))
        #expect(word.symbols.map(\.text).joined() == "Category")
        #expect(read.blocks[0].paragraphs[0].lines.count == 1)
    }

    /// The same word twice keeps the surer reading; a word inside a longer one read over it
    /// ("Hydrochlorid", "Hydrochloride") keeps the longer.
    @Test func aWordReadTwiceIsKeptOnce() {
        var sure = DotLeadersTests.word("Oint", 0)
        sure.confidence = 0.9
        #expect(DotLeadersTests.texts(OverlappingWords.read(Self.lines([DotLeadersTests.word("Oint", 4)], [Self.lowered(sure, 4)])).blocks) == ["Oint"])
        #expect(OverlappingWords.read(Self.lines([DotLeadersTests.word("Oint", 4)], [Self.lowered(sure, 4)])).blocks[0]
            .paragraphs[0].lines.flatMap(\.words).first?.confidence == 0.9)
        let short = DotLeadersTests.word("Hydrochlorid", 0), long = Self.lowered(DotLeadersTests.word("Hydrochloride", 10), 4)
        #expect(DotLeadersTests.texts(OverlappingWords.read(Self.lines([short], [long])).blocks) == ["Hydrochloride"])
    }

    /// Words that overlap but are no word read twice, words side by side or a line apart, and a
    /// short word over a long one that holds its letters stay as they are.
    @Test func otherWordsStay() {
        let texts = { (a: RawWord, b: RawWord) in DotLeadersTests.texts(OverlappingWords.read(Self.lines([a], [b])).blocks) }
        #expect(texts(DotLeadersTests.word("Packin", 0), Self.lowered(DotLeadersTests.word("8", 100), 4)) == ["Packin", "8"])
        #expect(texts(DotLeadersTests.word("Oint", 0), Self.lowered(DotLeadersTests.word("ink", 20), 4)) == ["Oint", "ink"])
        #expect(texts(DotLeadersTests.word("Category", 0), DotLeadersTests.word("gory", 200)) == ["Category", "gory"])
        #expect(texts(DotLeadersTests.word("Category", 0), Self.lowered(DotLeadersTests.word("gory", 80), 40)) == ["Category", "gory"])
        // A short word over a long one that holds its letters ("at" over "maltreater", a gray 120-dpi scan).
        #expect(texts(DotLeadersTests.word("maltreater", 0), Self.lowered(DotLeadersTests.word("at", 60), 4)) == ["maltreater", "at"])
    }
}
