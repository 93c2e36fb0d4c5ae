@testable import OCRPageModel
import Testing

/// Which pages are read again enlarged (pure: word boxes in, a decision out), and how the
/// enlarged reading comes back to the page's pixels.
@Suite struct SmallTextTests {
    func words(height: Int, count: Int, width: Int? = nil) -> [RawWord] {
        (0..<count).map { i in RawWord(rect: RawRect(left: 10, top: i * 40, right: 10 + (width ?? 3 * height), bottom: i * 40 + height)) }
    }

    /// Whether a page of `words` first read at `confidence` is read again enlarged.
    func readsEnlarged(_ words: [RawWord], width: Int, height: Int, maxPixels: UInt64, confidence: Float = 0.9, noise: Bool = false) -> Bool {
        SmallText.readsEnlarged(medianHeight: SmallText.medianHeight(of: words), meanConfidence: confidence, readsAsNoise: noise,
                                width: width, height: height, maxPixels: maxPixels)
    }

    @Test func wordsAtMost15PixelsTallAreSmall() {
        #expect(readsEnlarged(words(height: 12, count: 30), width: 500, height: 1000, maxPixels: 1 << 30))
        #expect(readsEnlarged(words(height: 15, count: 30), width: 500, height: 1000, maxPixels: 1 << 30))
    }

    @Test func wordsOfOrdinarySizeAreNot() {
        #expect(!readsEnlarged(words(height: 16, count: 30), width: 500, height: 1000, maxPixels: 1 << 30))
        #expect(!readsEnlarged(words(height: 40, count: 30), width: 2500, height: 3300, maxPixels: 1 << 30))
    }

    /// Words up to 30 px tall first read with doubt (a blurred receipt) are read enlarged too;
    /// read with confidence, or taller, or on a page that reads as noise, they are not.
    @Test func doubtfulTextUpTo30PixelsTallIsReadEnlarged() {
        #expect(readsEnlarged(words(height: 22, count: 30), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.65))
        #expect(readsEnlarged(words(height: 30, count: 30), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.74))
        #expect(!readsEnlarged(words(height: 22, count: 30), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.75))
        #expect(!readsEnlarged(words(height: 31, count: 30), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.5))
        #expect(!readsEnlarged(words(height: 22, count: 7), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.5))
        // A page that reads as noise upright and turned (its back seen through): only small text.
        #expect(!readsEnlarged(words(height: 27, count: 30), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.39, noise: true))
        #expect(readsEnlarged(words(height: 12, count: 30), width: 750, height: 1400, maxPixels: 1 << 30, confidence: 0.39, noise: true))
    }

    @Test func specksNarrowBoxesAndTooFewWordsDoNotCount() {
        // Specks (4 px) and narrow boxes (a rule's end, a single letter) outnumber the real words.
        let noisy = words(height: 4, count: 50) + words(height: 10, count: 40, width: 5) + words(height: 24, count: 10)
        #expect(!readsEnlarged(noisy, width: 500, height: 1000, maxPixels: 1 << 30))
        #expect(!readsEnlarged(words(height: 12, count: 7), width: 500, height: 1000, maxPixels: 1 << 30))
    }

    @Test func theEnlargedPageStaysWithinThePixelLimit() {
        #expect(!readsEnlarged(words(height: 12, count: 30), width: 4000, height: 4000, maxPixels: 30_000_000))
        #expect(readsEnlarged(words(height: 12, count: 30), width: 4000, height: 4000, maxPixels: 40_000_000))
    }

    @Test func anEnlargedReadingMapsBackToThePagesPixels() {
        let symbol = RawSymbol(text: "a", rect: RawRect(left: 15, top: 31, right: 29, bottom: 59))
        let word = RawWord(text: "ab", rect: RawRect(left: 15, top: 31, right: 44, bottom: 59), symbols: [symbol])
        let line = RawLine(rect: RawRect(left: 15, top: 30, right: 300, bottom: 60), baseline: [15, 54, 300, 57], words: [word])
        let block = RawBlock(rect: RawRect(left: 0, top: 0, right: 450, bottom: 90), type: .text,
                             paragraphs: [RawParagraph(rect: line.rect, lines: [line])])
        let mapped = block.mapped(scale: 1.5)
        let back = mapped.paragraphs[0].lines[0]
        #expect(mapped.rect == RawRect(left: 0, top: 0, right: 300, bottom: 60))
        #expect(back.rect == RawRect(left: 10, top: 20, right: 200, bottom: 40))
        #expect(back.baseline == [10, 36, 200, 38])
        // Edges rounded outwards: the word still covers its ink.
        #expect(back.words[0].rect == RawRect(left: 10, top: 20, right: 30, bottom: 40))
        #expect(back.words[0].symbols[0].rect == RawRect(left: 10, top: 20, right: 20, bottom: 40))
        #expect(block.mapped(scale: 1.5, dx: 5, dy: 7).rect == RawRect(left: 5, top: 7, right: 305, bottom: 67))
    }
}
