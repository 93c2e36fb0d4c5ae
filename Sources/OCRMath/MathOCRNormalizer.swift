/// Turns what OCR read from a printed expression into the ASCII the grammar expects, undoing
/// typical confusions:
/// - `x`, `X`, `×`, `✕`, `∗`, `·` are `*`; `÷` and `∶` are `/`;
/// - `—`, `–`, `−` (and the other Unicode dashes) are `-`, and a run of dashes is one minus
///   sign (eng's model reads a long `−` as `—-`; write `3-(-2)` for a double negative);
/// - `O`/`o` are `0` and `l`/`I`/`|` are `1` in runs between digits (`1O5` -> `105`, `2l` stays);
/// - whitespace is dropped, and a trailing `=` (or `=?`, `= ?`) is ignored.
/// Everything else is left alone for the grammar to accept or reject.
public enum MathOCRNormalizer {
    /// Maps what OCR reads for operators and digits (`×`, `x`, `÷`, dashes, letter-like digits) to the tokenizer's characters.
    public static func normalize(_ raw: String) -> String {
        var characters: [Character] = []
        for c in raw {
            if c.isWhitespace { continue }
            switch c {
            case "x", "X", "×", "✕", "✖", "∗", "·", "⋅": characters.append("*")
            case "÷", "∶", "⁄", "∕": characters.append("/")
            case "—", "–", "−", "‐", "‑", "‒", "﹣", "－", "―":
                if characters.last != "-" { characters.append("-") }
            case "-":
                if characters.last != "-" { characters.append("-") }
            case "＋": characters.append("+")
            default: characters.append(c)
            }
        }
        // A trailing "=" or "=?" asks for the answer; it is not part of the expression.
        while let last = characters.last, last == "=" || last == "?" { characters.removeLast() }
        // Letters confused with digits, in runs bounded by digits on both sides.
        let confusions: [Character: Character] = ["O": "0", "o": "0", "l": "1", "I": "1", "|": "1"]
        var i = 0
        while i < characters.count {
            guard confusions[characters[i]] != nil, i > 0, MathTokenizer.isDigit(characters[i - 1]) else { i += 1; continue }
            var end = i
            while end < characters.count, confusions[characters[end]] != nil { end += 1 }
            if end < characters.count, MathTokenizer.isDigit(characters[end]) {
                for k in i..<end { characters[k] = confusions[characters[k]]! }
            }
            i = end
        }
        return String(characters)
    }
}
