@testable import OCRPageModel
import OCRTestSupport
import Testing

/// Which numbers are read again alone, where, and when the new reading may replace the first
/// (pure: raw words in, regions out).
@Suite struct DoubtfulNumbersTests {
    @Test func numbersAmountsDatesAndCodesAreNumericWordsAreNot() {
        for text in ["26.034", ".823", "$2,304.2", "(31.1)", "09/10/2013", "RM1.25", "27-1129"] {
            #expect(DoubtfulNumbers.isNumeric(text), "\(text)")
        }
        for text in ["EFECTIVO", "total:", "-", "A1B2C", "3rd", "$"] {
            #expect(!DoubtfulNumbers.isNumeric(text), "\(text)")
        }
    }

    /// The two halves of a number split at its separator are one region; a margin around it,
    /// never past half the gap to the line's other words; sure numbers, words and numbers too
    /// small to crop are not read again.
    @Test func aSplitNumberIsOneRegionClearOfItsNeighbours() {
        let line = [RawPages.word("PISONI", 0, confidence: 0.95), RawPages.word("26.034", 200, width: 120, confidence: 0),
                    RawPages.word(".823", 330, width: 60, confidence: 0), RawPages.word("20-26034823-0", 400, width: 200, confidence: 0.96),
                    RawPages.word("EFECTIV0", 700, width: 150, confidence: 0.3)]
        let regions = DoubtfulNumbers.regions(in: RawPages.page(line), width: 1000, height: 1000)
        // 30 px tall: 8 px across (0.25 x 30, up), 6 px above and below; but 5 px to the right
        // (half the 10 px gap to the next word).
        #expect(regions == [RawRect(left: 192, top: 94, right: 395, bottom: 136)])
        let sure = [RawPages.word("26.034.823", 200, confidence: 0.95)]
        #expect(DoubtfulNumbers.regions(in: RawPages.page(sure), width: 1000, height: 1000).isEmpty)
        var tiny = RawPages.word("1.5", 200, confidence: 0.2)
        tiny.rect.bottom = tiny.rect.top + 10
        #expect(DoubtfulNumbers.regions(in: RawPages.page([tiny]), width: 1000, height: 1000).isEmpty)
        // Apart by more than a line height: two regions, clipped to the page.
        let apart = [RawPages.word("12", 0, confidence: 0.5), RawPages.word("34", 100, confidence: 0.5)]
        #expect(DoubtfulNumbers.regions(in: RawPages.page(apart), width: 1000, height: 1000)
                == [RawRect(left: 0, top: 94, right: 48, bottom: 136), RawRect(left: 92, top: 94, right: 148, bottom: 136)])
    }

    /// A new reading that keeps every digit replaces the first; one that drops digits (a crop
    /// read as a stray digit) does not. Words of the first pass outside the region do not count.
    @Test func aReadingThatDropsDigitsIsNotKept() {
        let region = RawRect(left: 190, top: 90, right: 400, bottom: 140)
        let first = [RawPages.word("26.034", 200, width: 120, confidence: 0), RawPages.word(".823", 330, width: 60, confidence: 0),
                     RawPages.word("20-26034823-0", 430, width: 200)]
        #expect(DoubtfulNumbers.keeps(RawPages.page([RawPages.word("26.034.823", 200, width: 190)]), in: region, over: first))
        #expect(!DoubtfulNumbers.keeps(RawPages.page([RawPages.word("2", 200, width: 190)]), in: region, over: first))
        #expect(!DoubtfulNumbers.keeps(RawPages.page([RawPages.word("26.034", 200, width: 190)]), in: region, over: first))
    }

    /// A crop of an amount loses its small point: a reading with the same digits but fewer
    /// points or commas between digits is not kept ("5.30" as "530", "15.90" as "16 90"); one
    /// that keeps them, or joins a number split at its separator, is.
    @Test func aReadingThatDropsAnAmountsPointIsNotKept() {
        let region = RawRect(left: 190, top: 90, right: 400, bottom: 140)
        let amount = [RawPages.word("5.30", 200, width: 80, confidence: 0.5)]
        #expect(!DoubtfulNumbers.keeps(RawPages.page([RawPages.word("530", 200, width: 80)]), in: region, over: amount))
        #expect(!DoubtfulNumbers.keeps(RawPages.page([RawPages.word("5", 200, width: 20), RawPages.word("30", 240, width: 40)]), in: region, over: amount))
        #expect(DoubtfulNumbers.keeps(RawPages.page([RawPages.word("5,30", 200, width: 80)]), in: region, over: amount))
        #expect(DoubtfulNumbers.keeps(RawPages.page([RawPages.word("6.30", 200, width: 80)]), in: region, over: amount))
        #expect(DoubtfulNumbers.separatorCount("1,234.50") == 2)
        #expect(DoubtfulNumbers.separatorCount("09/10/2013.") == 0)
        #expect(DoubtfulNumbers.separatorCount(".823") == 0)
    }
}
