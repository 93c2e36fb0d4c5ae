import OCRPageModel
import Testing

/// A footnote's raised mark read into its word, cut apart from it by the thresholded page's ink
/// (pure: words and component boxes in). The words' letters are 20 px apart on the line 100-130,
/// their ink 105-125 on the baseline at 125 (``DotLeadersTests``).
@Suite struct SuperscriptsTests {
    static func word(_ text: String, _ left: Int) -> RawWord { DotLeadersTests.word(text, left) }

    static func read(_ word: RawWord, ink: [RawRect]) -> [RawWord] {
        Superscripts.read(DotLeadersTests.line([word]), components: ink).blocks[0].paragraphs[0].lines[0].words
    }

    /// The letters' ink of `word`'s symbols at `indices`.
    static func letters(_ word: RawWord, _ indices: Range<Int>) -> [RawRect] {
        Array(DotLeadersTests.letters(word)[indices])
    }

    /// "ARI¹⁰" read "ARI?": the mark, half a letter tall and clear of the baseline, is a word of
    /// its own, each part boxed by its ink.
    @Test func aRaisedMarkAtTheEndIsAWordOfItsOwn() {
        let word = Self.word("ARI?", 0)
        let mark = RawRect(left: 62, top: 100, right: 74, bottom: 114)
        let words = Self.read(word, ink: Self.letters(word, 0..<3) + [mark])
        #expect(words.map(\.text) == ["ARI", "?"])
        #expect(words.map(\.rect) == [RawRect(left: 0, top: 105, right: 58, bottom: 125), mark])
    }

    /// "¹¹Oral" opening a footnote, read "“Oral": the mark first, then the word.
    @Test func aRaisedMarkAtTheStartIsAWordOfItsOwn() {
        let word = Self.word("“Oral", 0)
        let mark = RawRect(left: 2, top: 100, right: 14, bottom: 114)
        #expect(Self.read(word, ink: [mark] + Self.letters(word, 1..<5)).map(\.text) == ["“", "Oral"])
    }

    /// A closing quote (too small), an asterisk read as one (the word's own character), a mark
    /// that is no smaller than the word's letters, and a word on the baseline throughout stay whole.
    @Test func otherMarksStayInTheirWords() {
        let quoted = Self.word("word”", 0)
        #expect(Self.read(quoted, ink: Self.letters(quoted, 0..<4) + [RawRect(left: 82, top: 100, right: 90, bottom: 108)]).map(\.text) == ["word”"])
        let starred = Self.word("*Refers", 0)
        #expect(Self.read(starred, ink: [RawRect(left: 2, top: 100, right: 16, bottom: 114)] + Self.letters(starred, 1..<7)).map(\.text)
                == ["*Refers"])
        let tall = Self.word("ab?", 0)  // the word's own ink only 12 px tall: a 14-px mark is no smaller
        let short = (0..<2).map { RawRect(left: 20 * $0, top: 113, right: 20 * $0 + 18, bottom: 125) }
        #expect(Self.read(tall, ink: short + [RawRect(left: 42, top: 100, right: 54, bottom: 114)]).map(\.text) == ["ab?"])
        let plain = Self.word("12.5", 0)
        #expect(Self.read(plain, ink: DotLeadersTests.letters(plain)).map(\.text) == ["12.5"])
    }
}
