import OCRWire
@testable import OCRClient

/// Hand-built pages with what renderers must get right: two blocks (one an image), two
/// paragraphs, non-ASCII words, XML specials, symbols, candidates and a baseline.
enum Fixtures {
    /// A word made of one symbol per character, `advance` pixels each, starting at `x`.
    static func word(_ text: String, x: Int, y: Int, advance: Int = 10, height: Int = 20,
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

    static func line(_ words: [Word], confidence: Float = 0.9) -> TextLine {
        TextLine.with { l in
            l.words = words
            l.text = words.map(\.text).joined(separator: " ")
            l.confidence = confidence
            let boxes = words.map { PixelBox($0.box!) }
            let union = PixelBox.union(boxes)
            l.box = union.asBoundingBox
            l.baseline = [Int32(union.left), Int32(union.bottom - 4), Int32(union.right), Int32(union.bottom - 2)]
        }
    }

    static func paragraph(_ lines: [TextLine]) -> Paragraph {
        Paragraph.with { p in
            p.lines = lines
            p.text = lines.map(\.text).joined(separator: "\n")
            p.confidence = 0.9
            p.box = PixelBox.union(lines.map { PixelBox($0.box!) }).asBoundingBox
        }
    }

    static func block(_ paragraphs: [Paragraph]) -> Block {
        Block.with { b in
            b.type = .text
            b.paragraphs = paragraphs
            b.text = paragraphs.map(\.text).joined(separator: "\n\n")
            b.confidence = 0.9
            b.box = PixelBox.union(paragraphs.map { PixelBox($0.box!) }).asBoundingBox
        }
    }

    /// Page `index`: "Page N" heading, a paragraph with specials and non-ASCII, and an image block.
    static func page(_ index: Int, setText: Bool = false) -> PageResult {
        let heading = paragraph([line([word("Page", x: 100, y: 100), word("\(index + 1)", x: 150, y: 100)])])
        let body = paragraph([
            line([word("Grüße,", x: 100, y: 200, confidence: 0.8, candidates: [("Grusse,", 0.5), ("Grüsse,", 0.7)]),
                  word("<a&b>", x: 170, y: 200, confidence: 0.6, candidates: [("(a&b)", 0.55)]),
                  word("\"it's\"", x: 230, y: 200)]),
            line([word("naïve", x: 100, y: 230), word("日本語", x: 160, y: 230, confidence: 0.29)]),
        ])
        let image = Block.with {
            $0.type = .image
            $0.box = box(400, 400, 100, 80)
        }
        return PageResult.with {
            $0.pageIndex = UInt32(index)
            $0.file = "scan \"A\" & <b>.tiff"
            $0.filePage = UInt32(index + 1)
            $0.width = 800
            $0.height = 600
            $0.dpi = 300
            $0.blocks = [block([heading, body]), image]
            $0.meanConfidence = 0.85
            $0.attempt = 1
            $0.workerUid = 0xFEDC_BA98_7654_3210
            $0.timings = Timings.with { $0.totalUs = 1234; $0.recognizeUs = 1000 }
            if setText { $0.text = TextRenderer.rebuiltText($0) }
        }
    }

    /// The expected `GetUTF8Text` of `page(index)`.
    static func text(_ index: Int) -> String {
        "Page \(index + 1)\n\nGrüße, <a&b> \"it's\"\nnaïve 日本語\n"
    }

    static func failure(_ index: Int, _ code: StatusCode = .deadlineExceeded, _ message: String = "page timeout -- 30 s") -> PageFailed {
        PageFailed.with { f in
            f.pageIndex = UInt32(index)
            f.file = "scan.tiff"
            f.attempts = 3
            f.status = Status.with {
                $0.code = code
                $0.message = message
                $0.pageIndex = Int32(index)
            }
        }
    }
}
