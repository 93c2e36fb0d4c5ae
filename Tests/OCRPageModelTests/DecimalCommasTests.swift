import OCRPageModel
import Testing

/// Whether a page prints its decimals after commas, from its own amounts (pure: words in).
@Suite struct DecimalCommasTests {
    static func words(_ texts: [String]) -> [RawWord] {
        texts.enumerated().map { i, text in
            RawWord(text: text, confidence: 0.9, rect: RawRect(left: 100 * i, top: 0, right: 100 * i + 80, bottom: 20))
        }
    }

    @Test func amountsReadWithCommasOrGroupedWithPointsArePrintedSo() {
        // A Dutch invoice: every amount with a comma.
        #expect(DecimalCommas.printed(on: Self.words(["Totaal", "399,00", "44,99", "€", "-9,32"])))
        // One amount grouped with points settles it.
        #expect(DecimalCommas.printed(on: Self.words(["Total", "1.999,00"])))
        #expect(DecimalCommas.printed(on: Self.words(["12.345.678,90", "3.20", "4.10"])))
        // More with commas than with points (some commas read as points).
        #expect(DecimalCommas.printed(on: Self.words(["9,00", "12,50", "3,20", "7.95"])))
    }

    @Test func pagesThatPrintPointsOrShowTooLittleAreNot() {
        // A receipt whose reading took some points for commas: more points.
        #expect(!DecimalCommas.printed(on: Self.words(["RM33,92", "9,00", "7.95", "3.20", "12.80"])))
        // As many of each, or a single comma amount: nothing settles it.
        #expect(!DecimalCommas.printed(on: Self.words(["9,00", "12,50", "7.95", "3.20"])))
        #expect(!DecimalCommas.printed(on: Self.words(["9,00", "Total"])))
        // Thousands with commas, decimals with a point; numbers that are no amounts.
        #expect(!DecimalCommas.printed(on: Self.words(["1,234.56", "12,345", "1,2", "12,500", "v1.2.3,45x"])))
        // Points that do not group thousands: one such amount alone settles nothing.
        for text in ["1.2345,00", ".999,00", "1.99,00", "1234.567,00"] {
            #expect(!DecimalCommas.printed(on: Self.words([text])), "\(text)")
        }
    }

    @Test func anAmountHasADigitTheMarkAndTwoDecimals() {
        for text in ["7.95", "RM12.80", "-3.20", "(31.10)", "$2,304.20"] {
            #expect(DecimalCommas.hasDecimals(text, after: "."), "\(text)")
        }
        for text in ["7.9", "7.950", ".95", "7.", "1,234", "v1.2"] {
            #expect(!DecimalCommas.hasDecimals(text, after: "."), "\(text)")
        }
        #expect(DecimalCommas.hasDecimals("399,00", after: ","))
        #expect(!DecimalCommas.hasDecimals("1,234", after: ","))
    }
}
