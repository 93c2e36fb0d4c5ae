import OCRPageModel
import OCRTestSupport
import Testing

/// Which crowds of doubtful words are read turned, what of a turned reading is kept, and how its
/// boxes come back into the page (pure: raw words in, regions and words out).
@Suite struct SidewaysTextTests {
    /// Six sure words 30 px tall, the page's letters, on one line at y 100.
    static let sure = (0..<6).map { RawPages.word("Total", $0 * 120) }

    /// A crowd of `count` doubtful slices, 20 px wide, three to a row, 40 px apart down the page from y 300.
    static func slices(_ count: Int, left: Int = 500, confidence: Float = 0.3) -> [RawWord] {
        (0..<count).map { RawPages.word("S§", left + $0 % 3 * 30, 300 + $0 / 3 * 40, width: 20, confidence: confidence, dictionary: false) }
    }

    @Test func aCrowdOfDoubtfulWordsIsReadTurned() throws {
        let crowd = Self.slices(9)
        let regions = SidewaysText.regions(in: RawPages.page(Self.sure, crowd), width: 1000, height: 1000)
        let region = try #require(regions.first)
        #expect(regions.count == 1)
        // The crowd's bounds (500...580 x 300...410) with half a letter (15 px) around them.
        #expect(region.rect == RawRect(left: 485, top: 285, right: 595, bottom: 425))
        #expect(region.doubtfulWords.count == 9 && region.otherWords.isEmpty)
        // Ruling lines near the crowd bound its cell: the region reaches out to them (a rule
        // 50 px left and one 50 px above), not to one farther than four letter heights (190 px below).
        let rules = [RawRect(left: 446, top: 200, right: 450, bottom: 700), RawRect(left: 300, top: 248, right: 900, bottom: 250),
                     RawRect(left: 300, top: 600, right: 900, bottom: 602)]
        let ruled = SidewaysText.regions(in: RawPages.page(Self.sure, crowd), rules: rules, width: 1000, height: 1000)
        #expect(ruled.map(\.rect) == [RawRect(left: 450, top: 250, right: 595, bottom: 425)])
    }

    @Test func fewDoubtfulWordsScatteredOnesOrOnesAmongSureWordsAreNot() {
        let cases: [(String, [RawWord])] = [
            ("five doubtful words", Self.slices(5)),
            ("doubtful words farther apart than a letter's height", (0..<9).map { RawPages.word("S§", 100 * $0, 300 + 100 * $0, width: 20, confidence: 0.3) }),
            ("doubtful words among nearly as many sure ones (a column of figures, a few misread)",
             (0..<6).map { RawPages.word("S§", 500 + $0 % 2 * 50, 300 + $0 / 2 * 40, width: 20, confidence: 0.3) }
                + (0..<5).map { RawPages.word("12.5", 525, 300 + $0 * 20, width: 20, confidence: 0.95) }),
        ]
        for (what, words) in cases {
            #expect(SidewaysText.regions(in: RawPages.page(Self.sure, words), width: 1000, height: 1000).isEmpty, "\(what)")
        }
    }

    /// A crowd is read turned only where its letters are wider than tall, as turned letters
    /// are: not where they are upright (a fax's doubtful words), nor where there are too few.
    @Test func onlyACrowdOfWideLettersIsReadTurned() throws {
        let region = try #require(SidewaysText.regions(in: RawPages.page(Self.sure, Self.slices(9)), width: 1000, height: 1000).first)
        func letters(_ count: Int, width: Int, height: Int) -> [RawRect] {
            (0..<count).map { RawRect(left: 490 + $0 % 10 * 10, top: 290 + $0 / 10 * 30, right: 490 + $0 % 10 * 10 + width, bottom: 290 + $0 / 10 * 30 + height) }
        }
        #expect(SidewaysText.turned([region], letters: letters(24, width: 28, height: 18)).count == 1)
        #expect(SidewaysText.turned([region], letters: letters(24, width: 18, height: 28)).isEmpty)
        #expect(SidewaysText.turned([region], letters: letters(19, width: 28, height: 18)).isEmpty)
        // Specks and rules are no letters (the page's letters are 30 px tall).
        #expect(SidewaysText.turned([region], letters: letters(24, width: 70, height: 5)).isEmpty)
    }

