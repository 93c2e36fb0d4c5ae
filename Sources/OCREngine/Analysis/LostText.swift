import OCRLeptonica
import OCRPageModel
import OCRWire

/// Text the first pass left unread: the `accurate` level's guard against losing whole regions.
///
/// Tesseract's layout analysis sometimes drops text it has thresholded perfectly well: a receipt's
/// column of prices, a photographed page's paragraphs next to a dark corner, a table's cells taken
/// for an image. Those letters are still in its thresholded image, outside every recognised word.
/// So the guard counts the letter-sized dark components of that image (the page's own letter
/// height: from ``minimumHeight`` pixels to ``maximumHeight``, then within a factor of the
/// median) whose centres lie in no word with text. Where at least ``minimumShare`` of them do,
/// or a solid dark box holds no word, the parts of the page around them (``LostRegions``) are
/// read again (``BestLevel``'s recovery passes) and what those readings add is combined in; where
/// fewer do but some form a line (``lineLetters`` in a row), the parts around those lines. On a
/// page read enlarged too (``SmallText``), the share is that of the first reading: what the
/// enlarged reading found of it is no sign that the rest was not lost.
///
/// Measured with Tesseract's own output on the pages of `make accuracy`: 0-1% of the letters
/// outside words on every rendered page but two (the receipt 33%, the ruled table tagged 72 dpi
/// 64%, which plausible resolution already recovers), 0.2% and 3.5% on the UNLV pages, 0% on
/// Tesseract's test pages; on seven real phone photos 3-80% (a photo whose paragraphs beside a
/// dark corner were dropped: 67%).
enum LostText {
    /// Components shorter than this are specks, dots and accents, not letters.
    static let minimumHeight = 8
    /// Components taller than this are rules, pictures and a photo's dark surround.
    static let maximumHeight = 150
    /// A letter is no wider than this many times its height (a rule or an underline is).
    static let maximumAspect = 2.5
    /// Letters are within these factors of the median letter height.
    static let heightRange = 0.4...2.5
    /// The share of letters outside every word that marks text as lost.
    static let minimumShare = 0.1

    /// Dark boxes are this many times the letter height tall, or more.
    static let darkBoxHeights = 1.2...8.0
    /// ...and at least this share ink: text on a dark fill that thresholding made one black shape.
    static let darkBoxInk = 0.8

    /// What the guard found on a page: its letters, those outside every word, and dark boxes no
    /// word is in.
    struct Finding {
        /// Letter-sized components of the page (at its own letter height).
        var letters: Int
        /// The boxes of those whose centres are in no word with text.
        var lost: [RawRect]
        /// Solid components a few letters tall whose centres are in no word with text: text on
        /// a dark fill (a form's buttons, a shaded cell) that Otsu's threshold made all ink.
        var darkBoxes: [RawRect] = []
        /// The share of letters lost (0 when there are no letters).
        var share: Double { letters == 0 ? 0 : Double(lost.count) / Double(letters) }
        /// Whether text was lost outside the margins: at least ``minimumShare`` of the letters
        /// in ``elsewhere``, a dark box, or a whole line (``lostLines``).
        var isLost: Bool { isMostlyLost || !darkBoxes.isEmpty || !lostLines.isEmpty }
        /// At least ``minimumShare`` of the letters lost outside the margins, now or in the
        /// first reading (``lostByFirstReading``) with some still lost.
        var isMostlyLost: Bool {
            letters > 0 && (Double(elsewhere.count) / Double(letters) >= minimumShare || lostByFirstReading && !elsewhere.isEmpty)
        }
        /// Whether the first reading of the page, before the page read enlarged was combined with
        /// it, had lost at least ``minimumShare`` of its letters: the layout analysis drops text
        /// there (a table's columns of figures), and what the enlarged reading did not find is
        /// read again however little is left. (A blurred 120-dpi table lost 23% of its letters
        /// to its first reading and 5% after the enlarged one: its last columns stayed unread.)
        var lostByFirstReading = false
        /// Rows of at least ``lineLetters`` lost letters side by side, outside the margins: a line
        /// the layout analysis dropped whole (a receipt's column heads between two dashed rules),
        /// too few letters on a long page to reach ``minimumShare``; and the lost letters of a
        /// block taken for a picture (``imageLetters``).
        var lostLines: [[RawRect]] = []
        /// The lost letters to read again: all of ``elsewhere`` when much is lost or a dark box
        /// was found (as before lost lines were looked for), else those of the lost lines alone
        /// (a few specks elsewhere are no reason to read their parts of the page).
        var toRead: [RawRect] { isMostlyLost || !darkBoxes.isEmpty ? elsewhere : lostLines.flatMap { $0 } }
        /// The lost letters in the margins, read again on their own (``TurnedLines``' way:
        /// numbers and words only): those above every word or below every word, when they are
        /// at most ``marginLetters`` (a page number or a short running line, which Tesseract's
        /// layout analysis drops when it stands alone, "2" centred under the text, plain
        /// `tesseract` too); and those left or right of every word, when they are at most
        /// ``sideLetters`` (a transcript's or a pleading's line numbers, dropped all together).
        var margin: [RawRect] = []
        /// The lost letters not in ``margin``.
        var elsewhere: [RawRect] { lost.filter { !margin.contains($0) } }
    }

    /// At least this many lost letters in a row, each within ``LostRegions/reachAcross`` letter
    /// heights of the next, are a line dropped whole.
    /// Chosen on receipts 120-159 of SROIE (a set no choice was made on before): 5 and 8 read
    /// the same segments, 12 fewer.
    static let lineLetters = 8

