import Testing
@testable import OCRPageModel
@testable import OCREngine

/// The `accurate` level's split of run-together words where the page shows a space, and its
/// uneven-lighting check (both pure: no Tesseract).
@Suite struct WordSplittingTests {
    /// An LSTM word whose characters are 20 px wide boxes from `left`, with a 4-px gap between
    /// characters (tight text: no wider gap where the words meet).
    static func lstmWord(_ text: String, left: Int = 100, dictionary: Bool = false) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: left + i * 24, top: 100, right: left + i * 24 + 20, bottom: 130))
        }
        return RawWord(text: text, confidence: 0.9, rect: WordCombination.bounds(symbols.map(\.rect))!, fromDictionary: dictionary, symbols: symbols)
    }

    /// The blank runs of a line of `lstmWord`s: 4 px between characters, and `space` px where a
    /// space falls after character `i` of the word at `left` (given as the characters before it).
    static func runs(of word: RawWord, spacesAfter: Set<Int>, space: Int) -> [BlankRun] {
        (0..<(word.symbols.count - 1)).map { i in
            let right = word.symbols[i].rect.right
            return spacesAfter.contains(i) ? BlankRun(left: right - (space - 4) / 2, right: right + 4 + (space - 4) / 2)
                                           : BlankRun(left: right, right: right + 4)
        }
    }

    static let dictionary: Set<String> = ["once", "is", "too", "here", "for", "request", "to", "both"]
    static func isWord(_ text: String) -> Bool { dictionary.contains(text) }

    @Test func blankRunsHaveInkOnBothSides() {
        let inked: [Bool] = [false, false, true, true, false, true, false, false, false, true, false]
        #expect(WordGaps.blankRuns(inked, from: 100) == [BlankRun(left: 104, right: 105), BlankRun(left: 106, right: 109)])
        #expect(WordGaps.blankRuns([false, false], from: 0).isEmpty)
        #expect(WordGaps.blankRuns([], from: 0).isEmpty)
    }

    /// A run-together word is cut where the page shows a space as wide as the line's own
    /// spaces (12 px between its words), not at the 4-px letter gaps.
    @Test func aRunTogetherWordIsCutWhereThePageShowsASpace() throws {
        let word = Self.lstmWord("onceistoo8535here")
        #expect(WordSplitting.cuts(for: word) == .anywhere)
        let before = Self.lstmWord("for", left: 100 - 3 * 24 - 12), after = Self.lstmWord("both", left: word.rect.right + 12)
        let further = Self.lstmWord("to", left: after.rect.right + 12)
        let line = [before, word, after, further]
        let runs = Self.runs(of: word, spacesAfter: [3, 5, 8, 12], space: 12) + [
            BlankRun(left: before.rect.right, right: word.rect.left), BlankRun(left: word.rect.right, right: after.rect.left),
            BlankRun(left: after.rect.right, right: further.rect.left),
        ]
        let width = try #require(WordGaps.spaceWidth(in: line, runs: runs))
        let spaces = WordSplitting.spaces(in: word, runs: runs, width: width)
        #expect(spaces.count == 4)
        let pieces = try #require(WordSplitting.split(word, at: spaces, cuts: .anywhere, isWord: Self.isWord))
        #expect(pieces.map(\.text) == ["once", "is", "too", "8535", "here"])
        // Each piece has its own characters' box, and keeps the word's confidence.
        #expect(pieces[1].rect == RawRect(left: 100 + 4 * 24, top: 100, right: 100 + 5 * 24 + 20, bottom: 130))
        #expect(pieces.allSatisfy { $0.confidence == word.confidence })
        #expect(pieces[0].fromDictionary && !pieces[3].fromDictionary)
        // Letter gaps as wide as the spaces: nothing tells them apart, and letters are no words.
        let evenRuns = Self.runs(of: word, spacesAfter: Set(0..<16), space: 12) + runs.suffix(3)
        let even = WordSplitting.spaces(in: word, runs: evenRuns, width: try #require(WordGaps.spaceWidth(in: line, runs: evenRuns)))
        #expect(even.isEmpty)
        #expect(WordSplitting.split(word, at: evenRuns.map { ($0.left + $0.right) / 2 }, cuts: .anywhere, isWord: Self.isWord) == nil)
    }

    /// A "1" stands in a digit's width with blank either side, and a point keeps room around
    /// its dot: the blank beside them that lies within their own advance is no space
    /// ("NL810433941B01" stays whole where digits as far apart are cut).
    @Test func theBlankANarrowMarkCarriesIsNoSpace() {
        var word = Self.lstmWord("NL810433941B01")
        // The characters after the "4" (the sixth) set 7 px further right: an 11-px gap between
        // "4" and "3".
        for i in 6..<word.symbols.count {
            word.symbols[i].rect.left += 7
            word.symbols[i].rect.right += 7
        }
        word.rect.right += 7
        // The "1" before the "B" is 6 px wide in its 20-px cell, 7 px of blank either side, so
        // the gaps from the "9" to it and from it to the "B" are 11 px too.
        let one = word.symbols[10].rect
        word.symbols[10].rect = RawRect(left: one.left + 7, top: one.top, right: one.right - 7, bottom: one.bottom)
        let runs = (0..<(word.symbols.count - 1)).map { BlankRun(left: word.symbols[$0].rect.right, right: word.symbols[$0 + 1].rect.left) }
        #expect(runs[5].width == 11 && runs[9].width == 11 && runs[10].width == 11)
        #expect(WordSplitting.isNarrow("1") && WordSplitting.isNarrow(".") && !WordSplitting.isNarrow("B"))
        // A space of 10 px: only the gap between two digits as wide as their cells is one.
        #expect(WordSplitting.spaces(in: word, runs: runs, width: 10) == [(runs[5].left + runs[5].right) / 2])
    }

    /// A face set wide has letter gaps near a line's space: a space inside a word stands out
    /// from the word's other gaps ("INGBNL2A" in Verdana stays whole).
    @Test func aSpaceStandsOutFromTheWordsOwnGaps() {
        let word = Self.lstmWord("INGBNL2A")
        // Gaps of 7, 6, 8, 7, 8, 4, 5 px, as the 300-dpi invoice shows them, against a one-word
        // line's space of a fifth of 36 px.
        let widths = [7, 6, 8, 7, 8, 4, 5]
        let runs = widths.indices.map { i in BlankRun(left: word.symbols[i].rect.right, right: word.symbols[i].rect.right + widths[i]) }
        #expect(WordSplitting.spaces(in: word, runs: runs, width: 7.2).isEmpty)
        // Twice the others' median (7 px) stands out.
        var wider = runs
        wider[2].right = wider[2].left + 14
        #expect(WordSplitting.spaces(in: word, runs: wider, width: 7.2) == [(wider[2].left + wider[2].right) / 2])
    }

    /// Web and mail addresses and DOIs are one token whatever room their marks keep.
    @Test func addressesAreNotCut() {
        for text in ["http://www.bol.com/klantenservice", "www.tabletcenter.nl", "info@example.com", "doi:10.1088/1475-7516"] {
            #expect(WordSplitting.cuts(for: Self.lstmWord(text)) == nil, "\(text)")
        }
        #expect(WordSplitting.cuts(for: Self.lstmWord("onceistoo8535here")) == .anywhere)
    }

    /// Without two spaces of its own, a line's space is a fifth of its height (30 px: 6 px).
    @Test func aLineWithoutSpacesUsesItsHeight() {
        let word = Self.lstmWord("both59A")
        let six = Self.runs(of: word, spacesAfter: [3], space: 6), five = Self.runs(of: word, spacesAfter: [3], space: 5)
        #expect(WordGaps.spaceWidth(in: [word], runs: six) == 6)
        #expect(WordSplitting.spaces(in: word, runs: six, width: 6) == [word.symbols[3].rect.right + 2])
        #expect(WordSplitting.spaces(in: word, runs: five, width: 6).isEmpty)
        #expect(WordGaps.spaceWidth(in: [], runs: six) == nil)
    }

    /// A line of two words has one space of its own, and it bounds the line's space from below:
    /// letter gaps over a fifth of the height (a spaced face, "El Duraznillo") are no spaces,
    /// while gaps as wide as that space still are.
    @Test func aLinesOneSpaceBoundsItsSpaces() throws {
        let word = Self.lstmWord("Duraznillo", left: 100)
        let before = Self.lstmWord("El", left: 100 - 2 * 24 - 12)
        let between = BlankRun(left: before.rect.right, right: word.rect.left)  // 16 px.
        let letterGaps = Self.runs(of: word, spacesAfter: [1, 6, 7], space: 8)  // 8 px: over 30 / 5.
        let width = try #require(WordGaps.spaceWidth(in: [before, word], runs: letterGaps + [between]))
        #expect(abs(width - 0.7 * 16) < 1e-9)
        #expect(WordSplitting.spaces(in: word, runs: letterGaps, width: width).isEmpty)
        let wide = Self.runs(of: word, spacesAfter: [1], space: 12)  // 12 px: over 0.7 of 16.
        #expect(WordSplitting.spaces(in: word, runs: wide, width: width) == [(wide[1].left + wide[1].right) / 2])
    }

    /// A cut that leaves mostly implausible pieces is not taken: a name with a wide letter gap.
    @Test func aCutIntoImplausiblePiecesIsRefused() {
        let name = Self.lstmWord("Kowalczyk")
        let gap = (name.symbols[4].rect.right + name.symbols[5].rect.left) / 2
        #expect(WordSplitting.split(name, at: [gap], cuts: .anywhere, isWord: Self.isWord) == nil)
        #expect(WordSplitting.split(name, at: [], cuts: .anywhere, isWord: Self.isWord) == nil)
    }

    /// Implausible words of five or more letters and digits may be cut anywhere; a plausible
    /// word only where digits meet letters; dictionary words, numbers and short tokens of one
    /// kind are left alone.
    @Test func whereAWordMayBeCut() {
        #expect(WordSplitting.cuts(for: Self.lstmWord("requests", dictionary: true)) == nil)
        #expect(WordSplitting.cuts(for: Self.lstmWord("4/18/2010")) == nil)
        #expect(WordSplitting.cuts(for: Self.lstmWord("xq")) == nil)
        #expect(WordSplitting.cuts(for: Self.lstmWord("13A")) == .betweenDigitsAndLetters)
        #expect(WordSplitting.cuts(for: Self.lstmWord("xq7")) == .betweenDigitsAndLetters)
        #expect(WordSplitting.cuts(for: Self.lstmWord("requestto")) == .anywhere)
        #expect(WordSplitting.cuts(for: Self.lstmWord("he69C")) == .anywhere)
    }

    /// "13A" whose image shows a space between the number and the letter is "13" "A", whatever
    /// the dictionary says of "13A"; one that shows none stays whole, and a plausible word is
    /// not cut between two digits or two letters.
    @Test func aNumberAndALetterAreCutWhereThePageShowsASpace() throws {
        let word = Self.lstmWord("13A")
        let between = (word.symbols[1].rect.right + word.symbols[2].rect.left) / 2
        let pieces = try #require(WordSplitting.split(word, at: [between], cuts: .betweenDigitsAndLetters, isWord: Self.isWord))
        #expect(pieces.map(\.text) == ["13", "A"])
        #expect(WordSplitting.split(word, at: [], cuts: .betweenDigitsAndLetters, isWord: Self.isWord) == nil)
        let inNumber = (word.symbols[0].rect.right + word.symbols[1].rect.left) / 2
        #expect(WordSplitting.split(word, at: [inNumber], cuts: .betweenDigitsAndLetters, isWord: Self.isWord) == nil)
        let mm = Self.lstmWord("250mm")
        let inUnit = (mm.symbols[3].rect.right + mm.symbols[4].rect.left) / 2
        #expect(WordSplitting.split(mm, at: [inUnit], cuts: .betweenDigitsAndLetters, isWord: Self.isWord) == nil)
    }

    @Test func shortReferencesArePlausible() {
        for text in ["13A", "B12", "4B", "(7C)"] {
            #expect(WordCombination.isPlausible(Self.lstmWord(text)), "\(text)")
        }
        for text in ["13AB", "12345A", "a12", "1A2"] {
            #expect(!WordCombination.isPlausible(Self.lstmWord(text)), "\(text)")
        }
    }

    /// A page lit from one side: the text on its dark side lies on paper below the page's Otsu
    /// threshold. An evenly lit page, one whose dark paper is a corner, or one whose dark part
    /// has no text, is left alone.
    @Test func unevenLightingIsPaperDarkerThanTheGlobalThreshold() {
        func page(paper: (Int, Int) -> UInt8) -> (gray: GrayGrid, background: GrayGrid) {
            let (w, h) = (200, 100)
            var pixels = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let p = Int(paper(x, y))
                    pixels[y * w + x] = UInt8(y % 10 < 2 && x % 7 < 4 ? p * 2 / 3 : p)  // Text: two thirds as bright.
                }
            }
            let t = UnevenLighting.tile
            let background = (0..<(h / t)).flatMap { ty in (0..<(w / t)).map { tx in paper(tx * t + t / 2, ty * t + t / 2) } }
            return (GrayGrid(width: w, height: h, pixels: pixels), GrayGrid(width: w / t, height: h / t, pixels: background))
        }
        let even = page { _, _ in 230 }
        #expect(!UnevenLighting.isUneven(gray: even.gray, background: even.background))
        let sided = page { x, _ in UInt8(130 + x * 100 / 200) }  // 130 at the left edge, 230 at the right.
        #expect(UnevenLighting.isUneven(gray: sided.gray, background: sided.background))
        let corner = page { x, y in x < 20 && y < 20 ? 150 : 230 }  // One tile in fifty.
        #expect(!UnevenLighting.isUneven(gray: corner.gray, background: corner.background))
        // Dark paper without text on it (a desk around a photographed page) loses nothing.
        let desk = page { x, _ in x < 100 ? 150 : 230 }
        var blank = desk.gray
        for y in 0..<blank.height { for x in 0..<100 { blank.pixels[y * blank.width + x] = 150 } }
        #expect(!UnevenLighting.isUneven(gray: blank, background: desk.background))
    }
}
