import OCRLeptonica
import OCRPageModel
import OCRWire

/// A table's vertical rule read as a bracket: the LSTM reads the line's image with the cell's
/// rule in it, and a number beside a rule comes out "0.02)" or "|2.78" (a ruled statistical
/// table of the real-layout corpus's dev half: a quarter of its numbers). Tesseract's layout
/// analysis removed the rule from its own thresholded image, but not from the line the LSTM
/// reads. The page still tells the two apart: a rule runs on above and below the text line, a
/// bracket does not. So a bracket or bar at either end of a number, with no partner in the word
/// (and a bar, square or curly bracket at either end of any other word: "[Anaesthetics"), is
/// dropped where the page shows an unbroken dark column through the word and on half a line
/// above or below it; so is a word of bars alone ("|" between two cells).
enum TableRules {
    /// Characters a rule is read as, at the end of a word and at its start.
    static let trailing: Set<Character> = [")", "]", "}", "|"]
    static let leading: Set<Character> = ["(", "[", "{", "|"]
    /// Brackets that a word of letters does not carry alone at one end as often as round ones
    /// ("(In", "lakhs)" are a label's own; "[Anaesthetics", "{Muscle", "PHC}" are a ruled cell's
    /// rule, in a list of medicines).
    static let squareOrCurly: Set<Character> = ["[", "]", "{", "}"]
    /// How far above and below the word a rule reaches, as a share of the word's height.
    static let reach = 0.5
    /// A bracket's box at most this wide has no ink of its own: the LSTM emitted it for a rule
    /// it saw before the word and boxed it on the next letter ("|Bhadrak", the rule 15 px left
    /// of the "B"), so the rule is looked for up to a word height away, outside the word.
    static let inklessWidth = 2
    /// A pixel darker than this is ink.
    static let inkLevel: UInt8 = 160

    /// Which end of `word` may be a rule: its first or last symbol a bracket or bar without a
    /// partner in the word, the rest a number ("0.02)", "|2.78", "1,234]"); or a bar, or a
    /// square or curly bracket without a partner, at either end of any other word ("|RURAL",
    /// "[Anaesthetics": a round bracket beside a word is its own, "(In", "lakhs)").
    static func suspectEnds(_ word: RawWord) -> (leading: Bool, trailing: Bool) {
        let text = word.text
        guard word.symbols.count >= 2, word.symbols.map(\.text).joined() == text, let first = text.first, let last = text.last else { return (false, false) }
        let opens = text.filter { "([{".contains($0) }.count, closes = text.filter { ")]}".contains($0) }.count
        let trailingRule = trailing.contains(last) && (last == "|" || closes > opens)
        let leadingRule = leading.contains(first) && (first == "|" || opens > closes)
        let core = text.dropFirst(leadingRule ? 1 : 0).dropLast(trailingRule ? 1 : 0)
        if core.contains(where: \.isNumber) && core.allSatisfy({ $0.isNumber || ".,-+$%€£".contains($0) }) {
            return (leadingRule, trailingRule)
        }
        let isWord = core.contains(where: \.isLetter)
        return (isWord && (first == "|" || squareOrCurly.contains(first) && leadingRule),
                isWord && (last == "|" || squareOrCurly.contains(last) && trailingRule))
    }

    /// Whether `word` is nothing but bars ("|", "||"): a rule read as a word of its own, dropped
    /// where the page shows the rule through it.
    static func isBars(_ word: RawWord) -> Bool {
        !word.text.isEmpty && word.text.allSatisfy { $0 == "|" }
    }

