/// Lower case from the letters' heights, where the shapes are the same.
///
/// "c", "o", "s", "u", "v", "w", "x", "z" and their capitals differ only in size, and
/// Tesseract's recogniser takes the small for the capital ("Of", "With", "Children" in
/// mid-sentence, "COSt", plain `tesseract` too). The line shows which: a lower-case letter
/// reaches the x-height, a capital the cap height. Each line's two heights are measured from the
/// letters whose case is not in doubt, and a doubtful capital no taller than the x-height is
/// read lower case. Never the other way: a symbol's box from a second reading may span its
/// whole word, and a tall box is no evidence. A word is rewritten only when its case comes out
/// whole: all lower or capitalised ("JoHN" from small capitals is left as read).
package enum LetterCase {
    /// Letters whose two cases have one shape.
    static let doubtful: Set<Character> = ["C", "O", "S", "U", "V", "W", "X", "Z"]
    /// Letters that reach the x-height and no higher, whose case is not in doubt.
    static let xHeightLetters: Set<Character> = ["a", "e", "m", "n", "r"]
    /// Letters that reach the cap height (or an ascender's), whose case is not in doubt.
    static let tallLetters: Set<Character> = ["b", "d", "f", "h", "k", "l", "A", "B", "D", "E", "F", "G", "H", "K", "L", "N", "R", "T"]
    /// Each height from at least this many letters of the line.
    static let minimumSamples = 3
    /// Capitals at least this many times the x-height: letters whose boxes tell the two apart
    /// (common faces measure 1.3-1.5; boxes from a second reading may span the whole word).
    static let minimumRatio = 1.25
    /// A doubtful capital up to this share of the way from the x-height to the cap height, and
    /// at most ``closeToX`` times the x-height (a letter's box may run long), is lower case.
    static let split = 0.35
    static let closeToX = 1.15
    /// Symbol boxes narrower than this carry no ink of their own (a character the recogniser
    /// placed on its neighbour).
    static let smallestWidth = 3

    /// `blocks` with doubtful capitals as small as lower case read so, and how many words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks, changed = 0
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    let line = blocks[b].paragraphs[p].lines[l]
                    let heights = Heights(line.words.flatMap(\.symbols))
                    for w in line.words.indices {
                        if let word = cased(line.words[w], line: heights) {
                            blocks[b].paragraphs[p].lines[l].words[w] = word
                            changed += 1
                        }
                    }
                }
            }
        }
        return (blocks, changed)
    }

    /// The x-height and the cap height of some symbols, each the median of the letters whose
    /// case is not in doubt, when there are enough of them.
    struct Heights {
        var x: Double?, cap: Double?

        init(_ symbols: [RawSymbol], minimum: Int = minimumSamples) {
            let symbols = symbols.filter { $0.rect.width >= smallestWidth && $0.text.count == 1 }
            func median(_ letters: Set<Character>) -> Double? {
                let heights = symbols.filter { letters.contains($0.text.first!) }.map { Double($0.rect.height) }.sorted()
                return heights.count >= minimum ? heights[(heights.count - 1) / 2] : nil  // The lower median.
            }
            x = median(xHeightLetters)
            cap = median(tallLetters)
        }
    }

    /// `word` with its doubtful capitals no taller than its x-height in lower case, or nil when
    /// nothing changes, its letters do not tell the x-height from the cap height, or its case
    /// would not come out whole. The word's own letters are the measure where it has them (a
    /// line may set a label and its value in two sizes), the line's where it has not ("Of").
    static func cased(_ word: RawWord, line: Heights) -> RawWord? {
        guard word.symbols.map(\.text).joined() == word.text else { return nil }
        let own = Heights(word.symbols, minimum: 1)
        guard let x = own.x ?? line.x, let cap = own.cap ?? line.cap, cap >= minimumRatio * x else { return nil }
        let limit = min(x + split * (cap - x), closeToX * x)
        var symbols = word.symbols
        for i in symbols.indices {
            guard symbols[i].text.count == 1, let c = symbols[i].text.first, doubtful.contains(c),
                  symbols[i].rect.width >= smallestWidth, Double(symbols[i].rect.height) <= limit else { continue }
            symbols[i].text = c.lowercased()
        }
        let text = symbols.map(\.text).joined()
        guard text != word.text, isWhole(text) else { return nil }
        var out = word
        out.symbols = symbols
        out.text = text
        return out
    }

    /// Whether the letters of `text` are all lower case or capitalised.
    static func isWhole(_ text: String) -> Bool {
        text.filter(\.isLetter).dropFirst().allSatisfy(\.isLowercase)
    }
}
