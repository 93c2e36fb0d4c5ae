import OCRLeptonica
import OCRPageModel
import Foundation
import OCRWire

/// Run-together words split where the page shows a space inside them: the `accurate` level's
/// word boundaries from the image. Pure: an LSTM word and the places of the spaces in, pieces out.
///
/// The LSTM recogniser reads tightly set text well but often loses the spaces between tokens
/// ("onceistoo8535", "both59A"). The page still shows them: a run of blank columns inside the
/// word, in Tesseract's own thresholded image, as wide as the line's other spaces
/// (``WordGaps``). So the LSTM characters are kept and cut there, at the symbol boxes either
/// side. This used to take Tesseract's layout analysis run a second time for its word gaps
/// (20-50% of a page's recognition on the real-layout corpus); the thresholded image is already
/// there, and on the corpus's development half the two read the same words but on three pages
/// (83.54% against 83.53% mean per page).
///
/// A split is taken only when at least half of its pieces, and at least one, are plausible
/// (dictionary words, numbers or short codes: ``WordCombination/isPlausible(_:)``), so a name
/// or a code cut at a wide letter gap into pieces that are not words ("Wojcie" "chowski") stays
/// whole; and when at most one piece is a single character (letter-spaced text, or a drawing
/// read as letters, falls apart into letters, and the words were not run together).
enum WordSplitting {
    /// Where a word may be cut.
    enum Cuts: Equatable {
        /// Between any two of its symbols: a word that is not plausible as it is.
        case anywhere
        /// Only where digits meet letters: a plausible word of both ("13A", "5mm"), whose
        /// dictionary or reference shape says nothing about a space the image shows between
        /// the number and the letters (a parts table's "13 A" cells read "13A" throughout).
        case betweenDigitsAndLetters
    }

    /// Where `word` may be cut, nil when it is whole: run-together tokens when it is not
    /// plausible as it is and has at least ``minimumCharacters`` letters or digits; a number
    /// run into letters, or letters into a number, whatever its length. Either needs a symbol
    /// box for each character.
    static func cuts(for word: RawWord) -> Cuts? {
        guard word.symbols.count >= 2, !WordCombination.isAddress(word.text) else { return nil }
        let alphanumerics = word.text.unicodeScalars.filter(CharacterSet.alphanumerics.contains).count
        if alphanumerics >= minimumCharacters, !WordCombination.isPlausible(word) { return .anywhere }
        let symbols = word.symbols
        return (0..<(symbols.count - 1)).contains { digitsMeetLetters(symbols[$0].text, symbols[$0 + 1].text) } ? .betweenDigitsAndLetters : nil
    }

    /// Whether `left` ends in a digit and `right` starts with a letter, or the other way round.
    static func digitsMeetLetters(_ left: String, _ right: String) -> Bool {
        guard let a = left.last, let b = right.first else { return false }
        return (a.isNumber && b.isLetter) || (a.isLetter && b.isNumber)
    }

    /// The middles of those of `runs` inside `word` that are spaces, at least `width` wide
    /// (``WordGaps/spaceWidth(in:runs:)``) once the blank that a narrow mark beside the run
    /// carries within its own advance is taken off. Digits are set tabular, each as wide as the
    /// next, so a "1" stands in a digit's width with blank on either side, and a point or a colon
    /// keeps more room around its dot than a letter does: "NL810433941B01", "SDMPP373MPP15" and
    /// "doi:10.1088" were cut at the "1" or after the point where plain `tesseract` read them
    /// whole (the dev invoices and papers, BENCHMARKS.md "A wider corpus"). A space must also be
    /// ``letterGapShare`` times the median of the word's other gaps.
    static func spaces(in word: RawWord, runs: [BlankRun], width: Double) -> [Int] {
        let symbols = word.symbols
        let full = symbols.filter { $0.text.count == 1 && ($0.text.first!.isLetter || $0.text.first!.isNumber) && !isNarrow($0.text) }
            .map { Double($0.rect.width) }.sorted()
        let typical = full.isEmpty ? nil : full[full.count / 2]
        func extra(_ symbol: RawSymbol) -> Double {
            guard let typical, isNarrow(symbol.text) else { return 0 }
            return max(0, (typical - Double(symbol.rect.width)) / 2)
        }
        let inside = runs.filter { word.rect.left < ($0.left + $0.right) / 2 && ($0.left + $0.right) / 2 < word.rect.right }
        return inside.indices.compactMap { i in
            let run = inside[i], middle = (run.left + run.right) / 2
            let before = symbols.last { ($0.rect.left + $0.rect.right) / 2 < middle }
            let after = symbols.first { ($0.rect.left + $0.rect.right) / 2 >= middle }
            let taken = (before.map(extra) ?? 0) + (after.map(extra) ?? 0)
            // A face set wide ("INGBNL2A" in Verdana) has letter gaps near a one-word line's
            // space, a fifth of its height: a space inside a word stands out from its other gaps.
            let others = inside.indices.filter { $0 != i }.map { inside[$0].width }.sorted()
            let letterGap = others.isEmpty ? 0 : Double(others[others.count / 2])
            return Double(run.width) - taken >= max(width, letterGapShare * letterGap) ? middle : nil
        }
    }

