/// A page upside down: the check every level makes after the first reading.
///
/// Tesseract reads a page turned upside down as short words that are no words ("OTT", "ewe",
/// "GpvSeT"), with low confidence, and its layout looks like any page's (lines across it), so
/// only the reading tells. Where a reading is doubtful in both ways (``isDoubtful``), OSD is
/// asked; unless it is sure the page is upright or on its side (``mayBeUpsideDown``), the page
/// is read turned, and that reading is kept when its words are more often dictionary words and
/// it is no longer doubtful by its confidence (``keepsTurned``; OSD turned an upright table of
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

    /// ``SidewaysPage/dictionaryShare(_:)`` of a reading.
    package static func dictionaryShare(_ blocks: [RawBlock]) -> Double {
        SidewaysPage.dictionaryShare(RawBlock.wordsWithText(blocks))
    }
}
