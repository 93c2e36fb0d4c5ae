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
///
/// Text up to twice that size is read enlarged as well where the first reading was doubtful
/// (Tesseract's mean text confidence under ``doubtfulConfidence``): a blurred thermal receipt
/// whose words are 20-27 px tall ("TolalAmtRounded", "34.70" for "34.10") reads like small text,
/// and a page read with confidence reads no better enlarged (the real-layout dev pages at
/// 200-300 dpi, read at 0.77 or more, lost up to 4 points enlarged, at 1.6x the CPU).
package enum SmallText {
    /// Words at most this tall (median, in pixels) are small. (A clean 200-dpi scan of a table
    /// whose words are 16 px tall lost 5 points of its words enlarged; receipts at 15 px gained.)
    package static let largestSmallHeight = 15.0
    /// Words at most this tall (median, in pixels) are read enlarged too where the first reading
    /// was doubtful. Chosen with ``doubtfulConfidence`` on the dev receipts and real-layout dev
    /// pages (BENCHMARKS.md, "Doubtful receipts read enlarged").
    package static let largestDoubtfulHeight = 30.0
    /// A first reading whose mean text confidence (Tesseract's, of the whole page) is under this
    /// is doubtful.
    package static let doubtfulConfidence: Float = 0.75
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

    /// Whether a page whose words are `medianHeight` tall (``medianHeight(of:)``), first read at a
    /// mean text confidence of `meanConfidence`, is read again enlarged: small text, or text up
    /// to ``largestDoubtfulHeight`` read with doubt, unless the page `readsAsNoise` (upright and
    /// turned: a page's back seen through it, whose doubt no reading takes away).
    package static func readsEnlarged(medianHeight: Double?, meanConfidence: Float, readsAsNoise: Bool,
                                      width: Int, height: Int, maxPixels: UInt64) -> Bool {
        guard let medianHeight, fits(width: width, height: height, maxPixels: maxPixels) else { return false }
        return medianHeight <= largestSmallHeight
            || !readsAsNoise && medianHeight <= largestDoubtfulHeight && meanConfidence < doubtfulConfidence
    }

    /// The median height of the word-like boxes among `words`, nil when there are too few.
    package static func medianHeight(of words: [RawWord]) -> Double? {
        let heights = words.map(\.rect)
            .filter { $0.height >= minimumHeight && Double($0.width) >= minimumAspect * Double($0.height) }
            .map { Double($0.height) }
            .sorted()
        return heights.count >= minimumWords ? heights[heights.count / 2] : nil
    }

    /// Whether the page enlarged stays within `maxPixels`.
    private static func fits(width: Int, height: Int, maxPixels: UInt64) -> Bool {
        Double(width) * Double(height) * factor * factor <= Double(maxPixels)
    }
}