    /// A space inside a word is at least this many times the median of the word's other gaps.
    /// Chosen on the dev invoices and the real-layout dev half (BENCHMARKS.md, "A wider corpus").
    static let letterGapShare = 1.5

    /// A mark narrower than its advance: the digit one, a point, a comma, a colon, a semicolon.
    static func isNarrow(_ text: String) -> Bool { ["1", ".", ",", ":", ";"].contains(text) }

    /// Five: "he69C" and "Forfor" are run together; a three-letter token is as likely a code.
    static let minimumCharacters = 5

    /// `word` cut at `gaps` between its symbols (where `cuts` allows), or nil when no gap falls
    /// between two symbols or the pieces are not plausible enough. `isWord` says whether a piece
    /// (without surrounding punctuation) is a dictionary word.
    static func split(_ word: RawWord, at gaps: [Int], cuts allowed: Cuts, isWord: (String) -> Bool) -> [RawWord]? {
        let symbols = word.symbols
        guard symbols.count >= 2, symbols.map(\.text).joined() == word.text else { return nil }
        // A cut after symbol i when a gap lies between the centres of symbols i and i + 1.
        var cuts = Set<Int>()
        for gap in gaps {
            for i in 0..<(symbols.count - 1) {
                let here = (symbols[i].rect.left + symbols[i].rect.right) / 2
                let next = (symbols[i + 1].rect.left + symbols[i + 1].rect.right) / 2
                guard here < gap, gap <= next else { continue }
                if allowed == .anywhere || digitsMeetLetters(symbols[i].text, symbols[i + 1].text) { cuts.insert(i) }
            }
        }
        guard !cuts.isEmpty else { return nil }
        var pieces: [RawWord] = []
        var start = 0
        for end in cuts.sorted() + [symbols.count - 1] {
            let part = Array(symbols[start...end])
            start = end + 1
            let text = part.map(\.text).joined()
            guard let rect = WordCombination.bounds(part.map(\.rect)), text.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
            var piece = RawWord(text: text, confidence: word.confidence, rect: rect, symbols: part)
            let core = WordCombination.core(text)
            piece.fromDictionary = isWord(core) || isWord(core.lowercased())
            pieces.append(piece)
        }
        let plausible = pieces.filter(WordCombination.isPlausible).count
        guard plausible >= 1, 2 * plausible >= pieces.count else { return nil }
        // Letter-spaced text, or a drawing read as letters, has a gap after every character:
        // cut there, it falls apart into letters. Run-together words leave pieces of several.
        guard pieces.filter({ $0.symbols.count == 1 }).count <= 1 else { return nil }
        return pieces
    }
}

extension Recognizer {
    /// The `accurate` (and `best`) level's word gaps: every word that may be cut
    /// (``WordSplitting/cuts(for:)``) is cut where the page shows a space inside it, a run of
    /// blank columns in Tesseract's own thresholded image (``WordGaps``); `api` (the first
    /// pass's engine) judges the pieces with its dictionary. Returns the blocks and how many
    /// words were split.
    func splitRunTogetherWords(_ blocks: [RawBlock], thresholded: Pix, api: TessAPI) throws(OCRError) -> (blocks: [RawBlock], splits: Int) {
        var out = blocks
        var splits = 0
        for b in out.indices {
            for p in out[b].paragraphs.indices {
                for l in out[b].paragraphs[p].lines.indices {
                    let line = out[b].paragraphs[p].lines[l]
                    guard line.words.contains(where: { WordSplitting.cuts(for: $0) != nil }) else { continue }
                    let runs = WordGaps.blankRuns(try thresholded.inkedColumns(in: line.rect), from: max(0, line.rect.left))
                    guard let width = WordGaps.spaceWidth(in: line.words, runs: runs) else { continue }
                    var words: [RawWord] = []
                    for word in line.words {
                        if let allowed = WordSplitting.cuts(for: word),
                           let pieces = WordSplitting.split(word, at: WordSplitting.spaces(in: word, runs: runs, width: width),
                                                            cuts: allowed, isWord: api.isValidWord) {
                            words += pieces
                            splits += 1
                        } else {
                            words.append(word)
                        }
                    }
                    out[b].paragraphs[p].lines[l].words = words
                }
            }
        }
        return (out, splits)
    }
}
