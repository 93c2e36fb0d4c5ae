import OCRClient

/// Recognised pages drawn from text for unit tests (not for claims): words of a fixed-pitch type,
/// each character half the height wide, a third of the height apart.
enum PageDrawing {
    static func word(_ text: String, _ x: Int, _ y: Int, height: Int = 40) -> Word {
        Word.with {
            $0.text = text
            $0.confidence = 0.9
            $0.box = BoundingBox.with { $0.x = Int32(x); $0.y = Int32(y); $0.width = UInt32(text.count * height / 2); $0.height = UInt32(height) }
        }
    }

    /// A text block of one paragraph of `lines`.
    static func block(_ lines: [[Word]]) -> Block {
        Block.with {
            $0.type = .text
            $0.paragraphs = [Paragraph.with {
                $0.lines = lines.map { words in TextLine.with { $0.words = words; $0.text = words.map(\.text).joined(separator: " ") } }
                $0.box = Self.box(lines.flatMap { $0 })
            }]
            $0.box = $0.paragraphs[0].box
        }
    }

    /// The words of `text` set from (x, y).
    static func line(_ text: String, x: Int, y: Int, height: Int = 40) -> [Word] {
        var cursor = x
        return text.split(separator: " ").map { part in
            defer { cursor += part.count * height / 2 + height / 3 }
            return word(String(part), cursor, y, height: height)
        }
    }

    private static func box(_ words: [Word]) -> BoundingBox? {
        let boxes = words.compactMap(\.box)
        guard let left = boxes.map(\.x).min(), let top = boxes.map(\.y).min() else { return nil }
        let right = boxes.map { Int64($0.x) + Int64($0.width) }.max()!, bottom = boxes.map { Int64($0.y) + Int64($0.height) }.max()!
        return BoundingBox.with { $0.x = left; $0.y = top; $0.width = UInt32(right - Int64(left)); $0.height = UInt32(bottom - Int64(top)) }
    }
}
