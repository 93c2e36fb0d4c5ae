import OCRWire

/// Colons read as semicolons, told apart by where the mark ends.
///
/// On a scanned receipt Tesseract reads many a colon as a semicolon ("GST REG NO; 001335787520",
/// "CASH ;"), and plain `tesseract` does the same: at a receipt's resolution the lower dot's blur
/// passes for a comma's tail. The symbol's box tells them apart: a semicolon's tail reaches below
/// the line's baseline (a fifth to a quarter of a letter height in the real-layout corpus's
/// prose), a colon's lower dot ends on it (the dev receipts' colons read as semicolons: within a
/// tenth). So a semicolon whose box ends no lower than the line's baseline, give or take
/// ``tail`` of its letters' height, is read as a colon, unless the gray page shows a tail under
/// it after all: in a blurred scan Tesseract's box of a real semicolon can end at the baseline
/// ("AD;", "property;" on the held-out half's 200-dpi scans), its faint tail below left out.
package enum SemicolonColons {
    /// The share of the letters' height by which a mark's box may end below their baseline and
    /// still be a colon (a pixel at least).
    package static let tail = 0.1
    /// A semicolon's tail is looked for this far below the baseline, in letter heights...
    static let tailReach = 0.35
    /// ...as a pixel darker than the paper by this share of the word's contrast (a scan's
    /// tail is faint: a fifth of it).
    static let tailContrast = 0.15

    /// Where a semicolon's tail would be, under `mark` on a line of letters `height` tall whose
    /// baseline is at `baseline`: from a ``tail`` below the baseline down to ``tailReach``, a
    /// tenth of a letter height wider on either side than the mark.
    static func tailRegion(under mark: RawRect, height: Int, baseline: Int) -> RawRect {
        let h = Double(height), side = max(1, height / 10)
        return RawRect(left: mark.left - side, top: baseline + max(1, Int((tail * h).rounded())),
                       right: mark.right + side, bottom: baseline + max(2, Int((tailReach * h).rounded())))
    }

    /// `blocks` with each semicolon that ends on its line's baseline, and shows no tail under it
    /// in `image` (the page's pixels inside a rectangle, as gray), read as a colon; and how many
    /// words changed.
    package static func read(_ blocks: [RawBlock], image: (RawRect) throws(OCRError) -> GrayGrid) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
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
                            let under = try image(tailRegion(under: word.symbols[s].rect, height: height, baseline: baseline))
                            guard try under.holdsMark(against: image(word.rect), share: tailContrast) == false else { continue }
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
