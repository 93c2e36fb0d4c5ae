/// Colons read as semicolons, told apart by where the mark ends.
///
/// On a scanned receipt Tesseract reads many a colon as a semicolon ("GST REG NO; 001335787520",
/// "CASH ;"), and plain `tesseract` does the same: at a receipt's resolution the lower dot's blur
/// passes for a comma's tail. The symbol's box tells them apart: a semicolon's tail reaches below
/// the line's baseline (a fifth to a quarter of a letter height in the real-layout corpus's
/// prose), a colon's lower dot ends on it (the dev receipts' colons read as semicolons: within a
/// tenth). So a semicolon whose box ends no lower than the line's baseline, give or take
/// ``tail`` of its letters' height, is read as a colon.
package enum SemicolonColons {
    /// The share of the letters' height by which a mark's box may end below their baseline and
    /// still be a colon (a pixel at least).
    package static let tail = 0.1

    /// `blocks` with each semicolon that ends on its line's baseline read as a colon, and how
    /// many words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks
        var changed = 0
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    let line = blocks[b].paragraphs[p].lines[l]
                    guard let (height, baseline) = line.letters else { continue }
                    let slack = max(1, Int((tail * Double(height)).rounded()))
                    for w in line.words.indices {
                        var word = line.words[w]
                        guard word.text.contains(";"), word.symbols.map(\.text).joined() == word.text else { continue }
                        var colons = 0
                        for s in word.symbols.indices where word.symbols[s].text == ";" && word.symbols[s].rect.bottom - baseline <= slack {
                            word.symbols[s].text = ":"
                            colons += 1
                        }
                        guard colons > 0 else { continue }
                        word.text = word.symbols.map(\.text).joined()
                        blocks[b].paragraphs[p].lines[l].words[w] = word
                        changed += 1
                    }
                }
            }
        }
        return (blocks, changed)
    }
}
