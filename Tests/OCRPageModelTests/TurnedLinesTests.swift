import OCRWire
import Testing
@testable import OCRPageModel
import OCRTestSupport

/// The guard for columns of short numbers that the layout analysis read turned on their side
/// (pure: lines with baselines in, lines out).
@Suite struct TurnedLinesTests {
    static func rect(_ left: Int, _ top: Int, _ width: Int, _ height: Int) -> RawRect {
        RawRect(left: left, top: top, right: left + width, bottom: top + height)
    }

    /// A line across the page at `top`: baseline left to right.
    static func across(_ text: String, top: Int, confidence: Float = 0.95) -> RawLine {
        let box = rect(100, top, 400, 30)
        return RawLine(confidence: confidence, rect: box, baseline: [100, top + 28, 500, top + 28],
                       words: [RawWord(text: text, confidence: confidence, rect: box)])
    }

    /// A line read up the page at `left` (baseline bottom to top), as Tesseract reports a
    /// column of digits it took for vertical text.
    static func turned(_ text: String, left: Int, confidence: Float) -> RawLine {
        let box = rect(left, 100, 32, 900)
        return RawLine(confidence: confidence, rect: box, baseline: [left + 28, 1000, left + 28, 100],
                       words: [RawWord(text: text, confidence: confidence, rect: box)])
    }

    static func page(_ lines: [RawLine]) -> [RawBlock] {
        lines.map { line in
            RawBlock(confidence: line.confidence, rect: line.rect, type: .text,
                     paragraphs: [RawParagraph(confidence: line.confidence, rect: line.rect, lines: [line])])
        }
    }

    static let rows = (0..<16).map { across("Row\($0)", top: 100 + 60 * $0) }

    @Test func lowConfidenceTurnedLinesAmongRowsAreMisread() {
        let columns = [Self.turned("PrPrPWOODdOrRr", left: 600, confidence: 0.1), Self.turned("OONNODOrFR", left: 800, confidence: 0.3)]
        let found = TurnedLines.misread(in: Self.page(Self.rows + columns))
        #expect(found.map(\.rect) == columns.map(\.rect))
    }

    /// A label set vertically on purpose is read with good confidence: kept.
    @Test func aConfidentVerticalLabelIsKept() {
        let label = Self.turned("arXiv:2206.01062v1", left: 20, confidence: 0.93)
        #expect(TurnedLines.misread(in: Self.page(Self.rows + [label])).isEmpty)
    }

    /// A page whose lines mostly run down it is a turned page (orientation's business), not
    /// a table's columns.
    @Test func aPageOfTurnedLinesIsNotMisread() {
        let columns = (0..<5).map { Self.turned("garbled", left: 100 + 50 * $0, confidence: 0.2) }
        #expect(TurnedLines.misread(in: Self.page(Array(Self.rows.prefix(3)) + columns)).isEmpty)
    }

    @Test func removingTakesOutOnlyThoseLinesAndTheBlocksTheyEmpty() {
        let column = Self.turned("PrPrPWOOD", left: 600, confidence: 0.1)
        let image = RawBlock(confidence: 0, rect: Self.rect(0, 2000, 500, 500), type: .image)
        let kept = TurnedLines.removing([column], from: Self.page(Self.rows + [column]) + [image])
        #expect(kept.count == Self.rows.count + 1)
        #expect(kept.last?.type == .image)
        #expect(!kept.flatMap(\.paragraphs).flatMap(\.lines).contains { $0.rect == column.rect })
    }

    /// The parts of the page to read again are the turned lines' own, in letter-sized pieces
    /// (a 32 px wide line 900 px tall: 29 squares), so that LostRegions pads them by a letter.
    @Test func letterBoxesCoverTheLineInSquaresOfItsWidth() throws {
        let line = Self.turned("x", left: 600, confidence: 0.1)
        let boxes = TurnedLines.letterBoxes([line])
        #expect(boxes.count == 29)
        #expect(boxes.allSatisfy { $0.width == 32 && $0.height <= 32 })
        #expect(boxes.first?.top == line.rect.top && boxes.last?.bottom == line.rect.bottom)
        let regions = try #require(LostRegions.regions(boxes, width: 2550, height: 3300))
        #expect(regions.count == 1 && regions[0].left == 600 - 32 && regions[0].top == 100 - 32)
    }
}

