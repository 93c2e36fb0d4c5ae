import OCRStructure
import OCRWire

/// Pages drawn from text for unit tests (not for claims): words set in a fixed-pitch type,
/// each character `height / 2` wide, words a third of the height apart, as Tesseract would box
/// them.
struct PageBuilder {
    var width = 2480
    var height = 3508
    var pageIndex = 0
    private(set) var blocks: [Ocr_V1_Block] = []
    /// Ruling lines as a worker reports them.
    var rules: [Ocr_V1_BoundingBox] = []

    /// A rule from (x, y), `length` long, 3 pixels thick.
    mutating func rule(x: Int, y: Int, length: Int, horizontal: Bool) {
        rules.append(Ocr_V1_BoundingBox.with {
            $0.x = Int32(x); $0.y = Int32(y)
            $0.width = UInt32(horizontal ? length : 3); $0.height = UInt32(horizontal ? 3 : length)
        })
    }

    /// A paragraph (one Tesseract paragraph in a block of its own) of `lines`, the first at `y`,
    /// each `height` tall at left edge `x`, lines `gap` apart.
    /// `firstHeight`, when given, is the first line's height (a heading Tesseract put in one
    /// paragraph with the text under it).
    mutating func paragraph(_ lines: [String], x: Int = 200, y: Int, height: Int = 40, gap: Int = 20, firstHeight: Int? = nil) {
        var paragraph = Ocr_V1_Paragraph()
        let first = firstHeight ?? height
        for (index, text) in lines.enumerated() {
            let top = index == 0 ? y : y + first + gap + (index - 1) * (height + gap)
            paragraph.lines.append(Self.line(text, x: x, y: top, height: index == 0 ? first : height))
        }
        var block = Ocr_V1_Block()
        block.type = .text
        block.paragraphs = [paragraph]
        blocks.append(block)
    }

    /// One line whose parts start at the given x positions (table rows: one part per cell).
    mutating func row(_ parts: [(String, Int)], y: Int, height: Int = 40) {
        var line = Ocr_V1_TextLine()
        for (text, x) in parts { line.words += Self.line(text, x: x, y: y, height: height).words }
        var paragraph = Ocr_V1_Paragraph()
        paragraph.lines = [line]
        var block = Ocr_V1_Block()
        block.type = .text
        block.paragraphs = [paragraph]
        blocks.append(block)
    }

    /// A picture: an image block with no text, as Tesseract reports one.
    mutating func picture(x: Int, y: Int, width: Int, height: Int) {
        var block = Ocr_V1_Block()
        block.type = .image
        block.box = Ocr_V1_BoundingBox.with {
            $0.x = Int32(x); $0.y = Int32(y); $0.width = UInt32(width); $0.height = UInt32(height)
        }
        blocks.append(block)
    }

    /// One paragraph (in a block of its own) of lines made elsewhere.
    mutating func paragraph(of lines: [Ocr_V1_TextLine]) {
        var paragraph = Ocr_V1_Paragraph()
        paragraph.lines = lines
        var block = Ocr_V1_Block()
        block.type = .text
        block.paragraphs = [paragraph]
        blocks.append(block)
    }

    /// A ruled grid of 3 columns (x 180, 700, 1200, 1700) and 4 rows, 70 px apart from `top`,
    /// whose header "Measured" spans the last two columns (no rule between them in the first
    /// row): Site | Measured, then North, South and East with two figures each.
    mutating func ruledSitesTable(top: Int) {
        row([("Site", 200), ("Measured", 1000)], y: top + 15)
        row([("North", 200), ("12.5", 720), ("13.1", 1220)], y: top + 85)
        row([("South", 200), ("9.8", 720), ("10.4", 1220)], y: top + 155)
        row([("East", 200), ("11.0", 720), ("11.7", 1220)], y: top + 225)
        for y in stride(from: top, through: top + 280, by: 70) { rule(x: 180, y: y, length: 1520, horizontal: true) }
        rule(x: 180, y: top, length: 280, horizontal: false)
        rule(x: 700, y: top, length: 280, horizontal: false)
        rule(x: 1200, y: top + 70, length: 210, horizontal: false)
        rule(x: 1700, y: top, length: 280, horizontal: false)
    }

    static func line(_ text: String, x: Int, y: Int, height: Int) -> Ocr_V1_TextLine {
        var line = Ocr_V1_TextLine()
        var cursor = x
        for word in text.split(separator: " ") {
            var w = Ocr_V1_Word()
            w.text = String(word)
            w.confidence = 0.95
            w.box = Ocr_V1_BoundingBox.with {
                $0.x = Int32(cursor); $0.y = Int32(y); $0.width = UInt32(word.count * height / 2); $0.height = UInt32(height)
            }
            cursor += word.count * height / 2 + height / 3
            line.words.append(w)
        }
        line.text = text
        return line
    }

    /// The structure of one page drawn by `build`: its elements in reading order.
    static func elements(_ build: (inout PageBuilder) -> Void) -> [StructureElement] {
        var builder = PageBuilder()
        build(&builder)
        return DocumentStructure.analyze([builder.page])[0].elements
    }

    var page: Ocr_V1_PageResult {
        Ocr_V1_PageResult.with {
            $0.pageIndex = UInt32(pageIndex)
            $0.width = UInt32(width)
            $0.height = UInt32(height)
            $0.blocks = blocks
            $0.rules = rules
        }
    }
}
