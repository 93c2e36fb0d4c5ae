import OCRWire
import Testing
import OCRPageModel
import OCRTestSupport

/// The `best` level's word-by-word combination of passes (pure: raw hierarchies in and out).
@Suite struct WordCombinationTests {
    @Test func theMajorityReadingOfAWordWins() {
        let first = RawPages.page([RawPages.word("the", 0), RawPages.word("cot", 100, confidence: 0.6, dictionary: false)])
        let other = RawPages.page([RawPages.word("the", 0), RawPages.word("cat", 101)])
        let combined = WordCombination().combine([first, other, other])
        #expect(RawPages.texts(combined) == [["the", "cat"]])
        // The replacement carries the other pass's box.
        #expect(combined[0].paragraphs[0].lines[0].words[1].rect.left == 101)
    }

    /// A word one pass read where the first read nothing needs a confidence of 0.8; over the
    /// parts of the page around letters the first pass left unread, 0.5.
    @Test func overLostTextASoloWordNeedsLessConfidence() {
        let first = RawPages.page([RawPages.word("Item", 0)])
        func recovered(_ confidence: Float) -> [RawBlock] {
            RawPages.page([RawPages.word("Item", 0)], [RawPages.word("FG-A00019", 0, 200, confidence: confidence, dictionary: false)])
        }
        let regions = WordCombination(replacesWords: false, joinsDistantLines: true)
        let lost = WordCombination(replacesWords: false, joinsDistantLines: true, overLostText: true)
        #expect(RawPages.texts(regions.combine([first, recovered(0.65)])) == [["Item"]])
        #expect(RawPages.texts(lost.combine([first, recovered(0.65)])) == [["Item"], ["FG-A00019"]])
        #expect(RawPages.texts(lost.combine([first, recovered(0.4)])) == [["Item"]])
    }

    @Test func aTieKeepsTheFirstPassAndItsBoxes() {
        let first = RawPages.page([RawPages.word("alpha", 0, width: 100)])
        let other = RawPages.page([RawPages.word("alpha", 4, width: 100)])
        let combined = WordCombination().combine([first, other])
        #expect(combined[0].paragraphs[0].lines[0].words[0].rect.left == 0)
        let disagree = RawPages.page([RawPages.word("alpba", 0, width: 100)])
        #expect(RawPages.texts(WordCombination().combine([first, disagree])) == [["alpha"]])
    }

    /// Run-together words against the same place read as separate words: one cluster, and the
    /// dictionary words beat the merged token.
    @Test func aMergedTokenLosesToTheWordsItRunsTogether() {
        let merged = RawPages.page([RawPages.word("onceistoo", 0, width: 300, confidence: 0.9, dictionary: false)])
        let split = RawPages.page([RawPages.word("once", 0, width: 90, confidence: 0.85), RawPages.word("is", 110, width: 40, confidence: 0.85),
                               RawPages.word("too", 170, width: 130, confidence: 0.85)])
        #expect(RawPages.texts(WordCombination().combine([merged, split, merged, split, split])) == [["once", "is", "too"]])
    }

    /// Every LSTM pass agrees on the run-together token; the legacy recogniser's words have the
    /// same characters split into dictionary words and a number: the split wins the vote it lost.
    @Test func theSameCharactersSplitIntoPlausibleWordsBeatAnAgreedRunTogetherToken() {
        let merged = RawPages.page([RawPages.word("3432twoyou", 0, width: 300, confidence: 0.92, dictionary: false)])
        let legacy = RawPages.page([RawPages.word("3432", 0, width: 90, confidence: 0.7, dictionary: false),
                                RawPages.word("two", 110, width: 60, confidence: 0.7), RawPages.word("you", 200, width: 100, confidence: 0.7)])
        #expect(RawPages.texts(WordCombination().combine([merged, merged, merged, merged, legacy])) == [["3432", "two", "you"]])
        // Not when the split makes no more sense than the whole: "something" stays one word.
        let whole = RawPages.page([RawPages.word("something", 0, width: 300)])
        let halves = RawPages.page([RawPages.word("some", 0, width: 130), RawPages.word("thing", 150, width: 150)])
        #expect(RawPages.texts(WordCombination().combine([whole, whole, halves])) == [["something"]])
    }

