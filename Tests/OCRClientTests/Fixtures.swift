import OCRTestSupport
import OCRWire
@testable import OCRClient

/// Hand-built pages with what renderers must get right: two blocks (one an image), two
/// paragraphs, non-ASCII words, XML specials, symbols, candidates and a baseline.
enum Fixtures {
    // Words, lines, paragraphs and blocks: OCRTestSupport's, shared with MathSolver's tests.
    static func word(_ text: String, x: Int, y: Int, advance: Int = 10, height: Int = 20,
                     confidence: Float = 0.9, candidates: [(String, Float)] = []) -> Word {
        WirePages.word(text, x: x, y: y, advance: advance, height: height, confidence: confidence, candidates: candidates)
    }
    static func line(_ words: [Word], confidence: Float = 0.9) -> TextLine { WirePages.line(words, confidence: confidence) }
    static func paragraph(_ lines: [TextLine]) -> Paragraph { WirePages.paragraph(lines) }
    static func block(_ paragraphs: [Paragraph]) -> Block { WirePages.block(paragraphs) }

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
