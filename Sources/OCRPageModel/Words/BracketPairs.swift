/// A round bracket read as a curly one.
///
/// Tesseract's English model reads a thermal or dot-matrix print's "(" or ")" as "{" or "}":
/// a receipt's "TAX(RM)" comes out "Tax{RM)", "AMOUNT($)" "Amount($}", a company number
/// "(872981-V)" "(872981-V}". Brackets pair within a line, and no text pairs a curly bracket
/// with a round one; where a pair does, the curly one is the misread. So the brackets of each
/// line are paired as they nest (square ones too, which are never changed), and the curly one of
/// a mixed pair is made round. A curly bracket with no partner is left as it was read: nothing
/// says what it is.
package enum BracketPairs {
    /// `line` with the curly bracket of each mixed pair made round, and how many of its words
    /// changed; nil where it has no mixed pair.
    static func read(_ line: RawLine) -> (line: RawLine, changed: Int)? {
        let texts = line.words.map { Array($0.text) }
        var read = texts
        var open: [(word: Int, index: Int, bracket: Character)] = []  // Openers not yet closed, innermost last.
        for (w, text) in texts.enumerated() {
            for (i, character) in text.enumerated() {
                switch character {
                case "(", "{", "[":
                    open.append((w, i, character))
                case ")", "}", "]":
                    guard let opener = open.popLast() else { continue }
                    switch (opener.bracket, character) {
                    case ("{", ")"): read[opener.word][opener.index] = "("
                    case ("(", "}"): read[w][i] = ")"
                    default: break
                    }
                default:
                    continue
                }
            }
        }
        guard read != texts else { return nil }
        var out = line
        var changed = 0
        for w in line.words.indices where read[w] != texts[w] {
            out.words[w] = line.words[w].respelled(read[w])
            changed += 1
        }
        return (out, changed)
    }

    /// `blocks` with the curly bracket of each mixed pair in a line made round, and how many
    /// words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        RawBlock.replacingLines(in: blocks, read)
    }
}