/// How the readings of a turned column are combined in (WordCombination over misread text).
@Suite struct MisreadTextCombinationTests {
    /// Over a column taken out as misread, a one-digit number read once with fair confidence is
    /// added to the row it lies on; elsewhere it is texture and is not.
    @Test func oneDigitNumbersJoinTheirRowsOverMisreadText() {
        let rows = RawPages.page([RawPages.word("Arabic", 0)])
        let column = RawPages.page([RawPages.word("0", 400, confidence: 0.6, dictionary: false)])
        #expect(RawPages.texts(WordCombination(replacesWords: false, joinsDistantLines: true, overKnownLetters: true).combine([rows, column]))
                == [["Arabic", "0"]])
        #expect(RawPages.texts(WordCombination(replacesWords: false, joinsDistantLines: true).combine([rows, column])) == [["Arabic"]])
    }

    /// A column of checkboxes is read turned too, and again as "L]" and "Xx]": not numbers nor
    /// dictionary words, so not added, however confident.
    @Test func checkboxesReadAsLettersAreNotAdded() {
        let rows = RawPages.page([RawPages.word("Screening", 200)])
        let boxes = RawPages.page([RawPages.word("Xx]", 60, confidence: 0.85, dictionary: false)])
        #expect(RawPages.texts(WordCombination(replacesWords: false, joinsDistantLines: true, overKnownLetters: true).combine([rows, boxes]))
                == [["Screening"]])
    }
}

/// A page lying on its side, told from its layout analysis (pure: lines with baselines in).
@Suite struct SidewaysPageTests {
    typealias Lines = TurnedLinesTests

    /// Most of the text runs down the page: sideways, whatever the few lines across it.
    @Test func aPageWhoseTextRunsDownItIsSideways() {
        let columns = (0..<5).map { Lines.turned("garbled", left: 100 + 50 * $0, confidence: 0.2) }
        #expect(SidewaysPage.isSideways(Lines.page(Array(Lines.rows.prefix(3)) + columns)))
    }

    /// A table's columns read turned, a margin stamp: a few lines down the page beside many
    /// across it leave the page upright (TurnedLines' business).
    @Test func aFewTurnedLinesAmongRowsLeaveThePageUpright() {
        let columns = (0..<2).map { Lines.turned("PrPrPWOOD", left: 600 + 200 * $0, confidence: 0.1) }
        #expect(!SidewaysPage.isSideways(Lines.page(Lines.rows + columns)))
        #expect(!SidewaysPage.isSideways(Lines.page(Lines.rows)))
        #expect(!SidewaysPage.isSideways([]))
    }

    /// Two long lines down an otherwise empty page are too little to turn it for.
    @Test func fewerThanThreeTurnedLinesNeverTurnAPage() {
        let columns = (0..<2).map { Lines.turned("Survey", left: 100 + 50 * $0, confidence: 0.9) }
        #expect(!SidewaysPage.isSideways(Lines.page(columns)))
        #expect(SidewaysPage.isSideways(Lines.page(columns + [Lines.turned("Survey", left: 300, confidence: 0.9)])))
    }

    static func words(_ texts: [(String, Bool)]) -> [RawWord] {
        texts.map { RawWord(text: $0.0, confidence: 0.9, rect: Lines.rect(0, 0, 10, 10), fromDictionary: $0.1) }
    }

    /// Read upside down, a page gives many short words that are no words; its digits are as
    /// confident as upright ones and do not count.
    @Test func theWayWhoseWordsAreMoreOftenDictionaryWordsIsUpright() {
        let upright = Self.words([("Rate", true), ("of", true), ("Accidental", true), ("Deaths", true), ("Suicides", true), ("Ponulation", false), ("1967", false), ("4999", false)])
        let upsideDown = Self.words([("OTT", false), ("GpvSeT", false), ("rans", true), ("ewe", true), ("rancid", true), ("ZBGVEE", false),
                                     ("veret", false), ("9986", false), ("60vesZ", false), ("soot", true)])
        #expect(SidewaysPage.dictionaryShare(upright) > 0.6 && SidewaysPage.dictionaryShare(upsideDown) < 0.5)
        #expect(SidewaysPage.uprightingTurns(clockwise: upright, counterclockwise: upsideDown) == 1)
        #expect(SidewaysPage.uprightingTurns(clockwise: upsideDown, counterclockwise: upright) == 3)
        // Digits alone, or nothing read: no way to tell, no turn.
        let digits = Self.words([("1967", false), ("126762", false)])
        #expect(SidewaysPage.uprightingTurns(clockwise: digits, counterclockwise: []) == nil)
    }

