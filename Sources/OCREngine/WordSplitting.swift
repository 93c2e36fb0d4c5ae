import Foundation
import OCRWire

/// Run-together words split at the word gaps of Tesseract's layout analysis: the `accurate`
/// level's "legacy word boxes with LSTM text" (what Scribe.js calls its combined mode).
/// Pure: an LSTM word and the layout analysis's words over the same place in, pieces out.
///
/// The LSTM recogniser reads tightly set text well but often loses the spaces between tokens
/// ("onceistoo8535", "both59A"). Tesseract's layout analysis (its textord stage, which is the
/// legacy engine's word segmentation before any classifier runs) segments words by the gaps
/// between their blobs, against the spacing of the whole block. So the LSTM characters are kept
/// and cut at those gaps: a gap between two segmented words that falls between two of the
/// LSTM word's symbols splits the word there. On the tight-words page of `make accuracy` this
/// read 89.1% of the words, against 86.5% for the legacy recogniser's own word boxes (read line
/// by line at 2.7 times the CPU) and 59.4% for the LSTM words alone; it needs no legacy model,
/// so it works for every language.
///
/// A split is taken only when at least half of its pieces, and at least one, are plausible
/// (dictionary words, numbers or short codes: ``WordCombination/isPlausible(_:)``), so a name
/// or a code cut at a wide letter gap into pieces that are not words ("Wojcie" "chowski") stays
/// whole. Requiring every piece to be
/// plausible read 86.5% of the tight-words page ("73Cnot6A" stayed whole).
enum WordSplitting {
    /// Whether `word` may be run-together tokens: not plausible as it is, with at least
    /// ``minimumCharacters`` letters or digits and a symbol box for each character.
    static func isSuspect(_ word: RawWord) -> Bool {
        let alphanumerics = word.text.unicodeScalars.filter(CharacterSet.alphanumerics.contains).count
        return alphanumerics >= minimumCharacters && word.symbols.count >= 2 && !WordCombination.isPlausible(word)
    }

    /// Five: "he69C" and "Forfor" are run together; a three-letter token is as likely a code.
    static let minimumCharacters = 5

    /// The x positions of the gaps between consecutive `segmented` words (layout analysis's) that
    /// lie on `word`'s line and inside its width (the middle of each gap).
    static func gaps(in word: RawWord, segmented: [RawWord]) -> [Int] {
        let r = word.rect
        let onLine = segmented.filter { l in
            let shared = min(l.rect.bottom, r.bottom) - max(l.rect.top, r.top)
            let overlap = min(l.rect.right, r.right) - max(l.rect.left, r.left)
            return overlap > 0 && Double(shared) >= 0.5 * Double(min(l.rect.height, r.height))
        }.sorted { $0.rect.left < $1.rect.left }
        var gaps: [Int] = []
        // Touching or slightly overlapping boxes (tight or italic text) still end one word.
        for (a, b) in zip(onLine, onLine.dropFirst()) {
            let middle = (a.rect.right + b.rect.left) / 2
            if middle > r.left, middle < r.right { gaps.append(middle) }
        }
        return gaps
    }

    /// `word` cut at `gaps` between its symbols, or nil when no gap falls between two symbols or
    /// the pieces are not plausible enough. `isWord` says whether a piece (without surrounding
    /// punctuation) is a dictionary word.
    static func split(_ word: RawWord, at gaps: [Int], isWord: (String) -> Bool) -> [RawWord]? {
        let symbols = word.symbols
        guard symbols.count >= 2, symbols.map(\.text).joined() == word.text else { return nil }
        // A cut after symbol i when a gap lies between the centres of symbols i and i + 1.
        var cuts = Set<Int>()
        for gap in gaps {
            for i in 0..<(symbols.count - 1) {
                let here = (symbols[i].rect.left + symbols[i].rect.right) / 2
                let next = (symbols[i + 1].rect.left + symbols[i + 1].rect.right) / 2
                if here < gap, gap <= next { cuts.insert(i) }
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
        return pieces
    }
}

extension Recognizer {
    /// The `accurate` (and `best`) level's word gaps: on a page with a suspect word
    /// (``WordSplitting/isSuspect(_:)``), Tesseract's layout analysis is run once more on the
    /// image the first pass read, through `api` (the first pass's engine, so its dictionary
    /// judges the pieces), and every suspect word is cut at that analysis's word gaps. Layout
    /// analysis is roughly a fifth of a page's recognition time and cannot be interrupted.
    /// Returns the blocks and how many words were split.
    func splitRunTogetherWords(_ blocks: [RawBlock], pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings,
                               state: Monitor.State, costs: inout StepCosts) throws(OCRError) -> (blocks: [RawBlock], splits: Int) {
        let suspect = blocks.contains { $0.paragraphs.contains { $0.lines.contains { $0.words.contains(where: WordSplitting.isSuspect) } } }
        guard suspect, !state.shouldStop() else { return (blocks, 0) }
        api.clear()
        defer { api.clear() }
        try settings.apply(to: api)
        api.setImage(pix, dpi: dpi)
        let segmented = try costs.measure("word_gaps") { RawBlock.allWords(api.analyseLayout(symbols: false)) }
        var out = blocks
        var splits = 0
        for b in out.indices {
            for p in out[b].paragraphs.indices {
                for l in out[b].paragraphs[p].lines.indices {
                    var words: [RawWord] = []
                    for word in out[b].paragraphs[p].lines[l].words {
                        if WordSplitting.isSuspect(word),
                           let pieces = WordSplitting.split(word, at: WordSplitting.gaps(in: word, segmented: segmented), isWord: api.isValidWord) {
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
