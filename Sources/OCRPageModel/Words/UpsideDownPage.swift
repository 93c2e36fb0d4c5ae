/// A page upside down: the check every level makes after the first reading.
///
/// Tesseract reads a page turned upside down as short words that are no words ("OTT", "ewe",
/// "GpvSeT"), with low confidence, and its layout looks like any page's (lines across it), so
/// only the reading tells. Where a reading is doubtful in both ways (``isDoubtful``), OSD is
/// asked; unless it is sure the page is upright or on its side (``mayBeUpsideDown``), the page
/// is read turned (where OSD did not say upside down, first only its band with the most letters,
/// ``band(of:pageHeight:)``, and the whole page only where that band reads better turned,
/// ``turnedBandReadsBetter(_:than:)``), and that reading is kept when its words are more often
/// dictionary words and it is no longer doubtful by its confidence (``keepsTurned``; OSD turned an upright table of
/// digits upside down: BENCHMARKS.md, "Accuracy"; and said "upright" with confidence 0.6 of a
/// page upside down).
package enum UpsideDownPage {
    /// A reading with a mean word confidence below this is doubtful (chosen on the dev half of
    /// the real-layout corpus: upright pages 0.70 and above, the same pages upside down 0.51 and
    /// below).
    package static let doubtfulConfidence: Float = 0.6
    /// ...and fewer than this share of its letters in dictionary words (``dictionaryShare``;
    /// upside down at most 0.35 on dev; an upright table of abbreviations 0.27).
    package static let doubtfulShare = 0.5
    /// ...over at least this many letters (a page of digits alone says nothing).
    package static let minimumLetters = 30

    /// Whether the reading `blocks`, of mean word confidence `meanConfidence`, is doubtful enough
    /// to ask OSD whether the page is upside down.
    package static func isDoubtful(_ blocks: [RawBlock], meanConfidence: Float) -> Bool {
        guard meanConfidence < doubtfulConfidence else { return false }
        let words = RawBlock.wordsWithText(blocks)
        let letters = words.reduce(0) { count, word in
            let letters = word.text.filter(\.isLetter).count
            return count + (letters >= 3 ? letters : 0)
        }
        return letters >= minimumLetters && SidewaysPage.dictionaryShare(words) < doubtfulShare
    }

    /// Whether a doubtful page may be upside down, from OSD's finding (clockwise degrees and
    /// confidence; nil when OSD found too little text, or is not installed): unless OSD says
    /// another orientation with the confidence ``SidewaysPage/sureOrientation`` takes it at.
    package static func mayBeUpsideDown(osd: (degrees: Int, confidence: Float)?) -> Bool {
        guard let osd else { return true }
        return osd.degrees == 180 || osd.confidence < SidewaysPage.sureOrientation
    }

    /// Whether the reading of the page turned upside down (`turned`, of mean word confidence
    /// `confidence`) is kept over the first reading: it is no longer doubtful by its confidence,
    /// and more often in the dictionary (a photo read both ways is garbage both ways).
    package static func keepsTurned(_ turned: [RawBlock], confidence: Float, over first: [RawBlock]) -> Bool {
        confidence >= doubtfulConfidence && dictionaryShare(turned) > dictionaryShare(first)
    }

    /// Whether a page that may be upside down (``mayBeUpsideDown(osd:)``) is first read turned
    /// in a band only (``band(of:pageHeight:)``): unless OSD said upside down, which it said of
    /// 27 of the 28 dev pages upside down (the 28th "upright" at 0.58), and of none of the
    /// doubtful upright pages seen (aim916's page 27, its back showing through: "upright", 2.5).
    package static func checksBand(osd: (degrees: Int, confidence: Float)?) -> Bool {
        osd?.degrees != 180
    }

    /// The share of the page's height read turned to decide (``band(of:pageHeight:)``): 0.15,
    /// chosen on the dev half of the real-layout corpus upside down with OSD left out, so that
    /// the band alone decided all 26 pages: each was turned, as at 0.3, for half the work
    /// (BENCHMARKS.md, "Heavy pages first, and a narrower band for pages that may be upside down").
    package static let bandShare = 0.15

    /// The band across the page, ``bandShare`` of its height, that holds the most letters of
    /// the first reading's `words` (rows of the page as read; nil when no word has a letter).
    /// Read turned upside down it tells whether the page is (``turnedBandReadsBetter(_:than:)``),
    /// for a fraction of the work of the whole page (0.4 s against 1.3 s on aim916's page 27,
    /// whose band is its densest show-through): a page that reads doubtfully either way is then
    /// read turned only there.
    package static func band(of words: [RawWord], pageHeight: Int) -> Range<Int>? {
        let height = max(1, Int((Double(pageHeight) * bandShare).rounded()))
        let lettered = words.map { (top: $0.rect.top, bottom: $0.rect.bottom, letters: $0.text.filter(\.isLetter).count) }
            .filter { $0.letters > 0 }
        guard !lettered.isEmpty else { return nil }
        var best: (top: Int, letters: Int)?
        for start in Set(lettered.map(\.top)) {
            let top = max(0, min(start, pageHeight - height))
            let letters = lettered.reduce(0) { $0 + ($1.top >= top && $1.bottom <= top + height ? $1.letters : 0) }
            if best.map({ letters > $0.letters || (letters == $0.letters && top < $0.top) }) ?? true { best = (top, letters) }
        }
        guard let best else { return nil }
        return best.top..<min(pageHeight, best.top + height)
    }

    /// How much higher the turned band's mean word confidence must be than the first reading's
    /// in the band for the whole page to be read turned (``turnedBandReadsBetter(_:than:)``).
    package static let bandConfidenceGain: Float = 0.1

    /// Whether the band of ``band(of:pageHeight:)`` read turned upside down (`turned`) reads
    /// better than the first reading's words inside it (`upright`), so that the whole page is
    /// read turned and ``keepsTurned`` decides: by ``keepsTurned``'s own rule, or with a mean word
    /// confidence at least ``bandConfidenceGain`` higher (an upside-down table of abbreviations
    /// and numbers reads turned with no more dictionary words, but surely: 0.80 against 0.42).
    package static func turnedBandReadsBetter(_ turned: [RawWord], than upright: [RawWord]) -> Bool {
        (SidewaysPage.isConvincing(turned) && SidewaysPage.dictionaryShare(turned) > SidewaysPage.dictionaryShare(upright))
            || RawWord.meanConfidence(turned) >= RawWord.meanConfidence(upright) + bandConfidenceGain
    }

    /// The words of `words` wholly inside the rows `band`.
    package static func words(_ words: [RawWord], in band: Range<Int>) -> [RawWord] {
        words.filter { $0.rect.top >= band.lowerBound && $0.rect.bottom <= band.upperBound }
    }

    /// ``SidewaysPage/dictionaryShare(_:)`` of a reading.
    package static func dictionaryShare(_ blocks: [RawBlock]) -> Double {
        SidewaysPage.dictionaryShare(RawBlock.wordsWithText(blocks))
    }
}
