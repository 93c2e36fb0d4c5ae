/// A footnote's mark set raised and small against a word ("breastfed⁹", "ARI¹⁰", "24.91²", and
/// "¹¹Oral" opening the footnote itself), read apart from the word.
///
/// Tesseract reads such a mark into its word, and mostly as something else: "breastfed?",
/// "ARI?", "ORS”", "diarrhoea’?", "24.912" (a figure that is no longer the table's), "“Oral";
/// plain `tesseract` too. Word for word the word is then wrong, and so is the mark. The
/// thresholded image tells the mark apart: its ink stands well clear of the line's baseline,
/// half a letter tall or so, at the word's end (or start), with the word's own ink on the
/// baseline beside it. Such a word is cut in two there, each part boxed by its own ink, each
/// keeping the symbols Tesseract placed in it. Quotes and apostrophes are raised too, but less
/// than ``minimumHeight`` tall: they stay in their words, as does an asterisk read as one.
package enum Superscripts {
    /// A mark's bottom is at least this share of the line's letter height above the baseline
    /// (a footnote figure's sits at about 0.6; a letter's descender-free bottom on it)...
    static let raisedBy = 0.35
    /// ...and its ink this share of the letter height tall at least (quote marks and apostrophes
    /// on the dev half's clean pages are 0.30-0.37, footnote figures 0.55-0.6) and at most (a
    /// capital is nearly the whole letter height).
    static let minimumHeight = 0.45
    static let maximumHeight = 0.75
    /// A mark is at most this share of its word's ink tall.
    static let smallerThan = 0.8
    /// A mark has at most this many components ("12" has two; "***" three).
    static let maximumComponents = 3

    /// `blocks` with each word that carries a raised mark at its end or start cut in two, given
    /// `components` (the boxes of the thresholded page's connected components, in the blocks'
    /// pixels), and how many words were cut.
    package static func read(_ blocks: [RawBlock], components: [RawRect]) -> (blocks: [RawBlock], changed: Int) {
        let grid = DotLeaders.ComponentGrid(components)
        var blocks = blocks, changed = 0
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    let line = blocks[b].paragraphs[p].lines[l]
                    guard let letterHeight = line.letterHeight, line.baseline.count == 4 else { continue }
                    var words: [RawWord] = []
                    for word in line.words {
                        let parts = split(word, grid: grid, letterHeight: letterHeight, baseline: line.baselineY(at:))
                        words += parts
                        changed += parts.count > 1 ? 1 : 0
                    }
                    blocks[b].paragraphs[p].lines[l].words = words
                }
            }
        }
        return (blocks, changed)
    }

    /// `word` as it is, or cut in two at a raised mark at its end or start.
    static func split(_ word: RawWord, grid: DotLeaders.ComponentGrid, letterHeight: Double, baseline: (Int) -> Double) -> [RawWord] {
        // A word is cut by its symbols, which must spell it.
        guard word.symbols.count >= 2, word.symbols.map(\.text).joined() == word.text else { return [word] }
        let ink = grid.centred(in: word.rect).sorted { $0.left < $1.left }
        func isRaised(_ c: RawRect) -> Bool {
            let height = Double(c.height)
            return Double(c.bottom) <= baseline((c.left + c.right) / 2) - raisedBy * letterHeight
                && height >= minimumHeight * letterHeight && height <= maximumHeight * letterHeight
        }
        // The mark's components at the word's end (or start), and the word's own beside them:
        // some of them on the baseline, none over the mark.
        let end = Array(ink.reversed().prefix { isRaised($0) }.reversed())
        let start = end.isEmpty ? Array(ink.prefix { isRaised($0) }) : []
        let mark = end.isEmpty ? start : end
        let rest = end.isEmpty ? Array(ink.dropFirst(start.count)) : Array(ink.dropLast(end.count))
        let onBaseline = rest.contains { abs(Double($0.bottom) - baseline(($0.left + $0.right) / 2)) < raisedBy * letterHeight }
        guard !mark.isEmpty, mark.count <= maximumComponents, onBaseline,
              let markBox = WordCombination.bounds(mark), let restBox = WordCombination.bounds(rest),
              end.isEmpty ? markBox.right <= restBox.left : restBox.right <= markBox.left,
              // Smaller than the word's ink and reaching its top or above (a footnote figure in
              // the dev half's tables: 0.04-0.35 letter heights above): a figure set small and
              // high, not a piece of one of the word's letters that a thermal print broke off
              // (a receipt's "CBP" was cut so, the top of its "P" alone).
              Double(markBox.height) <= smallerThan * Double(restBox.height), markBox.top <= restBox.top else { return [word] }
        // The symbols on each side of the mark's edge, by their centres.
        let edge = end.isEmpty ? markBox.right : markBox.left
        let before = word.symbols.prefix { ($0.rect.left + $0.rect.right) / 2 < edge }
        let after = word.symbols.dropFirst(before.count)
        guard !before.isEmpty, !after.isEmpty else { return [word] }
        let (markSymbols, restSymbols) = end.isEmpty ? (Array(before), Array(after)) : (Array(after), Array(before))
        // The word keeps a letter or digit, and the mark is no more than a few characters. An
        // asterisk read as one is the word's own character, set raised in the word's type
        // ("*Refers" in the dev half's NICS table), not a mark set apart.
        guard restSymbols.contains(where: { $0.text.contains { $0.isLetter || $0.isNumber } }), markSymbols.count <= maximumComponents,
              !markSymbols.allSatisfy({ $0.text == "*" }) else { return [word] }
        let markWord = part(markSymbols, box: markBox, of: word), restWord = part(restSymbols, box: restBox, of: word)
        return end.isEmpty ? [markWord, restWord] : [restWord, markWord]
    }

    private static func part(_ symbols: [RawSymbol], box: RawRect, of word: RawWord) -> RawWord {
        RawWord(text: symbols.map(\.text).joined(), confidence: word.confidence, rect: box, fromDictionary: false, symbols: symbols)
    }
}
