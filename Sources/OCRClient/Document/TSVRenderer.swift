import Foundation
import OCRWire

/// `DocumentFormat.tsv`: Tesseract 5's TSV renderer, column for column.
///
/// One header line, then per page a level-1 row (the whole image), and level 2 (block), 3
/// (paragraph), 4 (line) and 5 (word) rows. `page_num` is the 1-based page number in the job;
/// `block_num` counts blocks on the page, `par_num` paragraphs in the block, `line_num` lines in
/// the paragraph, `word_num` words in the line (as Tesseract numbers them). `conf` is -1 except
/// on words, where it is 0...100 with six decimals. Failed or missing pages have no rows, so
/// their page numbers are simply absent. Tabs and line breaks inside a word become spaces.
enum TSVRenderer {
    static let header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"

    static func render(_ document: Document) -> String {
        var out = header
        for page in document.recognizedPages { appendPage(page, to: &out) }
        return out
    }

    static func appendPage(_ page: PageResult, to out: inout String) {
        let pageNumber = Int(page.pageIndex) + 1
        row(&out, 1, pageNumber, 0, 0, 0, 0, page.pixelBox, nil, "")
        for (b, block) in page.nonEmptyBlocks.enumerated() {
            row(&out, 2, pageNumber, b + 1, 0, 0, 0, block.pixelBox, nil, "")
            for (p, paragraph) in block.nonEmptyParagraphs.enumerated() {
                row(&out, 3, pageNumber, b + 1, p + 1, 0, 0, paragraph.pixelBox, nil, "")
                for (l, line) in paragraph.nonEmptyLines.enumerated() {
                    row(&out, 4, pageNumber, b + 1, p + 1, l + 1, 0, line.pixelBox, nil, "")
                    for (w, word) in line.words.enumerated() {
                        row(&out, 5, pageNumber, b + 1, p + 1, l + 1, w + 1, word.pixelBox, word.confidence, word.text)
                    }
                }
            }
        }
    }

    private static func row(_ out: inout String, _ level: Int, _ page: Int, _ block: Int, _ par: Int,
                            _ line: Int, _ word: Int, _ box: PixelBox, _ confidence: Float?, _ text: String) {
        let conf = confidence.map { String(format: "%.6f", min(100, max(0, decimal($0) * 100))) } ?? "-1"
        let cleaned = String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
        out += "\(level)\t\(page)\t\(block)\t\(par)\t\(line)\t\(word)\t\(box.left)\t\(box.top)\t\(box.width)\t\(box.height)\t\(conf)\t\(cleaned)\n"
    }
}
