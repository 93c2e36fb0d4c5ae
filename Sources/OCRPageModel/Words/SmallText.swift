/// Text too small for Tesseract to read well, and how much larger to read it.
///
/// Tesseract thresholds the page at the size it is given, and on text whose words are at most
/// about 15 pixels tall (a shop receipt scanned at 100-150 dpi, a fax, a screenshot) the
/// thresholded strokes break and merge: on the dev half of real receipts (scripts/accuracy/
/// receipts.py), plain `tesseract` read 0.49 of the printed segments exactly, and 0.56 from the
/// same scans enlarged 1.5 times (twice: 0.54). Larger text gains nothing from enlarging and some
/// pages lose (an A4 scan at 200 dpi whose words are 21 px tall read nothing enlarged), so only
/// small text is read again, enlarged by ``factor``, and the two readings are combined word by
/// word: the enlarged reading alone lost up to 8 points on some low-resolution pages and faxes.
/// The heights are those of the words the layout analysis found (their boxes, before any
/// recognition), which Tesseract keeps for the first reading: deciding costs no extra work.
package enum SmallText {
    /// Words at most this tall (median, in pixels) are small. (A clean 200-dpi scan of a table
    /// whose words are 16 px tall lost 5 points of its words enlarged; receipts at 15 px gained.)
    package static let largestSmallHeight = 15.0
    /// How much larger small text is read.
    package static let factor = 1.5
    /// The standard deviation, in the page's pixels, of the Gaussian that smooths a 1 bpp page
    /// before it is enlarged. Chosen on the dev half's pages as dithered faxes at 150 and 200 dpi
    /// and bilevel scans at 150 dpi (39 pages, 20 of them read enlarged): 0.7 read 1.15 points
    /// more of their words than none, 0.5 0.6 more, 1.0 0.1 fewer (BENCHMARKS.md, "A 1 bpp
    /// page smoothed before it is enlarged").
    package static let bilevelSmoothing = 0.7
    /// Below this many word-like boxes there is too little text to measure.
    package static let minimumWords = 8
    /// Word-like: at least this wide for its height (a short word or more, not a speck or a rule end).
    static let minimumAspect = 1.0
    /// Boxes under this height are specks.
    static let minimumHeight = 5

    /// Whether a page of `width` x `height` pixels, whose layout analysis found `words`, has small
    /// text to read again enlarged (false also when the enlarged page would exceed `maxPixels`).
    package static func isSmall(words: [RawWord], width: Int, height: Int, maxPixels: UInt64) -> Bool {
        let heights = words.map(\.rect)
            .filter { $0.height >= minimumHeight && Double($0.width) >= minimumAspect * Double($0.height) }
            .map { Double($0.height) }
            .sorted()
        guard heights.count >= minimumWords else { return false }
        return heights[heights.count / 2] <= largestSmallHeight && Double(width) * Double(height) * factor * factor <= Double(maxPixels)
    }
}
