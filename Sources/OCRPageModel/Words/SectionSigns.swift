/// An "S" read as a section sign.
///
/// Tesseract's English model reads a coarse print's "S" as "§": a receipt's tax code "SR" comes
/// out "§R", an item code "SB01" "§B01", the code after an amount "1.60 S" "1.60 §" (every "§"
/// the dev receipts read was one). A section sign stands before a number: "§ 12", "§12",
/// "§§ 101-103". So a "§" followed by a digit or another "§" in its word, or ending its word
/// before a word that starts with a digit, stays; any other is an "S".
package enum SectionSigns {
    /// `line`'s words with each "§" that stands before no number read as "S", and how many words
    /// changed.
    static func read(_ line: RawLine) -> (line: RawLine, changed: Int) {
        var line = line
        var changed = 0
        for w in line.words.indices where line.words[w].text.contains("§") {
            let next = w + 1 < line.words.count ? line.words[w + 1].text.first : nil
            let text = Array(line.words[w].text)
            var read = text
            for i in text.indices where text[i] == "§" {
                let after = i + 1 < text.count ? text[i + 1] : next
                if let after, after.isASCIIDigit || after == "§" { continue }
                read[i] = "S"
            }
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

    /// `blocks` with each "§" that stands before no number read as "S", and how many words
    /// changed.
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
