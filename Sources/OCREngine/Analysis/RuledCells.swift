import OCRPageModel

/// The cells of a ruled grid that hold letters no reading took.
///
/// Tesseract's layout analysis drops short, isolated cells of a ruled table (a column of single
/// digits, "8", "1", "0", one per cell): plain `tesseract` too, with the rules painted out, and
/// the recovery passes over the region read them no better. Read alone, each cell reads right
/// ("8" at psm 7). So a letter still outside every word after the other readings, with a rule
/// above, below, left and right of it, makes the rectangle between those rules a region to
/// read again as one line (numbers and words only, `WordCombination(overKnownLetters:)`).
///
/// It drops taller cells too: the last column of a table ruled every five rows ("Totals" of a
/// firearm-checks table, 71,137 down to 38,541, each cell five numbers), plain `tesseract` as
/// well, and too few letters among the page's thousands for the lost-text guard. Such a cell is
/// read again as one block (``lostCells(around:rules:)``).
enum RuledCells {
    /// A cell at most this many of its letter's heights tall is read as one line; a taller
    /// "cell" holds several lines.
    static let maximumHeights = 3.5
    /// A cell at most this many of its letter's heights tall (about six lines) is read as one
    /// block; a taller "cell" is a frame around a block of text, not a table's cell, read as the
    /// page reads it. Chosen on the real-layout corpus's dev half: 8 misses a five-row cell
    /// (8.8 heights), 12 and 20 read the same words.
    static let maximumBlockHeights = 12.0
    /// At most this many cells are read again on a page: a budget in work, the same on a busy
    /// machine as on an idle one (a page of ruled forms has a few dozen).
    static let maximumCells = 200

    /// How a taller cell's reading as one block is combined with the page's: as the one-line
    /// cells' (numbers and words only, added where nothing was read), but a single digit does
    /// not count. A frame around a magazine's photo is such a "cell" too, and its edge read as
    /// "3" was added to a UNLV page plain `tesseract` reads without it.
    static var blockCombination: WordCombination {
        var combination = WordCombination(replacesWords: false, joinsDistantLines: true, overKnownLetters: true)
        combination.singleDigitsCount = false
        return combination
    }

    /// The cells around `letters` (still outside every word) inside `rules`: those to read as
    /// one line (at most ``maximumHeights`` tall) and those to read as one block (up to
    /// ``maximumBlockHeights``), each as ``cells(around:rules:heights:)`` gives them.
    static func lostCells(around letters: [RawRect], rules: [RawRect]) -> (lines: [RawRect], blocks: [RawRect]) {
        (cells(around: letters, rules: rules),
         cells(around: letters, rules: rules, heights: maximumHeights.nextUp...maximumBlockHeights))
    }

    /// The cells around `letters`, inside `rules` (horizontal ones wider than tall), each
    /// inset from its rules by an eighth of its letter's height (at least 2 pixels) and `heights`
    /// of those heights tall, top to bottom, none overlapping another, at most ``maximumCells``.
    static func cells(around letters: [RawRect], rules: [RawRect], heights: ClosedRange<Double> = 0...RuledCells.maximumHeights) -> [RawRect] {
        let horizontal = rules.filter { $0.width > $0.height }
        let vertical = rules.filter { $0.width <= $0.height }
        var cells: [RawRect] = []
        for letter in letters {
            let spansAcross = horizontal.filter { $0.left <= letter.left && $0.right >= letter.right }
            let spansDown = vertical.filter { $0.top <= letter.top && $0.bottom >= letter.bottom }
            guard let above = spansAcross.filter({ $0.bottom <= letter.top }).map(\.bottom).max(),
                  let below = spansAcross.filter({ $0.top >= letter.bottom }).map(\.top).min(),
                  let left = spansDown.filter({ $0.right <= letter.left }).map(\.right).max(),
                  let right = spansDown.filter({ $0.left >= letter.right }).map(\.left).min() else { continue }
            // Clear of the rules' blurred edges, which a reading takes for a bar ("Auto|").
            let inset = max(2, letter.height / 8)
            let cell = RawRect(left: left + inset, top: above + inset, right: right - inset, bottom: below - inset)
            // (a rule broken in two gives a word's letters different cells, overlapping: the
            // first is read, once)
            guard cell.width > 0, cell.height > 0, heights.contains(Double(cell.height) / Double(letter.height)),
                  !cells.contains(where: { $0.overlaps(cell) })
            else { continue }
            cells.append(cell)
        }
        return Array(cells.sorted { ($0.top, $0.left) < ($1.top, $1.left) }.prefix(maximumCells))
    }
}