    /// Whether `grid` (a strip of the page around one end of a word, its rows from `reach`
    /// above the word to `reach` below; the word's own rows `word`) has a column dark through
    /// the word and on above it or below it to the strip's edge: a rule runs on past the text
    /// line, up or down (in a table's first or last row it stops at the table's edge, under
    /// half a line from the word: agstat's total row read "86.29|").
    static func hasRule(_ grid: GrayGrid, word: Range<Int>) -> Bool {
        guard grid.height > 0, !word.isEmpty, word.lowerBound >= 0, word.upperBound <= grid.height else { return false }
        return (0..<grid.width).contains { x in
            func dark(_ rows: Range<Int>) -> Bool { rows.allSatisfy { grid[x, $0] < inkLevel } }
            return dark(word) && (dark(0..<word.lowerBound) || dark(word.upperBound..<grid.height))
        }
    }

    /// `word` without the symbol at its start or end.
    static func dropping(_ end: Int, of word: RawWord) -> RawWord {
        var symbols = word.symbols
        symbols.remove(at: end)
        var out = word
        out.symbols = symbols
        out.text = symbols.map(\.text).joined()
        out.rect = WordCombination.bounds(symbols.map(\.rect)) ?? word.rect
        return out
    }
}

extension Recognizer {
    /// Every number of `blocks` with a rule read as a bracket or bar at an end
    /// (``TableRules``), that end dropped, judged on `page` (the image as recognised). Returns
    /// the blocks and how many words changed.
    func droppingTableRules(_ blocks: [RawBlock], page: Pix) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        var out = blocks
        var changed = 0
        for b in out.indices {
            for p in out[b].paragraphs.indices {
                for l in out[b].paragraphs[p].lines.indices {
                    var rules: [Int] = []  // Words that are only a rule read as bars.
                    for w in out[b].paragraphs[p].lines[l].words.indices {
                        var word = out[b].paragraphs[p].lines[l].words[w]
                        var ends = TableRules.suspectEnds(word)
                        let bars = TableRules.isBars(word)
                        guard ends.leading || ends.trailing || bars else { continue }
                        let h = word.rect.height, reach = Int(TableRules.reach * Double(h))
                        let band = (top: max(0, word.rect.top - reach), bottom: min(page.height, word.rect.bottom + reach))
                        // Around `x`, and up to a word height outside the word from a bracket
                        // without ink of its own (`outward`: -1 left, +1 right).
                        func ruleNear(_ x: Int, inkless: Bool, outward: Int) throws(OCRError) -> Bool {
                            let left = inkless && outward < 0 ? x - h : x - h / 3, right = inkless && outward > 0 ? x + h : x + h / 3
                            let strip = RawRect(left: max(0, left), top: band.top, right: min(page.width, right), bottom: band.bottom)
                            guard strip.width > 0, strip.height > 0 else { return false }
                            return TableRules.hasRule(try page.cropped(strip).toGray().grayGrid(),
                                                      word: (word.rect.top - band.top)..<(min(word.rect.bottom, band.bottom) - band.top))
                        }
                        if bars {
                            if try ruleNear((word.rect.left + word.rect.right) / 2, inkless: false, outward: 0) { rules.append(w) }
                            continue
                        }
                        // Several bars may stand for one rule ("|||TOTAL"): dropped while the rule is there.
                        while ends.trailing || ends.leading {
                            let first = word.symbols[0].rect, last = word.symbols[word.symbols.count - 1].rect
                            if ends.trailing, try ruleNear(last.right, inkless: last.width <= TableRules.inklessWidth, outward: 1) {
                                word = TableRules.dropping(word.symbols.count - 1, of: word)
                            } else if ends.leading, try ruleNear(first.left, inkless: first.width <= TableRules.inklessWidth, outward: -1) {
                                word = TableRules.dropping(0, of: word)
                            } else {
                                break
                            }
                            ends = TableRules.suspectEnds(word)
                        }
                        if word.text != out[b].paragraphs[p].lines[l].words[w].text {
                            out[b].paragraphs[p].lines[l].words[w] = word
                            changed += 1
                        }
                    }
                    for w in rules.reversed() { out[b].paragraphs[p].lines[l].words.remove(at: w) }
                    changed += rules.count
                }
            }
        }
        return (out, changed)
    }
}
