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

    /// "Wang¹" read "Wang!", the recogniser's boxes running a letter late: its "!" boxed from the
    /// "g" on, every symbol's centre before the mark. The symbols that reach into the mark are
    /// its own, and the mark, read as no mark, is to be read again.
    @Test func aMarkWhoseBoxesRunLateIsCutByWhereTheyReach() {
        let boxes = [(0, 18), (10, 30), (22, 40), (42, 58), (60, 98)]
        let symbols = zip("Wang!", boxes).map { c, b in RawSymbol(text: String(c), confidence: 0.5, rect: RawRect(left: b.0, top: 100, right: b.1, bottom: 130)) }
        let word = RawWord(text: "Wang!", confidence: 0.5, rect: RawRect(left: 0, top: 100, right: 98, bottom: 130), symbols: symbols)
        let ink = (0..<4).map { RawRect(left: 20 * $0, top: 105, right: 20 * $0 + 18, bottom: 125) } + [RawRect(left: 84, top: 100, right: 94, bottom: 114)]
        let read = Superscripts.read(DotLeadersTests.line([word]), components: ink)
        #expect(DotLeadersTests.texts(read.blocks) == ["Wang", "!"])
        #expect(read.toRead == [Superscripts.Mark(place: WordCombination.WordPath(block: 0, paragraph: 0, line: 0, word: 1), components: 1)])
    }

    /// "Bolejko¹,²" read "ab’”": the raised comma between the figures belongs to the mark.
    @Test func aCommaBetweenRaisedFiguresIsTheMarks() {
        let word = Self.word("ab’”", 0)
        let mark = [RawRect(left: 42, top: 100, right: 50, bottom: 114), RawRect(left: 52, top: 110, right: 55, bottom: 118),
                    RawRect(left: 58, top: 100, right: 68, bottom: 114)]
        let words = Self.read(word, ink: Self.letters(word, 0..<2) + mark)
        #expect(words.map(\.text) == ["ab", "’”"])
        #expect(words.last?.rect == RawRect(left: 42, top: 100, right: 68, bottom: 118))
    }

    /// A raised "²" Tesseract read as a word of its own, "?", is to be read again; a raised "2"
    /// read as "2", and a closing quote standing apart (too small for a figure), are not.
    @Test func aRaisedWordReadAsNoMarkIsReadAgain() {
        let name = Self.word("Neumann", 0)
        let mark = RawRect(left: 150, top: 100, right: 162, bottom: 114)
        func toRead(_ text: String, _ ink: RawRect) -> [Superscripts.Mark] {
            let word = RawWord(text: text, confidence: 0.5, rect: ink, symbols: [RawSymbol(text: text, confidence: 0.5, rect: ink)])
            return Superscripts.read(DotLeadersTests.line([name, word]), components: DotLeadersTests.letters(name) + [ink]).toRead
        }
        #expect(toRead("?", mark) == [Superscripts.Mark(place: WordCombination.WordPath(block: 0, paragraph: 0, line: 0, word: 1), components: 1)])
        #expect(toRead("2", mark).isEmpty)
        #expect(toRead("”", RawRect(left: 150, top: 100, right: 162, bottom: 108)).isEmpty)
    }

    /// What a mark read again alone can be: figures, with commas between them, and footnote
    /// signs; strokes are ones only where each is a piece of the mark's ink.
    @Test func aMarksReadingIsFiguresOrFootnoteSigns() {
        for text in ["9", "10", "1,2", "*", "†", "‡‡"] { #expect(Superscripts.markText(text, components: 1) == text, "\(text)") }
        for text in ["?", "”", "°", "®", "st", ",", "1,", "a"] { #expect(Superscripts.markText(text, components: 1) == nil, "\(text)") }
        #expect(Superscripts.markText("ll", components: 2) == "11")
        #expect(Superscripts.markText("i", components: 2) == nil)
        #expect(Superscripts.markText("il", components: 1) == nil)
    }
}
