import OCRWire
import Testing
@testable import OCREngine

/// The `best` level's word-by-word combination of passes (pure: raw hierarchies in and out).
@Suite struct WordCombinationTests {
    static func word(_ text: String, _ left: Int, _ top: Int = 100, width: Int? = nil, confidence: Float = 0.9,
                     dictionary: Bool = true) -> RawWord {
        let w = width ?? text.count * 20
        return RawWord(text: text, confidence: confidence, rect: RawRect(left: left, top: top, right: left + w, bottom: top + 30),
                       fromDictionary: dictionary)
    }

    /// One block of one paragraph, one line per array of words.
    static func page(_ lines: [RawWord]...) -> [RawBlock] {
        let raw = lines.map { words in
            RawLine(confidence: 0.9, rect: WordCombination.bounds(words.map(\.rect))!, words: words)
        }
        let rect = WordCombination.bounds(raw.map(\.rect))!
        return [RawBlock(confidence: 0.9, rect: rect, type: .text, paragraphs: [RawParagraph(confidence: 0.9, rect: rect, lines: raw)])]
    }

    static func texts(_ blocks: [RawBlock]) -> [[String]] {
        blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
    }

    @Test func theMajorityReadingOfAWordWins() {
        let first = Self.page([Self.word("the", 0), Self.word("cot", 100, confidence: 0.6, dictionary: false)])
        let other = Self.page([Self.word("the", 0), Self.word("cat", 101)])
        let combined = WordCombination().combine([first, other, other])
        #expect(Self.texts(combined) == [["the", "cat"]])
        // The replacement carries the other pass's box.
        #expect(combined[0].paragraphs[0].lines[0].words[1].rect.left == 101)
    }

    @Test func aTieKeepsTheFirstPassAndItsBoxes() {
        let first = Self.page([Self.word("alpha", 0, width: 100)])
        let other = Self.page([Self.word("alpha", 4, width: 100)])
        let combined = WordCombination().combine([first, other])
        #expect(combined[0].paragraphs[0].lines[0].words[0].rect.left == 0)
        let disagree = Self.page([Self.word("alpba", 0, width: 100)])
        #expect(Self.texts(WordCombination().combine([first, disagree])) == [["alpha"]])
    }

    /// Run-together words against the same place read as separate words: one cluster, and the
    /// dictionary words beat the merged token.
    @Test func aMergedTokenLosesToTheWordsItRunsTogether() {
        let merged = Self.page([Self.word("onceistoo", 0, width: 300, confidence: 0.9, dictionary: false)])
        let split = Self.page([Self.word("once", 0, width: 90, confidence: 0.85), Self.word("is", 110, width: 40, confidence: 0.85),
                               Self.word("too", 170, width: 130, confidence: 0.85)])
        #expect(Self.texts(WordCombination().combine([merged, split, merged, split, split])) == [["once", "is", "too"]])
    }

    /// Every LSTM pass agrees on the run-together token; the legacy recogniser's words have the
    /// same characters split into dictionary words and a number: the split wins the vote it lost.
    @Test func theSameCharactersSplitIntoPlausibleWordsBeatAnAgreedRunTogetherToken() {
        let merged = Self.page([Self.word("3432twoyou", 0, width: 300, confidence: 0.92, dictionary: false)])
        let legacy = Self.page([Self.word("3432", 0, width: 90, confidence: 0.7, dictionary: false),
                                Self.word("two", 110, width: 60, confidence: 0.7), Self.word("you", 200, width: 100, confidence: 0.7)])
        #expect(Self.texts(WordCombination().combine([merged, merged, merged, merged, legacy])) == [["3432", "two", "you"]])
        // Not when the split makes no more sense than the whole: "something" stays one word.
        let whole = Self.page([Self.word("something", 0, width: 300)])
        let halves = Self.page([Self.word("some", 0, width: 130), Self.word("thing", 150, width: 150)])
        #expect(Self.texts(WordCombination().combine([whole, whole, halves])) == [["something"]])
    }

