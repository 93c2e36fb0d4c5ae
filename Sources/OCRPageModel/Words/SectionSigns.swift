/// An "S" read as a section sign.
///
/// Tesseract's English model reads a coarse print's "S" as "§": a receipt's tax code "SR" comes
/// out "§R", an item code "SB01" "§B01". A section sign stands before a number ("§ 12", "§12",
/// "§§ 101-103") or alone, as a table's reference mark ("§ = United Soybean Board entry"); it is
/// never followed by a letter in its word. So a "§" followed by a letter is an "S".
package enum SectionSigns {
    /// `word` with each "§" followed by a letter read as "S", or nil where it has none.
    static func read(_ word: RawWord) -> RawWord? {
        let text = Array(word.text)
        var read = text
        for i in text.indices.dropLast() where text[i] == "§" && text[i + 1].isLetter { read[i] = "S" }
        guard read != text else { return nil }
        var out = word.respelled(read)
        out.fromDictionary = false
        return out
    }

    /// `blocks` with each "§" followed by a letter read as "S", and how many words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        RawBlock.replacingWords(in: blocks, read)
    }
}
