/// An "S" read as a section sign.
///
/// Tesseract's English model reads a coarse print's "S" as "§": a receipt's tax code "SR" comes
/// out "§R", an item code "SB01" "§B01". A section sign stands before a number ("§ 12", "§12",
/// "§§ 101-103") or alone, as a table's reference mark ("§ = United Soybean Board entry"); it is
/// never followed by a letter in its word. So a "§" followed by a letter is an "S".
package enum SectionSigns {
    /// `line`'s words with each "§" followed by a letter read as "S", and how many words changed.
    static func read(_ line: RawLine) -> (line: RawLine, changed: Int) {
        var line = line
        var changed = 0
        for w in line.words.indices where line.words[w].text.contains("§") {
            let text = Array(line.words[w].text)
            var read = text
            for i in text.indices.dropLast() where text[i] == "§" && text[i + 1].isLetter { read[i] = "S" }
            guard read != text else { continue }
            var word = line.words[w]
            word.text = String(read)
            // The symbols, where they spell the word, read alike.
            if word.symbols.map(\.text).joined() == String(text), word.symbols.count == text.count {
                for s in word.symbols.indices { word.symbols[s].text = String(read[s]) }
            }
            word.fromDictionary = false
            line.words[w] = word
            changed += 1
        }
        return (line, changed)
    }

    /// `blocks` with each "§" followed by a letter read as "S", and how many words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks
        var changed = 0
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    let read = read(blocks[b].paragraphs[p].lines[l])
                    blocks[b].paragraphs[p].lines[l] = read.line
                    changed += read.changed
                }
            }
        }
        return (blocks, changed)
    }
}