    /// A turned reading replaces the words it covers when it is sure, surer than they were and
    /// holds as many letters and digits; its words over a surer word of the first reading are
    /// left out, and a word of the first reading under a surer turned word goes.
    @Test func aSureTurnedReadingReplacesTheDoubtfulWords() throws {
        let heading = RawPages.word("Production", 585, 330, width: 100, confidence: 0.9)
        let slice = RawPages.word("ONS", 530, 380, width: 30, confidence: 0.88)  // a slice read surely by chance
        let page = RawPages.page(Self.sure, Self.slices(9) + [heading, slice])
        let region = try #require(SidewaysText.regions(in: page, width: 1000, height: 1000).first)
        #expect(region.otherWords.map(\.text) == ["Production", "ONS"])
        let turned = [RawBlock(confidence: 0.9, rect: RawRect(left: 500, top: 290, right: 590, bottom: 420), type: .text, paragraphs: [
            RawParagraph(confidence: 0.9, rect: RawRect(left: 500, top: 290, right: 590, bottom: 420), lines: [
                RawLine(confidence: 0.9, rect: RawRect(left: 500, top: 290, right: 590, bottom: 420), words: [
                    RawWord(text: "Population", confidence: 0.92, rect: RawRect(left: 500, top: 290, right: 530, bottom: 420), fromDictionary: true),
                    RawWord(text: "Projected", confidence: 0.96, rect: RawRect(left: 530, top: 290, right: 560, bottom: 420), fromDictionary: true),
                    RawWord(text: "for", confidence: 0.95, rect: RawRect(left: 560, top: 290, right: 582, bottom: 420), fromDictionary: true),
                    RawWord(text: "ae", confidence: 0.5, rect: RawRect(left: 575, top: 330, right: 600, bottom: 360)),
                ]),
            ]),
        ])]
        let kept = SidewaysText.words(of: turned, in: region)
        #expect(RawPages.texts(kept) == [["Population", "Projected", "for"]])
        #expect(SidewaysText.covered(by: kept, in: region).count == 10)  // the slices and "ONS", not the head set across
        #expect(SidewaysText.keeps(kept, over: region))
        let replaced = SidewaysText.replacing(region, with: kept, in: page)
        // (a block of its own, after the page's block that starts above it)
        #expect(RawPages.texts(replaced) == [["Total", "Total", "Total", "Total", "Total", "Total"], ["Production"], ["Population", "Projected", "for"]])
        #expect(replaced.count == 2)
        // Not sure enough, no surer than the slices, or fewer letters and digits: nothing changes.
        var doubtful = kept
        doubtful[0].paragraphs[0].lines[0].words[0].confidence = 0.5
        doubtful[0].paragraphs[0].lines[0].words[1].confidence = 0.5
        #expect(!SidewaysText.keeps(doubtful, over: region))
        let sureSlices = try #require(SidewaysText.regions(in: RawPages.page(Self.sure, Self.slices(9, confidence: 0.59)), width: 1000, height: 1000).first)
        for w in 0..<3 { doubtful[0].paragraphs[0].lines[0].words[w].confidence = 0.78 }
        #expect(!SidewaysText.keeps(doubtful, over: sureSlices))
        var bar = kept
        bar[0].paragraphs[0].lines[0].words = [RawWord(text: "|", confidence: 0.87, rect: RawRect(left: 500, top: 290, right: 510, bottom: 420))]
        #expect(!SidewaysText.keeps(bar, over: region))
        #expect(!SidewaysText.keeps([], over: region))
    }

    /// A box read on the crop turned a quarter either way comes back where it was on the crop.
    @Test func boxesReadTurnedComeBackUnturned() {
        let (width, height) = (200, 100)
        let word = RawRect(left: 20, top: 10, right: 60, bottom: 30)  // on the 200 x 100 crop
        // Turned clockwise the crop is 100 x 200 and the word lies at (100 - 30, 20)...(100 - 10, 60).
        let clockwise = RawRect(left: 70, top: 20, right: 90, bottom: 60)
        // Turned counter-clockwise it lies at (10, 200 - 60)...(30, 200 - 20).
        let counterclockwise = RawRect(left: 10, top: 140, right: 30, bottom: 180)
        func block(_ rect: RawRect) -> RawBlock {
            RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: [RawWord(text: "x", rect: rect)])])])
        }
        #expect(block(clockwise).unturned(1, width: width, height: height).paragraphs[0].lines[0].words[0].rect == word)
        #expect(block(counterclockwise).unturned(3, width: width, height: height).paragraphs[0].lines[0].words[0].rect == word)
    }
}