    /// At least this many lost letters in a block taken for a picture are text lost.
    static let imageLetters = 8

    /// One word in this many may lie left or right of the edges of the text that a margin's
    /// letters beside it lie beyond: a few of the margin's own letters read do not move them (a
    /// transcript's last two line numbers, read with their lines by the page read enlarged, left
    /// the other 23 in no margin and unread). Above and below, every word counts: with
    /// those edges moved in too, a UNLV scan's letters above and below its text were too many
    /// for a margin, which left those beside it few enough to be one, its border's noise read as "al".
    static let edgeOutliers = 50

    /// At most this many lost letters above or below the text are a page number or running line.
    static let marginLetters = 24
    /// At most this many lost letters beside the text are a column of line numbers (1 to 28
    /// take 47 digits); more is a column of text the layout analysis dropped, lost text.
    static let sideLetters = 60

    /// The letter-sized components of `components` (from ``minimumHeight`` to ``maximumHeight``
    /// pixels tall, no wider than ``maximumAspect`` heights, within ``heightRange`` of their
    /// median height) and that median, or nil when there are none.
    static func letters(of components: [RawRect]) -> (letters: [RawRect], median: Double)? {
        let candidates = components.filter {
            (minimumHeight...maximumHeight).contains($0.height) && Double($0.width) <= maximumAspect * Double($0.height)
        }
        guard !candidates.isEmpty else { return nil }
        let median = Double(candidates.map(\.height).sorted()[candidates.count / 2])
        return (candidates.filter { heightRange.contains(Double($0.height) / median) }, median)
    }

    /// The median height of the letters of `pix` thresholded at mid-gray (``letters(of:)``), in
    /// pixels, or nil when it has none: the size of its text, for ``PageResolution``.
    static func letterHeight(of pix: Pix) throws(OCRError) -> Int? {
        guard let letters = letters(of: try pix.componentBoxes())?.letters, !letters.isEmpty else { return nil }
        return letters.map(\.height).sorted()[letters.count / 2]
    }

    /// The letters of `components` and those whose centres are in none of `words`' boxes; the
    /// components a few letters tall with `inkShare` at least ``darkBoxInk`` that no word is in;
    /// and, as lost lines, the lost letters in each of `images` (the boxes of blocks the layout
    /// analysis took for pictures) that holds at least ``imageLetters``.
    static func find(components: [RawRect], words: [RawWord], images: [RawRect] = [],
                     inkShare: (RawRect) throws(OCRError) -> Double = { _ in 0 }) throws(OCRError) -> Finding {
        guard let (letters, median) = letters(of: components) else { return Finding(letters: 0, lost: []) }
        let covered = CoverageGrid(words.map(\.rect))
        func unread(_ r: RawRect) -> Bool { !covered.contains(x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2) }
        var dark: [RawRect] = []
        for box in components where darkBoxHeights.contains(Double(box.height) / median) && box.width >= box.height && unread(box) {
            if try inkShare(box) >= darkBoxInk { dark.append(box) }
        }
        let lost = letters.filter(unread)
        var margin: [RawRect] = []
        // The text's edges: above and below, those of every word; beside, those of every word
        // but one in ``edgeOutliers`` each way.
        let rects = words.map(\.rect)
        let outliers = rects.count / edgeOutliers
        if let top = rects.map(\.top).min(), let bottom = rects.map(\.bottom).max() {
            let left = rects.map(\.left).sorted()[outliers], right = rects.map(\.right).sorted(by: >)[outliers]
            let aboveOrBelow = lost.filter { $0.bottom <= top || $0.top >= bottom }
            let beside = lost.filter { ($0.right <= left || $0.left >= right) && !aboveOrBelow.contains($0) }
            margin = (aboveOrBelow.count <= marginLetters ? aboveOrBelow : []) + (beside.count <= sideLetters ? beside : [])
        }
        var finding = Finding(letters: letters.count, lost: lost, darkBoxes: dark, margin: margin)
        let elsewhere = finding.elsewhere
        finding.lostLines = RawRect.groups(elsewhere, across: Int(LostRegions.reachAcross * median), down: 0)
            .filter { $0.count >= lineLetters }.map { $0.map { elsewhere[$0] } }
        // A block the layout analysis took for a picture, holding letters: a boxed table (a
        // receipt's framed GST summary), its short cells too far apart to be a lost line.
        for image in images {
            let inside = elsewhere.filter { image.contains(centreOf: $0) }
            if inside.count >= imageLetters { finding.lostLines.append(inside) }
        }
        return finding
    }

    /// Which points lie in some rectangle, answered from bands of rows: a page's thousands of
    /// letters against its thousands of words without comparing every pair.
    struct CoverageGrid {
        static let cell = 8
        private let rects: [Int: [RawRect]]  // Band (y / cell) -> the rectangles reaching into it.

        init(_ rects: [RawRect]) {
            var byRow: [Int: [RawRect]] = [:]
            for r in rects where r.width > 0 && r.height > 0 {
                for row in (r.top / Self.cell)...((r.bottom - 1) / Self.cell) { byRow[row, default: []].append(r) }
            }
            self.rects = byRow
        }

        func contains(x: Int, y: Int) -> Bool {
            (rects[y / Self.cell] ?? []).contains { $0.left <= x && x < $0.right && $0.top <= y && y < $0.bottom }
        }
    }
}
