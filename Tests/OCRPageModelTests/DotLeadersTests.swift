import OCRPageModel
import Testing

/// Dot leaders and dotted empty cells read as dots, from the thresholded page's components (pure:
/// words and component boxes in).
@Suite struct DotLeadersTests {
    /// A word whose letters are 20 px wide, with a symbol each, at `left` on the line 100-130.
    static func word(_ text: String, _ left: Int, top: Int = 100, bottom: Int = 130) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            RawSymbol(text: String(c), confidence: 0.5, rect: RawRect(left: left + 20 * i, top: top, right: left + 20 * i + 18, bottom: bottom))
        }
        return RawWord(text: text, confidence: 0.5, rect: WordCombination.bounds(symbols.map(\.rect))!, symbols: symbols)
    }

    /// The ink of `word`'s letters: one 18 x 20 component each, on the baseline at 125.
    static func letters(_ word: RawWord) -> [RawRect] {
        word.symbols.map { RawRect(left: $0.rect.left, top: 105, right: $0.rect.right, bottom: 125) }
    }

    /// `count` dots 3 px square, `pitch` px apart from `left`, on the baseline.
    static func dots(_ count: Int, from left: Int, pitch: Int = 10) -> [RawRect] {
        (0..<count).map { RawRect(left: left + pitch * $0, top: 122, right: left + pitch * $0 + 3, bottom: 125) }
    }

    static func line(_ words: [RawWord]) -> [RawBlock] {
        let rect = WordCombination.bounds(words.map(\.rect))!
        let line = RawLine(confidence: 0.5, rect: rect, baseline: [rect.left, 125, rect.right, 125], words: words)
        return [RawBlock(confidence: 0.5, rect: rect, type: .text, paragraphs: [RawParagraph(confidence: 0.5, rect: rect, lines: [line])])]
    }

    static func texts(_ blocks: [RawBlock]) -> [String] {
        blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map(\.text)
    }

    /// Tesseract's reading of "Total ...... 12.5": the leader's first dots read as full stops
    /// into "Total" (their boxes on its last letter), the rest as a sliver of letters, some dots
    /// in no word. Read: the word, one leader with every dot, the number with its decimal point.
    @Test func aLeaderIsOneWordOfItsDots() {
        var total = Self.word("Total", 0)
        total.text = "Total......"
        total.symbols += (0..<6).map { _ in RawSymbol(text: ".", confidence: 0.2, rect: RawRect(left: 99, top: 100, right: 100, bottom: 130)) }
        let sliver = Self.word("ceeeceeee", 200, top: 122, bottom: 125)
        let number = Self.word("12.5", 420)
        let leader = Self.dots(30, from: 110)
        let point = RawRect(left: 460, top: 122, right: 463, bottom: 125)
        let components = Self.letters(total) + leader + Self.letters(number).filter { $0.left != 460 } + [point]
        let read = DotLeaders.read(Self.line([total, sliver, number]), components: components)
        #expect(Self.texts(read.blocks) == ["Total", String(repeating: ".", count: 30), "12.5"])
        let words = read.blocks[0].paragraphs[0].lines[0].words
        #expect(words[0].rect.right == 98 && words[1].rect == RawRect(left: 110, top: 122, right: 403, bottom: 125))
        #expect(words[1].symbols.count == 30)
        #expect(read.changed > 0)
    }

    /// Three dots standing for an empty cell, read as letters ("on"): three dots. An ellipsis
    /// after a word, a colon (its upper dot off the baseline) and a dash are left alone.
    @Test func dotsAloneAreDotsAndOtherMarksStay() {
        let cell = Self.word("on", 600, top: 120, bottom: 126)
        let etc = Self.word("etc...", 0), colon = Self.word(":", 300), dash = Self.word("-", 400)
        let components = Self.dots(3, from: 602) + Self.letters(etc).prefix(3) + Self.dots(3, from: 62, pitch: 20)
            + [RawRect(left: 302, top: 110, right: 305, bottom: 113), RawRect(left: 302, top: 122, right: 305, bottom: 125)]
            + [RawRect(left: 400, top: 114, right: 412, bottom: 117)]
        let read = DotLeaders.read(Self.line([etc, colon, dash, cell]), components: components)
        #expect(Self.texts(read.blocks) == ["etc...", ":", "-", "..."])
        #expect(read.changed == 1)
    }

    /// A dithered fax breaks a letter's bowl into specks on the baseline, a few pixels apart
    /// ("Claim" read "Cl", "im" with the "a" between): no leader, and the word stays.
    @Test func ditherSpecksAreNoLeader() {
        let claim = Self.word("Claim", 0)
        let specks = (0..<6).map { RawRect(left: 44 + 3 * $0, top: 123, right: 45 + 3 * $0, bottom: 124) }
        let components = Self.letters(claim).filter { $0.left != 40 } + specks
        let read = DotLeaders.read(Self.line([claim]), components: components)
        #expect(Self.texts(read.blocks) == ["Claim"])
        #expect(read.changed == 0)
    }

    /// A word without symbols that spell it cannot be cut: it stays, and the leader beside it
    /// is still read.
    @Test func aWordWithoutSymbolsStays() {
        var total = Self.word("Total", 0)
        total.text = "Total...."
        total.symbols = []
        total.rect.right = 140
        let components = Self.letters(Self.word("Total", 0)) + Self.dots(10, from: 110)
        let read = DotLeaders.read(Self.line([total, Self.word("12.5", 420)]), components: components)
        #expect(Self.texts(read.blocks) == ["Total....", "..........", "12.5"])
    }

    /// A transcript's "2 - - - - - - x": Tesseract reads the spaced dashes as one word of letters
    /// ("ee"). Read: each dash a word "-", halfway up the letters, between the words beside it.
    @Test func spacedDashesAreAWordEach() {
        let number = Self.word("2", 0), garbage = Self.word("ee", 60, top: 110, bottom: 118), x = Self.word("x", 500)
        // Dashes 14 x 4 px, 60 px apart, their middles 13 px above the letters' bottom at 125.
        let dashes = (0..<6).map { RawRect(left: 60 + 60 * $0, top: 110, right: 74 + 60 * $0, bottom: 114) }
        let components = Self.letters(number) + dashes + Self.letters(x)
        let read = DotLeaders.read(Self.line([number, garbage, x]), components: components)
        #expect(Self.texts(read.blocks) == ["2", "-", "-", "-", "-", "-", "-", "x"])
        #expect(read.blocks[0].paragraphs[0].lines[0].words[1].rect == dashes[0])
        // The same marks on the letters' bottom are underscores, not dashes: left as read.
        let low = dashes.map { RawRect(left: $0.left, top: 121, right: $0.right, bottom: 125) }
        let lowRead = DotLeaders.read(Self.line([number, garbage, x]), components: Self.letters(number) + low + Self.letters(x))
        #expect(Self.texts(lowRead.blocks) == ["2", "ee", "x"])
        // Three dashes are no run: left as read.
        let three = DotLeaders.read(Self.line([number, garbage, x]), components: Self.letters(number) + dashes.prefix(3) + Self.letters(x))
        #expect(Self.texts(three.blocks) == ["2", "ee", "x"])
    }

    /// The same line read by another pass: the dashes as several slivers of letters ("ee" "eee"
    /// "ee", 3 px tall), most of the line's words, the first one's box reaching over blank paper
    /// left of the first dash. The line's letter height is still its letters' (not a sliver's),
    /// so the dashes are read, and the letter over blank paper goes with them.
    @Test func spacedDashesReadAsManySliversAreAWordEach() {
        let number = Self.word("2", 0), x = Self.word("x", 500)
        let dashes = (0..<6).map { RawRect(left: 60 + 60 * $0, top: 110, right: 74 + 60 * $0, bottom: 114) }
        func sliver(_ symbols: [(Int, Int)]) -> RawWord {
            let parts = symbols.map { RawSymbol(text: "e", confidence: 0.9, rect: RawRect(left: $0.0, top: 110, right: $0.1, bottom: 113)) }
            return RawWord(text: String(repeating: "e", count: parts.count), confidence: 0.9, rect: WordCombination.bounds(parts.map(\.rect))!, symbols: parts)
        }
        let slivers = [sliver([(30, 48), (60, 134)]), sliver([(180, 194), (240, 254), (300, 314)]), sliver([(360, 374)])]
        let read = DotLeaders.read(Self.line([number] + slivers + [x]), components: Self.letters(number) + dashes + Self.letters(x))
        #expect(Self.texts(read.blocks) == ["2", "-", "-", "-", "-", "-", "-", "x"])
    }

    /// A sentence's full stops are dots between words: no leader.
    @Test func fullStopsBetweenWordsAreNoLeader() {
        let words = [Self.word("a.", 0), Self.word("b.", 60), Self.word("c.", 120), Self.word("d.", 180), Self.word("e.", 240)]
        let components = words.flatMap { [RawRect(left: $0.rect.left, top: 105, right: $0.rect.left + 18, bottom: 125),
                                          RawRect(left: $0.rect.left + 22, top: 122, right: $0.rect.left + 25, bottom: 125)] }
        let read = DotLeaders.read(Self.line(words), components: components)
        #expect(Self.texts(read.blocks) == ["a.", "b.", "c.", "d.", "e."])
        #expect(read.changed == 0)
    }

    /// The layout analysis of a blurred scan leaves a label's leader out of its line (the line
    /// ends at "Total"; the leader is in no line, or in a line read as nothing): the dots that
    /// start within a gap of the line's end are its leader, as far as the next line beside it.
    @Test func aLeaderPastTheLineEndIsTheLines() {
        let total = Self.word("Total", 0)  // 0...98
        let figure = Self.word("12.5", 350)
        let components = Self.letters(total) + Self.dots(20, from: 110) + Self.letters(figure)
        let read = DotLeaders.read(Self.line([total]) + Self.line([figure]), components: components)
        #expect(Self.texts(read.blocks) == ["Total", String(repeating: ".", count: 20), "12.5"])
        #expect(read.blocks[0].paragraphs[0].lines[0].words.count == 2)
        // A line the recogniser read nothing in (a textless word over the dots) is no bound.
        let nothing = RawWord(text: "", confidence: 0, rect: RawRect(left: 105, top: 115, right: 310, bottom: 130))
        let withNothing = DotLeaders.read(Self.line([total]) + Self.line([nothing]) + Self.line([figure]), components: components)
        #expect(Self.texts(withNothing.blocks) == ["Total", String(repeating: ".", count: 20), "", "12.5"])
    }

    /// Dots further than a gap (a letter height) past the line's end, or past the next line beside
    /// it, are not its leader.
    @Test func dotsBeyondTheLineAreNotItsLeader() {
        let total = Self.word("Total", 0)
        let far = DotLeaders.read(Self.line([total]), components: Self.letters(total) + Self.dots(20, from: 140))
        #expect(Self.texts(far.blocks) == ["Total"])
        let figure = Self.word("12.5", 100)  // a line beside "Total", right after it
        let beside = DotLeaders.read(Self.line([total]) + Self.line([figure]),
                                     components: Self.letters(total) + Self.letters(figure) + Self.dots(20, from: 190))
        #expect(Self.texts(beside.blocks) == ["Total", "12.5", String(repeating: ".", count: 20)])
    }
}
