import OCRWire

/// Result pages made by hand in the wire types, for renderers and MathSolver: words of one
/// symbol per character, lines with a baseline, paragraphs and blocks boxed around their parts.
package enum WirePages {
    /// A word made of one symbol per character, `advance` pixels each, starting at `x`.
    package static func word(_ text: String, x: Int, y: Int, advance: Int = 10, height: Int = 20,
                             confidence: Float = 0.9, candidates: [(String, Float)] = []) -> Word {
        Word.with { w in
            w.text = text
            w.confidence = confidence
            let count = text.count
            w.box = box(x, y, advance * count, height)
            w.symbols = text.enumerated().map { k, character in
                Symbol.with {
                    $0.text = String(character)
                    $0.confidence = confidence
                    $0.box = box(x + k * advance, y, advance, height)
                }
            }
            w.candidates = ([(text, confidence)] + candidates).map { c in Candidate.with { $0.text = c.0; $0.confidence = c.1 } }
        }
    }

    package static func line(_ words: [Word], confidence: Float = 0.9) -> TextLine {
        TextLine.with { l in
            l.words = words
            l.text = words.map(\.text).joined(separator: " ")
            l.confidence = confidence
            let union = Self.union(words.map { $0.box! })
            l.box = union
            let (left, right, bottom) = (Int32(union.x), Int32(union.x) + Int32(union.width), Int32(union.y) + Int32(union.height))
            l.baseline = [left, bottom - 4, right, bottom - 2]
        }
    }

    package static func paragraph(_ lines: [TextLine]) -> Paragraph {
        Paragraph.with { p in
            p.lines = lines
            p.text = lines.map(\.text).joined(separator: "\n")
            p.confidence = 0.9
            p.box = union(lines.map { $0.box! })
        }
    }

    package static func block(_ paragraphs: [Paragraph]) -> Block {
        Block.with { b in
            b.type = .text
            b.paragraphs = paragraphs
            b.text = paragraphs.map(\.text).joined(separator: "\n\n")
            b.confidence = 0.9
            b.box = union(paragraphs.map { $0.box! })
        }
    }

    package static func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> BoundingBox {
        BoundingBox.with { $0.x = Int32(x); $0.y = Int32(y); $0.width = UInt32(w); $0.height = UInt32(h) }
    }

    /// The smallest box holding all of `boxes`.
    package static func union(_ boxes: [BoundingBox]) -> BoundingBox {
        let left = boxes.map { Int($0.x) }.min() ?? 0, top = boxes.map { Int($0.y) }.min() ?? 0
        let right = boxes.map { Int($0.x) + Int($0.width) }.max() ?? 0, bottom = boxes.map { Int($0.y) + Int($0.height) }.max() ?? 0
        return box(left, top, right - left, bottom - top)
    }
}
