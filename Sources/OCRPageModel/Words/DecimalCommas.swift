import OCRBasics

/// Whether a page prints its amounts' decimals after a comma, as continental Europe does
/// ("399,00", "1.999,00"), where English prints a point ("399.00", "1,999.00").
///
/// The marks that read an amount's point from the image (``DecimalPoints``, ``DroppedPoints``,
/// ``PointsInDigits``) were made for pages that print points, receipts above all, where a point
/// the reading took for a comma, dropped or ran into a digit is put back. On a page that prints
/// commas they do harm: a comma whose short tail barely reaches below the digits becomes a point
/// ("399,00" -> "399.00", eight amounts of a Dutch invoice at 300 dpi), and the points put there
/// then let ``DroppedPoints`` join the groups of a phone number ("71 17" -> "71.17" on a French
/// invoice at 150 dpi).
/// Plain `tesseract` reads those pages as printed. The page's own amounts tell which it prints:
/// an amount with points between its thousands and a comma before its decimals ("1.999,00")
/// settles it; else more amounts read with a comma and two decimals than with a point, at least
/// ``leastAmounts`` of them. On the real receipts read by plain `tesseract` (receipts 0-119,
/// which print points), no receipt reads more amounts with commas than with points (one reads
/// 4 of each).
package enum DecimalCommas {
    /// Fewer amounts read with a comma than this tell nothing.
    package static let leastAmounts = 2

    /// Whether the page of `words` prints decimal commas.
    package static func printed(on words: [RawWord]) -> Bool {
        var commas = 0, points = 0
        for word in words {
            if isGroupedWithPoints(word.text) { return true }
            if hasDecimals(word.text, after: ",") { commas += 1 }
            if hasDecimals(word.text, after: ".") { points += 1 }
        }
        return commas >= leastAmounts && commas > points
    }

    /// Whether `text` holds an amount with `mark` before two decimals ("7.95", "RM12.80",
    /// "-3,20"): a digit, the mark, two digits and no third.
    package static func hasDecimals(_ text: String, after mark: Character) -> Bool {
        let c = Array(text)
        return c.indices.contains { i in
            c[i] == mark && i > 0 && c[i - 1].isASCIIDigit && i + 2 < c.count && c[i + 1].isASCIIDigit && c[i + 2].isASCIIDigit
                && (i + 3 == c.count || !c[i + 3].isASCIIDigit)
        }
    }

    /// Whether `text` holds an amount whose thousands are set apart by points and whose two
    /// decimals follow a comma ("1.999,00", "12.345.678,90").
    static func isGroupedWithPoints(_ text: String) -> Bool {
        let c = Array(text)
        guard let comma = c.lastIndex(of: ","), hasDecimals(String(c[max(0, comma - 1)...]), after: ",") else { return false }
        // Back from the comma: groups of three digits, each after a point, then one to three digits.
        var i = comma, groups = 0
        while i >= 4, c[i - 4] == ".", c[(i - 3)..<i].allSatisfy(\.isASCIIDigit) {
            i -= 4
            groups += 1
        }
        guard groups >= 1 else { return false }
        var lead = 0
        while i - lead - 1 >= 0, c[i - lead - 1].isASCIIDigit { lead += 1 }
        return (1...3).contains(lead)
    }
}
