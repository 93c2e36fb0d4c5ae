import Testing
@testable import OCRPageModel
@testable import OCREngine

/// The guard that notices text the first pass left unread (pure: component and word boxes in).
@Suite struct LostTextTests {
    static func rect(_ left: Int, _ top: Int, _ width: Int, _ height: Int) -> RawRect {
        RawRect(left: left, top: top, right: left + width, bottom: top + height)
    }

    /// A line of `count` letters 20 px tall, 15 px apart, from `left` at `top`.
    static func letters(_ count: Int, left: Int, top: Int) -> [RawRect] {
        (0..<count).map { rect(left + 15 * $0, top, 12, 20) }
    }

    static func word(_ rect: RawRect) -> RawWord { RawWord(text: "word", confidence: 0.9, rect: rect) }

    @Test func lettersOutsideEveryWordAreTheLostShare() throws {
        let read = Self.letters(30, left: 0, top: 0), dropped = Self.letters(10, left: 0, top: 100)
        let words = [Self.word(Self.rect(0, 0, 450, 20))]
        #expect(try LostText.find(components: read + dropped, words: words).share == 0.25)
        #expect(try LostText.find(components: read, words: words).share == 0)
    }

    /// Where the first reading lost a tenth of the letters and the page read enlarged found most
    /// of them, the few still lost are read again all the same: the layout analysis drops text
    /// there. A page whose first reading lost as few is left as it is.
    @Test func aFirstReadingThatLostTextHasTheRestReadAgain() throws {
        // Two lines of a column's width and a wider one under them; three figures lost beside
        // the narrow lines, far under a tenth of the letters and in no margin.
        let read = Self.letters(40, left: 0, top: 0) + Self.letters(40, left: 0, top: 100) + Self.letters(60, left: 0, top: 200)
        let words = [Self.word(Self.rect(0, 0, 600, 20)), Self.word(Self.rect(0, 100, 600, 20)), Self.word(Self.rect(0, 200, 900, 20))]
        let column = (0..<3).map { Self.rect(800, 30 * $0, 12, 20) }
        var found = try LostText.find(components: read + column, words: words)
        #expect(!found.isLost)
        found.lostByFirstReading = true
        #expect(found.isLost)
        #expect(found.toRead == column)
        var none = try LostText.find(components: read, words: words)
        none.lostByFirstReading = true
        #expect(!none.isLost)
    }

    /// Specks, a rule, a picture's outline and letters far from the page's letter height are no
    /// letters: a page whose only unread marks are those has lost nothing.
    @Test func specksRulesAndPicturesAreNotLetters() throws {
        let read = Self.letters(40, left: 0, top: 0)
        let words = [Self.word(Self.rect(0, 0, 600, 20))]
        let specks = (0..<50).map { Self.rect(10 * $0, 300, 3, 3) }
        let rule = [Self.rect(0, 400, 900, 12)]
        let picture = [Self.rect(0, 500, 400, 400), Self.rect(500, 500, 100, 120)]
        #expect(try LostText.find(components: read + specks + rule + picture, words: words).share == 0)
    }

    /// Words without text (Tesseract's placeholders over an image) do not count as read.
    @Test func placeholderWordsDoNotCover() throws {
        let letters = Self.letters(20, left: 0, top: 0)
        let blocks = [RawBlock(confidence: 0, rect: Self.rect(0, 0, 300, 20), type: .text, paragraphs: [
            RawParagraph(confidence: 0, rect: Self.rect(0, 0, 300, 20), lines: [
                RawLine(confidence: 0, rect: Self.rect(0, 0, 300, 20), words: [RawWord(text: " ", confidence: 0, rect: Self.rect(0, 0, 300, 20))])])])]
        #expect(try LostText.find(components: letters, words: RawBlock.wordsWithText(blocks)).share == 1)
    }

    /// A lone page number under the text is lost in the margin (read again on its own), though
    /// far below the share that marks a page's text as lost; letters lost between the words'
    /// lines are not in the margin, and a margin of many letters is general lost text.
    @Test func aLonePageNumberIsLostInTheMargin() throws {
        let read = Self.letters(60, left: 0, top: 0) + Self.letters(60, left: 0, top: 100)
        let words = [Self.word(Self.rect(0, 0, 900, 20)), Self.word(Self.rect(0, 100, 900, 20))]
        let number = Self.rect(450, 400, 12, 20), between = Self.rect(450, 50, 12, 20)
        let found = try LostText.find(components: read + [number, between], words: words)
        #expect(!found.isLost)
        #expect(found.margin == [number])
        let footer = Self.letters(LostText.marginLetters + 1, left: 0, top: 400)
        #expect(try LostText.find(components: read + footer, words: words).margin.isEmpty)
    }

