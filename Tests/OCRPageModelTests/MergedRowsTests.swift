import OCRPageModel
import OCRTestSupport
import Testing

/// Which words look like a text line that took in two rows, the parts of the page read again
/// for them, and what of a new reading is kept (pure: raw words in, regions and words out).
@Suite struct MergedRowsTests {
    /// Six sure words 30 px tall, the page's letters, on one line at y 100.
    static let sure = (0..<6).map { RawPages.word("Total", $0 * 120) }

    /// `text` at `left`, `top`, `height` px tall.
    static func word(_ text: String, _ left: Int, _ top: Int, width: Int? = nil, height: Int, confidence: Float) -> RawWord {
        var word = RawPages.word(text, left, top, width: width, confidence: confidence)
        word.rect.bottom = top + height
        return word
    }

    @Test func aTallDoubtfulWordIsReadAgainWithAMargin() throws {
        let tall = Self.word("ae", 800, 200, height: 60, confidence: 0.3)
        let regions = MergedRows.regions(in: RawPages.page(Self.sure, [tall]), width: 1000, height: 1000)
        // Twice the letters' 30 px: its box with half a letter (15 px) around it.
        let region = try #require(regions.first)
        #expect(regions.count == 1)
        #expect(region.rect == RawRect(left: 785, top: 185, right: 855, bottom: 275))
        #expect(region.tallWords.map(\.rect) == [tall.rect] && region.tallWords.map(\.confidence) == [0.3])
    }

    @Test func headingsDoubtfulLettersAndSpecksAreNot() {
        let cases: [(String, [RawWord])] = [
            ("a doubtful word of the letters' height", [Self.word("ae", 800, 200, height: 40, confidence: 0.3)]),
            ("a sure tall word (a heading)", [Self.word("CONTENTS", 600, 200, height: 60, confidence: 0.95)]),
            ("a single tall character (a bar, a colon)", [Self.word(":", 800, 200, height: 60, confidence: 0.3)]),
            ("a drop cap read with a speck", [Self.word("S*", 800, 200, height: 90, confidence: 0.3)]),
        ]
        for (what, words) in cases {
            #expect(MergedRows.regions(in: RawPages.page(Self.sure, words), width: 1000, height: 1000).isEmpty, "\(what)")
        }
        // Too few sure words to tell the letters' height.
        let few = Array(Self.sure.prefix(4)) + [Self.word("ae", 800, 200, height: 90, confidence: 0.3)]
        #expect(MergedRows.regions(in: RawPages.page(few), width: 1000, height: 1000).isEmpty)
    }

    @Test func overlappingRegionsAreReadAsOne() {
        let a = Self.word("Ry", 500, 200, height: 60, confidence: 0.5), b = Self.word("ae", 560, 240, height: 60, confidence: 0.3)
        let far = Self.word("ne", 900, 600, height: 70, confidence: 0.4)
        let regions = MergedRows.regions(in: RawPages.page(Self.sure, [a, b], [far]), width: 1000, height: 1000)
        #expect(regions.map(\.rect) == [RawRect(left: 485, top: 185, right: 615, bottom: 315), RawRect(left: 885, top: 585, right: 955, bottom: 685)])
        #expect(regions.first?.tallWords.map(\.rect) == [a.rect, b.rect])
    }

    /// What the margin took in of the neighbours is left out; a reading no surer than the tall
    /// words were (a heading read again as letters and specks) is not kept at all.
    @Test func onlyASurerReadingOfTheTallWordsIsKept() {
        let tall = Self.word("ae", 800, 200, width: 110, height: 60, confidence: 0.3)
        let regions = MergedRows.regions(in: RawPages.page(Self.sure, [tall]), width: 1000, height: 1000)
        let rect = regions[0].rect
        let rows = [Self.word("15.00", 800, 200, height: 28, confidence: 0.9), Self.word("0.00", 820, 232, height: 28, confidence: 0.9)]
        let cut = Self.word("Tot", 600, 200, height: 28, confidence: 0.95)  // centred left of the tall word
        let kept = MergedRows.words(of: RawPages.page([cut] + rows), in: rect, of: regions)
        #expect(RawPages.texts(kept) == [["15.00", "0.00"]])
        // A new word over a sure word of the first reading (a drop cap's neighbour, cut) is not kept.
        let neighbour = Self.word("wandered", 870, 236, width: 160, height: 28, confidence: 0.95)
        let beside = MergedRows.regions(in: RawPages.page(Self.sure, [tall], [neighbour]), width: 1100, height: 1000)
        #expect(beside.map(\.sureWords) == [[neighbour.rect]])
        let overNeighbour = [rows[0], Self.word("wa", 860, 236, width: 40, height: 28, confidence: 0.9)]
        #expect(RawPages.texts(MergedRows.words(of: RawPages.page(overNeighbour), in: beside[0].rect, of: beside)) == [["15.00"]])
        let unsure = rows.map { var w = $0; w.confidence = 0.45; return w }
        #expect(MergedRows.words(of: RawPages.page(unsure), in: rect, of: regions).isEmpty)
        #expect(MergedRows.words(of: RawPages.page(rows), in: RawRect(left: 0, top: 0, right: 9, bottom: 9), of: regions).isEmpty)
    }
}
