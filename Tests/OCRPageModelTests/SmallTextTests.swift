@testable import OCRPageModel
import Testing

/// Which pages are read enlarged (pure: word boxes in, a factor out).
@Suite struct SmallTextTests {
    func words(height: Int, count: Int, width: Int? = nil) -> [RawWord] {
        (0..<count).map { i in RawWord(rect: RawRect(left: 10, top: i * 40, right: 10 + (width ?? 3 * height), bottom: i * 40 + height)) }
    }

    @Test func smallWordsAreEnlargedByOneAndAHalf() {
        #expect(SmallText.enlargement(words: words(height: 12, count: 30), width: 500, height: 1000, maxPixels: 1 << 30) == 1.5)
        #expect(SmallText.enlargement(words: words(height: 15, count: 30), width: 500, height: 1000, maxPixels: 1 << 30) == 1.5)
    }

    @Test func wordsOfOrdinarySizeAreNot() {
        #expect(SmallText.enlargement(words: words(height: 16, count: 30), width: 500, height: 1000, maxPixels: 1 << 30) == nil)
        #expect(SmallText.enlargement(words: words(height: 40, count: 30), width: 2500, height: 3300, maxPixels: 1 << 30) == nil)
    }

    @Test func specksNarrowBoxesAndTooFewWordsDoNotCount() {
        // Specks (4 px) and narrow boxes (a rule's end, a single letter) outnumber the real words.
        let noisy = words(height: 4, count: 50) + words(height: 30, count: 40, width: 10) + words(height: 24, count: 10)
        #expect(SmallText.enlargement(words: noisy, width: 500, height: 1000, maxPixels: 1 << 30) == nil)
        #expect(SmallText.enlargement(words: words(height: 12, count: 7), width: 500, height: 1000, maxPixels: 1 << 30) == nil)
    }

    @Test func theEnlargedPageStaysWithinThePixelLimit() {
        #expect(SmallText.enlargement(words: words(height: 12, count: 30), width: 4000, height: 4000, maxPixels: 30_000_000) == nil)
        #expect(SmallText.enlargement(words: words(height: 12, count: 30), width: 4000, height: 4000, maxPixels: 40_000_000) == 1.5)
    }
}
