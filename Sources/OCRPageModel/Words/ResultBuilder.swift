import OCRWire

/// Turns Tesseract's raw hierarchy into the proto's, mapping boxes to the original image.
///
/// Tesseract's own boxes do not always nest (on noisy pages a word can reach past its line's
/// box, which is computed from the line's core blobs). Here every element's box is the union of its
/// own box and its children's, so a symbol lies in its word, a word in its line, and so on up.
package struct ResultBuilder {
    package var geometry: PageGeometry
    package var candidates: Int
    package var symbols: Bool

    package init(geometry: PageGeometry, candidates: Int, symbols: Bool) {
        self.geometry = geometry; self.candidates = candidates; self.symbols = symbols
    }

    package func blocks(_ raw: [RawBlock]) -> [Block] {
        raw.map { rb in
            var block = Block()
            block.type = rb.type
            block.confidence = rb.confidence
            block.box = geometry.toOriginal(rb.rect)
            block.paragraphs = rb.paragraphs.map(paragraph)
            block.box = Self.union(block.box, block.paragraphs.map(\.box))
            block.text = block.paragraphs.map(\.text).joined(separator: "\n\n")
            return block
        }
    }

    private func paragraph(_ rp: RawParagraph) -> Paragraph {
        var p = Paragraph()
        p.confidence = rp.confidence
        p.box = geometry.toOriginal(rp.rect)
        p.lines = rp.lines.map(line)
        p.box = Self.union(p.box, p.lines.map(\.box))
        p.text = p.lines.map(\.text).joined(separator: "\n")
        return p
    }

    private func line(_ rl: RawLine) -> TextLine {
        var l = TextLine()
        l.confidence = rl.confidence
        l.box = geometry.toOriginal(rl.rect)
        l.words = rl.words.map(word)
        l.box = Self.union(l.box, l.words.map(\.box))
        l.text = l.words.map(\.text).joined(separator: " ")
        if rl.baseline.count == 4 {
            let a = geometry.toOriginal(Double(rl.baseline[0]), Double(rl.baseline[1]))
            let b = geometry.toOriginal(Double(rl.baseline[2]), Double(rl.baseline[3]))
            l.baseline = [a.0, a.1, b.0, b.1].map { Int32($0.rounded()) }
        }
        return l
    }

    private func word(_ rw: RawWord) -> Word {
        var w = Word()
        w.text = rw.text
        w.confidence = rw.confidence
        w.box = geometry.toOriginal(rw.rect)
        w.fromDictionary = rw.fromDictionary
        if symbols {
            w.symbols = rw.symbols.map { rs in
                var s = Symbol()
                s.text = rs.text
                s.confidence = rs.confidence
                s.box = geometry.toOriginal(rs.rect)
                return s
            }
        }
        w.box = Self.union(w.box, w.symbols.map(\.box))
        if !rw.text.isEmpty {
            w.candidates = WordCandidates.make(word: rw.text, confidence: rw.confidence,
                                               symbols: rw.symbols.map(\.choices), count: candidates)
        }
        return w
    }

    /// The smallest box holding `own` and every child box that has an area. A box with no
    /// width or no height says nothing about where its element is: Tesseract gives the symbols
    /// of vertical lines such boxes at x = 0, and counting them stretched each word of a
    /// sideways brochure panel across the page (cardinal.pdf page 2).
    package static func union(_ own: BoundingBox?, _ children: [BoundingBox?]) -> BoundingBox? {
        let boxes = ([own] + children).compactMap { $0 }.filter { $0.width > 0 && $0.height > 0 }
        guard let first = boxes.first else { return own }
        var left = Int(first.x), top = Int(first.y)
        var right = left + Int(first.width), bottom = top + Int(first.height)
        for b in boxes.dropFirst() {
            left = min(left, Int(b.x)); top = min(top, Int(b.y))
            right = max(right, Int(b.x) + Int(b.width)); bottom = max(bottom, Int(b.y) + Int(b.height))
        }
        var u = BoundingBox()
        u.x = Int32(left); u.y = Int32(top)
        u.width = UInt32(right - left); u.height = UInt32(bottom - top)
        return u
    }

    /// Page text rebuilt from the hierarchy in Tesseract's layout: lines end with a newline,
    /// paragraphs and blocks are separated by an empty line.
    package static func pageText(_ blocks: [Block]) -> String {
        blocks.flatMap(\.paragraphs).map { $0.lines.map { $0.text + "\n" }.joined() }.joined(separator: "\n")
    }
}
