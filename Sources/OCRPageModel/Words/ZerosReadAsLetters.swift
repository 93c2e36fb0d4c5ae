/// A zero read as the letter "o" among numbers.
///
/// In a table of counts scanned at 150 dpi, Tesseract (plain `tesseract` too) reads many a lone
/// "0" as "o" or "O": the glyphs differ by a few pixels of width, and its language model has no
/// reason to prefer the digit for a word of one character. The row it stands in has: a line
/// whose other words are numbers is a row of figures, and a letter "o" standing alone as one of
/// them is a zero. So a word that is just "o" or "O", in a line of at least ``leastWords`` other
/// words of which at least ``numericShare`` are numbers (``DoubtfulNumbers/isNumeric(_:)``),
/// is read as "0". A label's "O" (a blood group, a grade) stands among words, not among figures.
package enum ZerosReadAsLetters {
    /// The line's other words needed before it counts as a row of figures.
    package static let leastWords = 3
    /// The share of them that must be numbers.
    package static let numericShare = 0.75

    /// `blocks` with each lone "o" or "O" among numbers read as "0", and how many words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        RawBlock.replacingLines(in: blocks) { line in
            let letters = line.words.indices.filter { line.words[$0].text == "o" || line.words[$0].text == "O" }
            guard !letters.isEmpty else { return nil }
            let others = line.words.filter { $0.text != "o" && $0.text != "O" && !$0.text.allSatisfy(\.isWhitespace) }
            guard others.count >= leastWords,
                  Double(others.count { DoubtfulNumbers.isNumeric($0.text) }) >= numericShare * Double(others.count) else { return nil }
            var out = line
            for w in letters {
                out.words[w] = out.words[w].respelled(["0"])
                out.words[w].fromDictionary = false
            }
            return (out, letters.count)
        }
    }
}