    /// A photo (a circuit board, its pins labelled down it) read either way is garbage read
    /// with low confidence: not turned, whichever way has a chance dictionary word more.
    @Test func aReadingWithoutConfidenceTurnsNothing() {
        var unsure = Self.words([("rela", false), ("ew", false), ("PAL", true), ("vas", false), ("Pent", true)])
        for i in unsure.indices { unsure[i].confidence = 0.35 }
        #expect(!SidewaysPage.isConvincing(unsure))
        #expect(SidewaysPage.uprightingTurns(clockwise: unsure, counterclockwise: Self.words([("mss", false)])) == nil)
    }

    /// The strip read turned first is the three tenths of the page's width holding the most
    /// of the layout's word area (the lines run down the page: tall boxes); it stays inside
    /// the page at its right edge, and there is none without boxes.
    @Test func theStripReadTurnedFirstHoldsTheMostText() {
        func box(left: Int, width: Int = 20, height: Int) -> RawWord {
            RawWord(text: "", confidence: 0, rect: Lines.rect(left, 50, width, height))
        }
        let boxes = [box(left: 10, height: 300), box(left: 500, height: 900), box(left: 560, height: 800), box(left: 700, height: 900),
                     box(left: 900, height: 100)]
        #expect(SidewaysPage.strip(of: boxes, pageWidth: 1000) == 500..<800)
        #expect(SidewaysPage.strip(of: [box(left: 950, width: 40, height: 500)], pageWidth: 1000) == 700..<1000)
        #expect(SidewaysPage.strip(of: [], pageWidth: 1000) == nil)
    }

    /// A reading decides the turn alone when it reads as upright text: convincing and half its
    /// letters or more in dictionary words; text upside down, a table of figures, or words
    /// read unsurely do not.
    @Test func onlyAReadingOfUprightTextDecidesAlone() {
        let prose = Self.words([("Rate", true), ("of", true), ("Accidental", true), ("Deaths", true), ("Ponulation", false)])
        let upsideDown = Self.words([("OTT", false), ("GpvSeT", false), ("rans", true), ("ewe", true), ("ZBGVEE", false)])
        #expect(SidewaysPage.readsUpright(prose))
        #expect(!SidewaysPage.readsUpright(upsideDown))
        #expect(!SidewaysPage.readsUpright(Self.words([("1967", false), ("126762", false)])))
        #expect(!SidewaysPage.readsUpright(prose.map { var word = $0; word.confidence = 0.5; return word }))
        #expect(!SidewaysPage.readsUpright([]))
    }

    /// OSD's clockwise degrees to the turns that undo them, a quarter either way only.
    @Test func onlyAQuarterTurnEitherWayIsTaken() {
        #expect(SidewaysPage.uprightingTurns(osdDegrees: 90) == 3)
        #expect(SidewaysPage.uprightingTurns(osdDegrees: 270) == 1)
        #expect(SidewaysPage.uprightingTurns(osdDegrees: 0) == nil)
        #expect(SidewaysPage.uprightingTurns(osdDegrees: 180) == nil)
    }
}

/// A reading doubtful enough to ask OSD whether the page is upside down (pure: words in).
@Suite struct UpsideDownPageTests {
    static func page(_ texts: [(String, Bool)]) -> [RawBlock] {
        TurnedLinesTests.page([RawLine(rect: TurnedLinesTests.rect(0, 0, 100, 10), words: SidewaysPageTests.words(texts))])
    }

    static let garbage = page(Array(repeating: [("OTT", false), ("GpvSeT", false), ("rans", true), ("ZBGVEE", false), ("veret", false)], count: 3).flatMap { $0 })
    static let prose = page(Array(repeating: [("The", true), ("committee", true), ("met", true), ("on", true), ("Tuesday", true)], count: 3).flatMap { $0 })

    @Test func fewDictionaryWordsReadWithLowConfidenceAreDoubtful() {
        #expect(UpsideDownPage.isDoubtful(Self.garbage, meanConfidence: 0.45))
        #expect(UpsideDownPage.dictionaryShare(Self.garbage) < UpsideDownPage.dictionaryShare(Self.prose))
    }

    /// The reading turned is kept only when it is confident and more often in the dictionary.
    @Test func theTurnedReadingIsKeptOnlyWhenConfidentAndWordier() {
        #expect(UpsideDownPage.keepsTurned(Self.prose, confidence: 0.9, over: Self.garbage))
        #expect(!UpsideDownPage.keepsTurned(Self.prose, confidence: 0.4, over: Self.garbage))
        #expect(!UpsideDownPage.keepsTurned(Self.garbage, confidence: 0.9, over: Self.prose))
    }

