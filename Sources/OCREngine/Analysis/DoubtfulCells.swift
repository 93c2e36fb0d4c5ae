import OCRPageModel

/// The cells of a ruled table whose words the first reading was unsure of, to read again alone.
///
/// In a table whose rules run close to its text (a medicines list in tight cells, two lines to a
/// cell, the first letter against the cell's rule), Tesseract's line finder takes a cell's lines
/// for parts of the rows around them and its rule for a letter: "Inj. Lignocaine OR Xylocaine"
/// comes out "ny). Menocaine un aylocaine", "Hydrochloride" as "Hydrochlorid", plain `tesseract`
/// alike. Cut out inside its rules and read alone as one block, the same cell reads right. So
/// each cell (rules above, below, left and right of a word, ``RuledCells/cells(around:rules:maximumHeights:)``)
/// holding a word read with less than ``doubtful`` confidence is read again as one text block,
/// and the readings are combined word by word (``combination``): the cell's words replace the
/// first reading's where they score higher.
enum DoubtfulCells {
    /// A word read with less confidence than this makes its cell one to read again.
    static let doubtful: Float = 0.8
    /// A cell at most this many of its word's heights tall is read (a few lines of a table's
    /// cell); a taller frame is a box around a block of text, read as the page reads it.
    static let maximumHeights = 6.0

    /// The cells to read again, top to bottom, none overlapping another: those around the
    /// doubtful words of `blocks` (``isDoubtful(_:)``) inside `rules`; at most
    /// ``RuledCells/maximumCells``.
    static func cells(in blocks: [RawBlock], rules: [RawRect]) -> [RawRect] {
        let doubtfulWords = RawBlock.wordsWithText(blocks).filter(isDoubtful)
        guard !doubtfulWords.isEmpty, !rules.isEmpty else { return [] }
        return RuledCells.cells(around: doubtfulWords.map(\.rect), rules: rules, heights: 0...maximumHeights)
    }

    /// Whether the first reading was unsure of `word`: letters or digits read with less than
    /// ``doubtful`` confidence. Not a word of two or more characters taller than wide: a
    /// column head printed turned a quarter is `SidewaysText`'s, read turned there.
    static func isDoubtful(_ word: RawWord) -> Bool {
        word.confidence < doubtful && word.text.contains { $0.isLetter || $0.isNumber }
            && (word.text.count < 2 || word.rect.width >= word.rect.height)
    }

    /// How a cell's reading is combined with the page's: word by word, replacing the first
    /// reading's words where it scores higher, but never only by its marks (a cell read alone
    /// loses an amount's small point as readily as a filtered page: "17.4%" read "174%").
    static var combination: WordCombination {
        var combination = WordCombination(replacesWords: true, joinsDistantLines: true)
        combination.keepsFirstPassMarks = true
        return combination
    }
}
