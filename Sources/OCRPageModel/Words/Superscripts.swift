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
///
/// A mark read as no mark ("?", "”", "°") is read again on its own, enlarged
/// (``isMarkReading(_:)`` says which readings are a mark's): Tesseract reads a footnote's "9"
/// as "?" in its line, and as "9" alone at the size of a letter.
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
    /// A mark has at most this many components ("12" has two; "***" three), besides the commas
    /// between its figures ("1,2")...
    static let maximumComponents = 3
    /// ...whose bottom is at least this share of the letter height above the baseline (a raised
    /// comma's tail reaches below its figures' bottom).
    static let separatorRaisedBy = 0.2
    /// A mark read again alone is enlarged to about this many pixels tall (a letter's height
    /// where Tesseract reads best), at most ``maximumEnlargement`` times.
    package static let readingHeight = 32.0
    package static let maximumEnlargement = 4.0

    /// A mark to read again: where it is in the blocks, and the connected components of its ink.
    package struct Mark: Equatable {
        package var place: WordCombination.WordPath
        package var components: Int
        package init(place: WordCombination.WordPath, components: Int) {
            self.place = place; self.components = components
        }
    }

    /// `blocks` with each word that carries a raised mark at its end or start cut in two, given
    /// `components` (the boxes of the thresholded page's connected components, in the blocks'
    /// pixels), how many words were cut, and the marks whose text is no footnote mark's
    /// (``isMarkReading(_:)``: "?" for a raised "9", "”" for a raised "11"), to be read again
    /// on their own: those cut from their words and those Tesseract read as words of their own.
    package static func read(_ blocks: [RawBlock], components: [RawRect]) -> (blocks: [RawBlock], changed: Int, toRead: [Mark]) {
        let grid = DotLeaders.ComponentGrid(components)
        var blocks = blocks, changed = 0, toRead: [Mark] = []
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    let line = blocks[b].paragraphs[p].lines[l]
                    guard let letterHeight = line.letterHeight, line.baseline.count == 4 else { continue }
                    let raised = Raised(letterHeight: letterHeight, baseline: line.baselineY(at:))
                    var words: [RawWord] = []
                    for word in line.words {
                        let parts = split(word, grid: grid, raised: raised)
                        if parts.count > 1 {
                            changed += 1
                            let markIndex = parts[0].rect.bottom < parts[1].rect.bottom ? 0 : 1  // The mark is the higher part.
                            if !isMarkReading(parts[markIndex].text) {
                                toRead.append(Mark(place: WordCombination.WordPath(block: b, paragraph: p, line: l, word: words.count + markIndex),
                                                   components: grid.centred(in: parts[markIndex].rect).count))
                            }
                        } else if line.words.count >= 2, !isMarkReading(word.text), case let ink = grid.centred(in: word.rect), raised.isMarkAlone(ink) {
                            toRead.append(Mark(place: WordCombination.WordPath(block: b, paragraph: p, line: l, word: words.count), components: ink.count))
                        }
                        words += parts
                    }
                    blocks[b].paragraphs[p].lines[l].words = words
                }
            }
        }
        return (blocks, changed, toRead)
    }

    /// Whether `text`, a mark's reading, is what a footnote's mark can be: figures, several
    /// with commas between them ("1,2"), or the signs set for footnotes ("*", "†", "‡").
    package static func isMarkReading(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 2 * maximumComponents else { return false }
        if text.allSatisfy({ "*†‡".contains($0) }) { return true }
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        return groups.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// The mark's text in `reading`, a mark of `components` pieces of ink read again alone, or
    /// nil where it reads as no mark. A footnote's "11" set small reads as strokes ("ll"): in a
    /// reading of nothing else, one character for each piece of ink, they are ones (read "i",
    /// one character for two pieces, it is no mark).
    package static func markText(_ reading: String, components: Int) -> String? {
        if isMarkReading(reading) { return reading }
        let strokes = String(reading.map { "lIi|".contains($0) ? "1" : $0 })
        return isMarkReading(strokes) && strokes.count == components ? strokes : nil
    }

    /// The ink of a line's marks: raised clear of its baseline (at `baseline(x)`) and about half
    /// its `letterHeight` tall.
    struct Raised {
        let letterHeight: Double
        let baseline: (Int) -> Double

        /// A mark's figure or sign.
        func isFigure(_ c: RawRect) -> Bool {
            let height = Double(c.height)
            return Double(c.bottom) <= baseline((c.left + c.right) / 2) - raisedBy * letterHeight
                && height >= minimumHeight * letterHeight && height <= maximumHeight * letterHeight
        }

        /// A comma between two raised figures ("¹,²"): small, and clear of the baseline too.
        func isSeparator(_ c: RawRect) -> Bool {
            Double(c.bottom) <= baseline((c.left + c.right) / 2) - separatorRaisedBy * letterHeight
                && Double(c.height) < minimumHeight * letterHeight
        }

        /// The raised figures at the head of `ink` (in the order given), with the commas
        /// between them: none when the first is no figure.
        func run(_ ink: some Sequence<RawRect>) -> [RawRect] {
            var run: [RawRect] = [], separator: RawRect?
            for c in ink {
                if isFigure(c) {
                    run += (separator.map { [$0] } ?? []) + [c]
                    separator = nil
                } else if !run.isEmpty, separator == nil, isSeparator(c) {
                    separator = c
                } else {
                    break
                }
            }
            return run
        }

        /// Whether `ink`, a word's, is all one raised mark: a word Tesseract read apart from
        /// its neighbour, as "?" for a raised "2".
        func isMarkAlone(_ ink: [RawRect]) -> Bool {
            let sorted = ink.sorted { $0.left < $1.left }
            let run = run(sorted)
            return !run.isEmpty && run.count == sorted.count && run.filter(isFigure).count <= maximumComponents
        }
    }

    /// `word` as it is, or cut in two at a raised mark at its end or start.
    static func split(_ word: RawWord, grid: DotLeaders.ComponentGrid, raised: Raised) -> [RawWord] {
        // A word is cut by its symbols, which must spell it.
        guard word.symbols.count >= 2, word.symbols.map(\.text).joined() == word.text else { return [word] }
        let ink = grid.centred(in: word.rect).sorted { $0.left < $1.left }
        // The mark's components at the word's end (or start), and the word's own beside them:
        // some of them on the baseline, none over the mark.
        let end = Array(raised.run(ink.reversed()).reversed())
        let start = end.isEmpty ? raised.run(ink) : []
        let mark = end.isEmpty ? start : end
        let rest = end.isEmpty ? Array(ink.dropFirst(start.count)) : Array(ink.dropLast(end.count))
        let onBaseline = rest.contains { abs(Double($0.bottom) - raised.baseline(($0.left + $0.right) / 2)) < raisedBy * raised.letterHeight }
        guard !mark.isEmpty, mark.filter(raised.isFigure).count <= maximumComponents, onBaseline,
              let markBox = WordCombination.bounds(mark), let restBox = WordCombination.bounds(rest),
              let figures = WordCombination.bounds(mark.filter(raised.isFigure)),
              end.isEmpty ? markBox.right <= restBox.left : restBox.right <= markBox.left,
              // Its figures smaller than the word's ink and reaching its top or above (a footnote
              // figure in the dev half's tables: 0.04-0.35 letter heights above): a figure set
              // small and high, not a piece of one of the word's letters that a thermal print
              // broke off (a receipt's "CBP" was cut so, the top of its "P" alone).
              Double(figures.height) <= smallerThan * Double(restBox.height), figures.top <= restBox.top else { return [word] }
        // The symbols on the mark's side of its edge, by their centres; where none is (the
        // recogniser's boxes run a letter late: "Wang¹" read "Wang!" boxed its "!" from the
        // "g"), those that reach past the edge.
        let edge = end.isEmpty ? markBox.right : markBox.left
        let centre = { (s: RawSymbol) in (s.rect.left + s.rect.right) / 2 }
        var markCount = end.isEmpty ? word.symbols.prefix { centre($0) < edge }.count
                                    : word.symbols.reversed().prefix { centre($0) >= edge }.count
        if markCount == 0 {
            markCount = end.isEmpty ? word.symbols.prefix { $0.rect.left < edge }.count
                                    : word.symbols.reversed().prefix { $0.rect.right > edge }.count
        }
        guard markCount > 0, markCount < word.symbols.count else { return [word] }
        let markSymbols = end.isEmpty ? Array(word.symbols.prefix(markCount)) : Array(word.symbols.suffix(markCount))
        let restSymbols = end.isEmpty ? Array(word.symbols.dropFirst(markCount)) : Array(word.symbols.dropLast(markCount))
        // The word keeps a letter or digit, and the mark is no more than a few characters. An
        // asterisk read as one is the word's own character, set raised in the word's type
        // ("*Refers" in the dev half's NICS table), not a mark set apart.
        guard restSymbols.contains(where: { $0.text.contains { $0.isLetter || $0.isNumber } }), markSymbols.count <= max(maximumComponents, mark.count),
              !markSymbols.allSatisfy({ $0.text == "*" }) else { return [word] }
        let markWord = part(markSymbols, box: markBox, of: word), restWord = part(restSymbols, box: restBox, of: word)
        return end.isEmpty ? [markWord, restWord] : [restWord, markWord]
    }

    private static func part(_ symbols: [RawSymbol], box: RawRect, of word: RawWord) -> RawWord {
        RawWord(text: symbols.map(\.text).joined(), confidence: word.confidence, rect: box, fromDictionary: false, symbols: symbols)
    }
}