    /// A confident reading, words from the dictionary, or too few letters to judge: not asked.
    @Test func confidentOrWordyOrShortReadingsAreNot() {
        #expect(!UpsideDownPage.isDoubtful(Self.garbage, meanConfidence: 0.8))
        #expect(!UpsideDownPage.isDoubtful(Self.prose, meanConfidence: 0.45))
        #expect(!UpsideDownPage.isDoubtful(Self.page([("OTT", false), ("GpvSeT", false), ("1967", false)]), meanConfidence: 0.3))
    }

    /// Read turned unless OSD is sure of another orientation (it said "upright" with
    /// confidence 0.6 of a page upside down).
    @Test func unlessOSDIsSureOfAnotherWayAPageMayBeUpsideDown() {
        #expect(UpsideDownPage.mayBeUpsideDown(osd: nil))
        #expect(UpsideDownPage.mayBeUpsideDown(osd: (180, 9)))
        #expect(UpsideDownPage.mayBeUpsideDown(osd: (0, 0.58)))
        #expect(!UpsideDownPage.mayBeUpsideDown(osd: (0, 6)))
        #expect(!UpsideDownPage.mayBeUpsideDown(osd: (90, 12)))
    }

    /// Where OSD said upside down the page is read turned whole; otherwise its band first.
    @Test func onlyOSDsUpsideDownSkipsTheBand() {
        #expect(!UpsideDownPage.checksBand(osd: (180, 0.4)))
        #expect(UpsideDownPage.checksBand(osd: (0, 2.5)))
        #expect(UpsideDownPage.checksBand(osd: (90, 1)))
        #expect(UpsideDownPage.checksBand(osd: nil))
    }

    /// The band read turned is the ``UpsideDownPage/bandShare`` (0.15) of the page's height
    /// holding the most letters of the first reading (digits and punctuation do not count); none
    /// when no word has a letter.
    @Test func theBandReadTurnedHoldsTheMostLetters() throws {
        func word(_ text: String, top: Int) -> RawWord {
            RawWord(text: text, confidence: 0.4, rect: TurnedLinesTests.rect(10, top, 190, 20))
        }
        let words = [word("OTT", top: 50), word("12345678", top: 400), word("GpvSeT", top: 600), word("ewe", top: 650),
                     word("rans", top: 700), word("Zq", top: 950)]
        let band = try #require(UpsideDownPage.band(of: words, pageHeight: 1000))
        #expect(band == 600..<750)
        #expect(UpsideDownPage.words(words, in: band).map(\.text) == ["GpvSeT", "ewe", "rans"])
        // Near the foot of the page the band keeps its height, inside the page.
        #expect(UpsideDownPage.band(of: [word("OTT", top: 950)], pageHeight: 1000) == 850..<1000)
        #expect(UpsideDownPage.band(of: [word("1967", top: 100), word("--", top: 300)], pageHeight: 1000) == nil)
    }

    /// The whole page is read turned when its band reads better turned: more often in the
    /// dictionary and convincing, or surely (a table of abbreviations upside down read 0.80
    /// turned against 0.42); a page read doubtfully both ways (its back's text showing through,
    /// 0.26 turned against 0.25) is not.
    @Test func thePageIsReadTurnedWhenItsBandReadsBetterTurned() {
        func words(_ texts: [(String, Bool)], confidence: Float) -> [RawWord] {
            SidewaysPageTests.words(texts).map { var word = $0; word.confidence = confidence; return word }
        }
        let garbage = [("OTT", false), ("GpvSeT", false), ("rans", true), ("ZBGVEE", false)]
        let prose = [("The", true), ("committee", true), ("met", true), ("on", true)]
        let abbreviations = [("Kharif", false), ("Rabi", false), ("lakh", false), ("tonnes", false)]
        #expect(UpsideDownPage.turnedBandReadsBetter(words(prose, confidence: 0.9), than: words(garbage, confidence: 0.3)))
        #expect(UpsideDownPage.turnedBandReadsBetter(words(abbreviations, confidence: 0.8), than: words(garbage, confidence: 0.42)))
        #expect(!UpsideDownPage.turnedBandReadsBetter(words(garbage, confidence: 0.26), than: words(garbage, confidence: 0.25)))
        #expect(!UpsideDownPage.turnedBandReadsBetter(words(prose, confidence: 0.5), than: words(garbage, confidence: 0.45)))
        #expect(!UpsideDownPage.turnedBandReadsBetter([], than: words(garbage, confidence: 0.3)))
    }
}