    /// A DOI or a web address is one token: another pass that read its "doi:" or "www." as a
    /// dictionary word apart from the rest does not cut it, though the split is more plausible.
    @Test func anAddressStaysWholeAgainstItsSplitReading() {
        let whole = RawPages.page([RawPages.word("doi:10.1088/1475-7516", 0, width: 300, confidence: 0.68, dictionary: false)])
        let split = RawPages.page([RawPages.word("doi:", 0, width: 40, confidence: 0.68),
                                   RawPages.word("10.1088/1475-7516", 50, width: 250, confidence: 0.68, dictionary: false)])
        #expect(RawPages.texts(WordCombination().combine([whole, split])) == [["doi:10.1088/1475-7516"]])
        let site = RawPages.page([RawPages.word("www.example.com", 0, width: 300, confidence: 0.9, dictionary: false)])
        let cut = RawPages.page([RawPages.word("www.", 0, width: 60, confidence: 0.9), RawPages.word("example.com", 70, width: 230, confidence: 0.9, dictionary: false)])
        #expect(RawPages.texts(WordCombination().combine([site, cut])) == [["www.example.com"]])
        // Nor a surer reading that cut it.
        let sureSplit = RawPages.page([RawPages.word("doi:", 0, width: 40, confidence: 0.95),
                                       RawPages.word("10.1088/1475-7516", 50, width: 250, confidence: 0.95, dictionary: false)])
        #expect(RawPages.texts(WordCombination().combine([whole, sureSplit])) == [["doi:10.1088/1475-7516"]])
    }

    /// `best`'s passes are no independent witnesses: two unsure ones reading "Smeg," do not
    /// outvote a sure first reading of "5mcg,", where their sum would; a sure one still does.
    @Test func overBestPassesAgreeingUnsurePassesDoNotOutvoteASureFirstReading() {
        let first = RawPages.page([RawPages.word("5mcg,", 0, confidence: 0.93, dictionary: false)])
        let unsure = [0.42, 0.35].map { RawPages.page([RawPages.word("Smeg,", 0, confidence: Float($0))]) }
        #expect(RawPages.texts(WordCombination().combine([first] + unsure)) == [["Smeg,"]])
        #expect(RawPages.texts(WordCombination.overBestPasses.combine([first] + unsure)) == [["5mcg,"]])
        let doubtful = RawPages.page([RawPages.word("wlth", 0, confidence: 0.6, dictionary: false)])
        let sure = RawPages.page([RawPages.word("with", 0, confidence: 0.9)])
        #expect(RawPages.texts(WordCombination.overBestPasses.combine([doubtful, sure, doubtful])) == [["with"]])
    }

    /// Filtered passes lose small marks: "26.034.823" read "26" "034" "823", surely, by two of
    /// them, and "Inj." read "Inj". Over `best`'s passes the first reading's marks stand; other
    /// letters still win ("Catego" against "Category").
    @Test func overBestPassesTheFirstReadingsMarksStand() {
        let number = RawPages.page([RawPages.word("26.034.823", 0, width: 110, confidence: 0.92, dictionary: false)])
        let pieces = RawPages.page([RawPages.word("26", 0, width: 22, confidence: 0.96, dictionary: false),
                                    RawPages.word("034", 31, width: 35, confidence: 0.96, dictionary: false),
                                    RawPages.word("823", 75, width: 35, confidence: 0.96, dictionary: false)])
        #expect(RawPages.texts(WordCombination().combine([number, pieces, pieces])) == [["26", "034", "823"]])
        #expect(RawPages.texts(WordCombination.overBestPasses.combine([number, pieces, pieces])) == [["26.034.823"]])
        let inj = RawPages.page([RawPages.word("Inj.", 0, confidence: 0.96)])
        let bare = RawPages.page([RawPages.word("Inj", 0, confidence: 0.93)])
        #expect(RawPages.texts(WordCombination.overBestPasses.combine([inj, bare, bare])) == [["Inj."]])
        let cut = RawPages.page([RawPages.word("Catego", 0, confidence: 0.69, dictionary: false)])
        let whole = RawPages.page([RawPages.word("Category", 0, confidence: 0.96)])
        #expect(RawPages.texts(WordCombination.overBestPasses.combine([cut, cut, whole])) == [["Category"]])
    }

    /// A confident dictionary word only one extra pass found, where the first pass saw nothing
    /// (a column its layout dropped), is kept; a doubtful one (noise read as text) is not.
    @Test func aWordOnlyOnePassSeesIsKeptOnlyWhenConfidentAndPlausible() {
        let first = RawPages.page([RawPages.word("total", 0)])
        let found = RawPages.page([RawPages.word("total", 0)], [RawPages.word("12.99", 0, 300, confidence: 0.93, dictionary: false)])
        let noise = RawPages.page([RawPages.word("total", 0)], [RawPages.word("~r'", 0, 500, confidence: 0.45, dictionary: false)])
        let combined = WordCombination().combine([first, found, noise, first, first])
        #expect(RawPages.texts(combined).flatMap { $0 } == ["total", "12.99"])
        // The new word is in a line of its own, in a block placed below the first.
        #expect(combined.count == 2)
        #expect(combined[1].paragraphs[0].lines[0].words[0].text == "12.99")
    }