    /// A transcript's line numbers of which a reading found two: the rest are still in the
    /// margin, since one word in ``LostText/edgeOutliers`` may lie beyond the text's edges.
    @Test func lineNumbersStayInTheMarginWhenAFewWereRead() throws {
        let lines = (0..<30).map { 100 + 40 * $0 }
        let read = lines.flatMap { top in (0..<4).flatMap { Self.letters(5, left: 200 + 100 * $0, top: top) } }
        var words = lines.flatMap { top in (0..<4).map { Self.word(Self.rect(200 + 100 * $0, top, 75, 20)) } }
        let numbers = lines.flatMap { Self.letters(1, left: 100, top: $0) }
        words += numbers.suffix(2).map(Self.word)
        let found = try LostText.find(components: read + numbers, words: words)
        #expect(found.margin == Array(numbers.dropLast(2)))
        #expect(found.elsewhere.isEmpty)
    }

    /// A transcript's column of line numbers left of the text, all dropped: in the margin (read
    /// again on its own), and no sign that the page lost text, though it is a sixth of the
    /// letters; a column of more letters than line numbers take is lost text.
    @Test func aColumnOfLineNumbersIsLostInTheMargin() throws {
        let lines = (0..<10).map { 100 + 40 * $0 }
        let read = lines.flatMap { Self.letters(5, left: 200, top: $0) }
        let words = lines.map { Self.word(Self.rect(200, $0, 75, 20)) }
        let numbers = lines.flatMap { Self.letters(1, left: 100, top: $0) }
        let found = try LostText.find(components: read + numbers, words: words)
        #expect(found.share > LostText.minimumShare)
        #expect(!found.isLost)
        #expect(found.margin == numbers)
        #expect(found.elsewhere.isEmpty)
        let column = lines.flatMap { Self.letters(LostText.sideLetters / lines.count + 1, left: 1000, top: $0) }
        let dropped = try LostText.find(components: read + column, words: words)
        #expect(dropped.margin.isEmpty)
        #expect(dropped.isLost)
    }

    /// A line dropped whole on a long page (a receipt's column heads between two dashed rules)
    /// is far below the share that marks a page's text as lost, and lost all the same: its
    /// letters, and only those, are read again. Fewer letters in a row, or the same letters
    /// scattered down the page, are not a line.
    @Test func aLineDroppedWholeIsLostText() throws {
        let tops = (0..<20).map { 60 * $0 }
        let read = tops.flatMap { Self.letters(30, left: 0, top: $0) }
        let words = tops.map { Self.word(Self.rect(0, $0, 450, 20)) }
        let speck = Self.rect(200, 450, 12, 20)
        let line = Self.letters(LostText.lineLetters, left: 0, top: 330)
        let found = try LostText.find(components: read + line + [speck], words: words)
        #expect(found.share < LostText.minimumShare)
        #expect(found.lostLines.map { $0.sorted { $0.left < $1.left } } == [line])
        #expect(found.isLost)
        #expect(found.toRead.sorted { $0.left < $1.left } == line)
        let short = Self.letters(LostText.lineLetters - 1, left: 0, top: 330)
        #expect(try !LostText.find(components: read + short, words: words).isLost)
        let scattered = (0..<LostText.lineLetters).map { Self.rect(15 * $0, 30 + 60 * $0, 12, 20) }
        #expect(try !LostText.find(components: read + scattered, words: words).isLost)
    }

    /// Letters in a block the layout analysis took for a picture (a receipt's framed summary),
    /// too far apart to be a line, are text lost; fewer of them, or the same letters outside the
    /// block, are not.
    @Test func lettersInABlockTakenForAPictureAreLostText() throws {
        let tops = (0..<20).map { 60 * $0 }
        let read = tops.flatMap { Self.letters(60, left: 0, top: $0) }
        let words = tops.map { Self.word(Self.rect(0, $0, 900, 20)) }
        // Short cells between two lines, 100 px apart (more than three letter heights).
        let cells = (0..<LostText.imageLetters).map { Self.rect(100 * $0, 330, 12, 20) }
        let box = Self.rect(0, 322, 800, 36)
        let found = try LostText.find(components: read + cells, words: words, images: [box])
        #expect(found.isLost && found.toRead.count == LostText.imageLetters)
        #expect(try !LostText.find(components: read + cells, words: words).isLost)
        #expect(try !LostText.find(components: read + cells.dropLast(), words: words, images: [box]).isLost)
    }

