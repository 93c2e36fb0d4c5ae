import Testing
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

    @Test func lettersOutsideEveryWordAreTheLostShare() {
        let read = Self.letters(30, left: 0, top: 0), dropped = Self.letters(10, left: 0, top: 100)
        let words = [Self.word(Self.rect(0, 0, 450, 20))]
        #expect(LostText.share(components: read + dropped, words: words) == 0.25)
        #expect(LostText.share(components: read, words: words) == 0)
    }

    /// Specks, a rule, a picture's outline and letters far from the page's letter height are no
    /// letters: a page whose only unread marks are those has lost nothing.
    @Test func specksRulesAndPicturesAreNotLetters() {
        let read = Self.letters(40, left: 0, top: 0)
        let words = [Self.word(Self.rect(0, 0, 600, 20))]
        let specks = (0..<50).map { Self.rect(10 * $0, 300, 3, 3) }
        let rule = [Self.rect(0, 400, 900, 12)]
        let picture = [Self.rect(0, 500, 400, 400), Self.rect(500, 500, 100, 120)]
        #expect(LostText.share(components: read + specks + rule + picture, words: words) == 0)
    }

    /// Words without text (Tesseract's placeholders over an image) do not count as read.
    @Test func placeholderWordsDoNotCover() throws {
        let letters = Self.letters(20, left: 0, top: 0)
        let blocks = [RawBlock(confidence: 0, rect: Self.rect(0, 0, 300, 20), type: .text, paragraphs: [
            RawParagraph(confidence: 0, rect: Self.rect(0, 0, 300, 20), lines: [
                RawLine(confidence: 0, rect: Self.rect(0, 0, 300, 20), words: [RawWord(text: " ", confidence: 0, rect: Self.rect(0, 0, 300, 20))])])])]
        #expect(LostText.share(components: letters, words: RawBlock.wordsWithText(blocks)) == 1)
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
}