    /// A word missing from the middle of a first-pass line goes into that line, in x order.
    /// Without `addsWords` (numbers read again alone) the other passes only replace words the
    /// first read: the same confident new word the default keeps is dropped.
    @Test func withoutAddingWordsOnlyReplacementsAreKept() {
        let first = RawPages.page([RawPages.word("total", 0), RawPages.word("12,5", 200, confidence: 0.3)])
        let other = RawPages.page([RawPages.word("total", 0), RawPages.word("12.50", 200, confidence: 0.96)],
                                  [RawPages.word("12.99", 0, 300, confidence: 0.93, dictionary: false)])
        #expect(RawPages.texts(WordCombination().combine([first, other])).flatMap { $0 } == ["total", "12.50", "12.99"])
        var replacing = WordCombination()
        replacing.addsWords = false
        #expect(RawPages.texts(replacing.combine([first, other])).flatMap { $0 } == ["total", "12.50"])
    }

    @Test func aWordRecoveredInsideALineJoinsThatLine() {
        let first = RawPages.page([RawPages.word("big", 0), RawPages.word("dog", 200)])
        let other = RawPages.page([RawPages.word("big", 0), RawPages.word("red", 100), RawPages.word("dog", 200)])
        #expect(RawPages.texts(WordCombination().combine([first, other, other])) == [["big", "red", "dog"]])
    }

    /// A receipt's price far right of its item (more than three line heights away), which only
    /// the other pass read, in the same line as the item: it joins the item's line, not a
    /// block of its own below the page (where the reading order would lose it).
    @Test func aFarWordJoinsTheLineItsOwnPassReadItWith() {
        let first = RawPages.page([RawPages.word("coffee", 0)], [RawPages.word("tea", 0, 200)])
        let other = RawPages.page([RawPages.word("coffee", 0), RawPages.word("3.20", 900, confidence: 0.95, dictionary: false)],
                              [RawPages.word("tea", 0, 200), RawPages.word("2.10", 900, 200, confidence: 0.95, dictionary: false)])
        let combined = WordCombination().combine([first, other])
        #expect(RawPages.texts(combined) == [["coffee", "3.20"], ["tea", "2.10"]])
        #expect(combined.count == 1)
    }

    /// Where the first pass read nothing, two passes each won some of a line's words (a shaded
    /// footnote row read again): they make one line, left to right, not one pass's words above
    /// the other's; a block only one pass read elsewhere stays a block of its own.
    @Test func wordsTwoPassesWonOnOneLineMakeOneLine() {
        let heading = RawPages.page([RawPages.word("heading", 0, 0)])
        let a = heading + RawPages.page([RawPages.word("given", 0, 500), RawPages.word("mi1k", 150, 500, confidence: 0.5, dictionary: false)])
            + RawPages.page([RawPages.word("notes", 2000, 900)])
        let b = heading + RawPages.page([RawPages.word("giyen", 0, 500, confidence: 0.5, dictionary: false), RawPages.word("milk", 150, 500)])
        let combined = WordCombination(replacesWords: false, joinsDistantLines: true).combine([heading, a, b])
        #expect(RawPages.texts(combined) == [["heading"], ["given", "milk"], ["notes"]])
        #expect(combined.count == 3)
    }

    /// A word the first pass read is replaced by another reading or kept, never dropped: even a
    /// doubtful one that every other pass saw nothing at (no level loses what `accurate` reads).
    @Test func theFirstPassNeverLosesAWordToNothing() {
        let first = RawPages.page([RawPages.word("heading", 0)], [RawPages.word("#%", 0, 300, confidence: 0.3, dictionary: false)])
        let empty = RawPages.page([RawPages.word("heading", 0)])
        #expect(RawPages.texts(WordCombination().combine([first, empty, empty, empty, empty])) == [["heading"], ["#%"]])
    }

    @Test func numbersAmountsAndDatesArePlausible() {
        for text in ["12.99", "$1,250.00", "3/14/2025", "(42)", "7%"] {
            #expect(WordCombination.isPlausible(RawPages.word(text, 0, dictionary: false)), "\(text)")
        }
        for text in ["Left63D", "xq", "1l1l-a"] {
            #expect(!WordCombination.isPlausible(RawPages.word(text, 0, dictionary: false)), "\(text)")
        }
    }
}