    @Test func theCoverageGridAnswersLikeTheRectangles() {
        let rects = [Self.rect(5, 5, 30, 10), Self.rect(100, 17, 8, 40)]
        let grid = LostText.CoverageGrid(rects)
        for y in 0..<70 {
            for x in 0..<120 {
                let inside = rects.contains { $0.left <= x && x < $0.right && $0.top <= y && y < $0.bottom }
                #expect(grid.contains(x: x, y: y) == inside, "(\(x), \(y))")
            }
        }
    }

    /// A solid box a few letters tall that no word is in is text on a dark fill (a form's
    /// buttons): lost whatever the letters say. A box with a word in it, a thin rule, or one
    /// that is mostly paper is not.
    @Test func anUnreadDarkBoxIsLostText() throws {
        let read = Self.letters(40, left: 0, top: 0)
        let words = [Self.word(Self.rect(0, 0, 600, 20)), Self.word(Self.rect(0, 300, 200, 60))]
        let button = Self.rect(0, 100, 200, 60), outline = Self.rect(300, 100, 200, 60)
        let readButton = Self.rect(0, 300, 200, 60), rule = Self.rect(0, 200, 900, 12)
        let finding = try LostText.find(components: read + [button, outline, readButton, rule], words: words) { $0 == outline ? 0.1 : 1 }
        #expect(finding.lost.isEmpty && finding.share == 0)
        #expect(finding.darkBoxes == [button])
        #expect(finding.isLost)
    }

    /// Lost letters are read again in regions: a line's letters and the lines of a paragraph
    /// join into one, a far letter group makes its own, each with a letter's height around it.
    @Test func lostLettersMakeRegionsAroundThem() throws {
        let paragraph = Self.letters(10, left: 100, top: 100) + Self.letters(10, left: 100, top: 130)
        let far = Self.letters(3, left: 1500, top: 900)
        let regions = try #require(LostRegions.regions(paragraph + far, width: 2000, height: 3000))
        #expect(regions == [Self.rect(80, 80, 15 * 9 + 12 + 40, 30 + 20 + 40), Self.rect(1480, 880, 15 * 2 + 12 + 40, 60)])
        // A dark box is read as it is, clipped to the page.
        #expect(LostRegions.regions([], darkBoxes: [Self.rect(0, 100, 200, 60)], width: 2000, height: 3000) == [Self.rect(0, 100, 200, 60)])
        #expect(LostRegions.regions([], darkBoxes: [Self.rect(1900, 100, 200, 60)], width: 2000, height: 3000) == [Self.rect(1900, 100, 100, 60)])
        // Regions over more than half the page: the page is read whole.
        #expect(LostRegions.regions(Self.letters(10, left: 0, top: 0), width: 170, height: 50) == nil)
        #expect(LostRegions.regions([], width: 2000, height: 3000) == nil)
    }

    /// A reading of a region, moved into the page's pixels: every box and the baseline.
    @Test func aRegionsReadingIsShiftedIntoThePage() {
        let word = RawWord(text: "ab", confidence: 0.9, rect: Self.rect(1, 2, 10, 5), symbols: [RawSymbol(text: "a", confidence: 0.9, rect: Self.rect(1, 2, 4, 5))])
        let block = RawBlock(confidence: 0, rect: Self.rect(0, 0, 20, 10), type: .text, paragraphs: [
            RawParagraph(confidence: 0, rect: Self.rect(0, 1, 20, 8), lines: [
                RawLine(confidence: 0, rect: Self.rect(1, 2, 10, 5), baseline: [1, 7, 11, 7], words: [word])])])
        let moved = block.shifted(100, 200)
        let line = moved.paragraphs[0].lines[0]
        #expect(moved.rect == Self.rect(100, 200, 20, 10) && moved.paragraphs[0].rect == Self.rect(100, 201, 20, 8))
        #expect(line.rect == Self.rect(101, 202, 10, 5) && line.baseline == [101, 207, 111, 207])
        #expect(line.words[0].rect == Self.rect(101, 202, 10, 5) && line.words[0].symbols[0].rect == Self.rect(101, 202, 4, 5))
    }
}