    @Test func runTogetherPagesAreThoseWithLongImplausibleWords() {
        let words = (0..<40).map { Self.word("word", $0 * 100) }
        #expect(!BestLevel.looksRunTogether(Self.page(words)))
        var merged = words
        merged[5] = Self.word("onceistoo8535here", 500, dictionary: false)
        merged[9] = Self.word("orderprogramlike", 900, dictionary: false)
        #expect(BestLevel.looksRunTogether(Self.page(merged)))
    }

    /// A confident dictionary word only one extra pass found, where the first pass saw nothing
    /// (a column its layout dropped), is kept; a doubtful one (noise read as text) is not.
    @Test func aWordOnlyOnePassSeesIsKeptOnlyWhenConfidentAndPlausible() {
        let first = Self.page([Self.word("total", 0)])
        let found = Self.page([Self.word("total", 0)], [Self.word("12.99", 0, 300, confidence: 0.93, dictionary: false)])
        let noise = Self.page([Self.word("total", 0)], [Self.word("~r'", 0, 500, confidence: 0.45, dictionary: false)])
        let combined = WordCombination().combine([first, found, noise, first, first])
        #expect(Self.texts(combined).flatMap { $0 } == ["total", "12.99"])
        // The new word is in a line of its own, in a block placed below the first.
        #expect(combined.count == 2)
        #expect(combined[1].paragraphs[0].lines[0].words[0].text == "12.99")
    }

    /// A word missing from the middle of a first-pass line goes into that line, in x order.
    @Test func aWordRecoveredInsideALineJoinsThatLine() {
        let first = Self.page([Self.word("big", 0), Self.word("dog", 200)])
        let other = Self.page([Self.word("big", 0), Self.word("red", 100), Self.word("dog", 200)])
        #expect(Self.texts(WordCombination().combine([first, other, other])) == [["big", "red", "dog"]])
    }

    /// A receipt's price far right of its item (more than three line heights away), which only
    /// the other pass read, in the same line as the item: it joins the item's line, not a
    /// block of its own below the page (where the reading order would lose it).
    @Test func aFarWordJoinsTheLineItsOwnPassReadItWith() {
        let first = Self.page([Self.word("coffee", 0)], [Self.word("tea", 0, 200)])
        let other = Self.page([Self.word("coffee", 0), Self.word("3.20", 900, confidence: 0.95, dictionary: false)],
                              [Self.word("tea", 0, 200), Self.word("2.10", 900, 200, confidence: 0.95, dictionary: false)])
        let combined = WordCombination().combine([first, other])
        #expect(Self.texts(combined) == [["coffee", "3.20"], ["tea", "2.10"]])
        #expect(combined.count == 1)
    }

    /// A word the first pass read is replaced by another reading or kept, never dropped: even a
    /// doubtful one that every other pass saw nothing at (no level loses what `accurate` reads).
    @Test func theFirstPassNeverLosesAWordToNothing() {
        let first = Self.page([Self.word("heading", 0)], [Self.word("#%", 0, 300, confidence: 0.3, dictionary: false)])
        let empty = Self.page([Self.word("heading", 0)])
        #expect(Self.texts(WordCombination().combine([first, empty, empty, empty, empty])) == [["heading"], ["#%"]])
    }

    @Test func numbersAmountsAndDatesArePlausible() {
        for text in ["12.99", "$1,250.00", "3/14/2025", "(42)", "7%"] {
            #expect(WordCombination.isPlausible(Self.word(text, 0, dictionary: false)), "\(text)")
        }
        for text in ["Left63D", "xq", "1l1l-a"] {
            #expect(!WordCombination.isPlausible(Self.word(text, 0, dictionary: false)), "\(text)")
        }
    }

    @Test func unsurePagesAreThoseWithDoubtfulOrFewWords() {
        let many = (0..<100).map { Self.word("word", $0 * 100) }
        #expect(!BestLevel.isUnsure(Self.page(many)))
        var doubtful = many
        doubtful[3].confidence = 0.5
        #expect(BestLevel.isUnsure(Self.page(doubtful)))
        #expect(BestLevel.isUnsure(Self.page(Array(many.prefix(10)))))
    }
}
