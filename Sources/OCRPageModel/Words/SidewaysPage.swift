/// A page lying on its side: the check every level makes after layout analysis.
///
/// A landscape table printed across a portrait page, or a page scanned a quarter turn off, is to
/// Tesseract's layout analysis a page of vertical text lines. It reads such lines turned, and
/// for a Latin script often the wrong way round ("Aeving yeedey" for "Survey Repeat"), and
/// plain `tesseract` does the same. Most of such a page's text runs down it, which no upright
/// page shows (a rotated column head or a margin stamp is a few short lines beside many across);
/// the layout analysis that recognition runs anyway tells, before any word is read.
/// Which way to turn it OSD says when it is sure, and reading says otherwise (``TurnedLines``
/// reads a few turned lines of an upright page again; this turns the whole page).
package enum SidewaysPage {
    /// A line whose baseline is at least this many times longer down the page than across it
    /// runs down it (as ``TurnedLines/steepness``).
    package static let steepness = TurnedLines.steepness
    /// At least this many lines run down the page.
    package static let minimumTurnedLines = 3
    /// OSD's orientation confidence from which its way is taken without reading. Chosen on the
    /// dev half of the real-layout corpus turned a quarter each way (52 pages): OSD was wrong
    /// twice, at 2.2 and 3.5, and right at 4.2 and above (BENCHMARKS.md, "Pages lying on their side").
    package static let sureOrientation: Float = 4

    /// Whether most of the text of `blocks` (a layout analysis, words with or without text)
    /// runs down the page: the lines running down it are longer in all than those across it,
    /// and there are at least ``minimumTurnedLines`` of them.
    package static func isSideways(_ blocks: [RawBlock]) -> Bool {
        var down = 0, across = 0, turnedLines = 0
        for line in blocks.flatMap(\.paragraphs).flatMap(\.lines) where line.baseline.count == 4 {
            let dx = abs(line.baseline[2] - line.baseline[0]), dy = abs(line.baseline[3] - line.baseline[1])
            if dy > steepness * dx {
                down += line.rect.height
                turnedLines += 1
            } else if dx > steepness * dy {
                across += line.rect.width
            }
        }
        return turnedLines >= minimumTurnedLines && down > across
    }

    /// The share of the page's width read turned first (``strip(of:pageWidth:)``).
    package static let stripShare = 0.3

    /// The strip down the page, ``stripShare`` of its width, that holds the most of the area of
    /// the layout's `words` (boxes, read or not; nil when there are none). Read turned each way
    /// first, it decides for a fraction of the work of reading the whole page twice, most of
    /// which goes on the way that reads the text upside down (as garbage, two to three times
    /// slower than text: 19 s of a 32 s page in one case, BENCHMARKS.md "A page on its side
    /// decided from a strip").
    package static func strip(of words: [RawWord], pageWidth: Int) -> Range<Int>? {
        let width = max(1, Int((Double(pageWidth) * stripShare).rounded()))
        let boxes = words.map(\.rect).filter { $0.width > 0 && $0.height > 0 }
        guard !boxes.isEmpty else { return nil }
        var best: (left: Int, area: Int)?
        for start in Set(boxes.map(\.left)) {
            let left = max(0, min(start, pageWidth - width))
            let area = boxes.reduce(0) { $0 + max(0, min($1.right, left + width) - max($1.left, left)) * $1.height }
            if best.map({ area > $0.area || (area == $0.area && left < $0.left) }) ?? true { best = (left, area) }
        }
        guard let best else { return nil }
        return best.left..<min(pageWidth, best.left + width)
    }

    /// Whether words read turned read as upright text does: convincing (``isConvincing``), and at
    /// least ``UpsideDownPage/doubtfulShare`` of their letters in dictionary words (upside down,
    /// 0.10-0.35 on the pages measured). Turned the other way, the same text is upside down and
    /// cannot read better, so such a reading decides the turn alone.
    package static func readsUpright(_ words: [RawWord]) -> Bool {
        isConvincing(words) && dictionaryShare(words) >= UpsideDownPage.doubtfulShare
    }

    /// The quarter turns clockwise (1 or 3) that make a page upright, from its words read
    /// turned a quarter clockwise and a quarter counter-clockwise: the reading whose words are
    /// more often dictionary words (``dictionaryShare``), when it reads as a page of text does
    /// (``isConvincing``); nil otherwise (a photo of a circuit board, its pins labelled down
    /// the board, is no page lying on its side).
    package static func uprightingTurns(clockwise: [RawWord], counterclockwise: [RawWord]) -> Int? {
        let (right, left) = (dictionaryShare(clockwise), dictionaryShare(counterclockwise))
        let (turns, words) = right >= left ? (1, clockwise) : (3, counterclockwise)
        return max(right, left) > 0 && isConvincing(words) ? turns : nil
    }

    /// Whether a reading turned reads as a page of text does: a mean word confidence of at least
    /// ``UpsideDownPage/doubtfulConfidence`` (upright pages of the dev half read at 0.70 and
    /// above, upside down at 0.51 and below).
    package static func isConvincing(_ words: [RawWord]) -> Bool {
        !words.isEmpty && words.reduce(0) { $0 + $1.confidence } / Float(words.count) >= UpsideDownPage.doubtfulConfidence
    }

    /// The share of the letters of words of three letters or more that are in dictionary words.
    /// Read upright, 0.64-0.92 of them on the pages it was measured on; upside down, 0.10-0.35,
    /// since Tesseract makes many short words of the glyphs turned ("OTT", "ewe", "rans"). The
    /// number of sure letters does not tell (upside down, a numeric table gave more of them),
    /// nor sure characters (digits upside down are read as confidently as upright).
    package static func dictionaryShare(_ words: [RawWord]) -> Double {
        var letters = 0, inDictionary = 0
        for word in words {
            let count = word.text.filter(\.isLetter).count
            guard count >= 3 else { continue }
            letters += count
            if word.fromDictionary { inDictionary += count }
        }
        return letters == 0 ? 0 : Double(inDictionary) / Double(letters)
    }

    /// The quarter turns clockwise that make a page upright, from OSD's finding of how far it
    /// is turned clockwise: only a quarter turn either way (a page whose lines run down it is
    /// not upright or upside down, whatever OSD says); nil otherwise.
    package static func uprightingTurns(osdDegrees: Int) -> Int? {
        switch osdDegrees {
        case 90: 3
        case 270: 1
        default: nil
        }
    }
}
