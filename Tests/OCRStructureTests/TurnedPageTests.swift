import OCRStructure
import OCRWire
import Testing

/// A page the worker turned before reading it (`rotation_degrees`) has its boxes in the original
/// image, where its lines run down or upside down: its structure is the upright page's, with
/// every box in the original image's pixels.
@Suite struct TurnedPageTests {
    private static let body = [
        "The committee met on Tuesday to review the annual figures and the",
        "plans for the coming year, which are set out in the sections below.",
    ]

    /// A heading, running text, a list and a ruled table, upright.
    static var upright: PageBuilder {
        var page = PageBuilder()
        page.paragraph(["Annual Report"], y: 150, height: 90)
        page.paragraph(body, y: 300)
        page.paragraph(["• Apples from the orchard", "• Pears"], y: 480)
        page.ruledSitesTable(top: 700)
        page.paragraph(body, y: 1100)
        return page
    }

    /// `box` of a `width` x `height` image turned clockwise `quarters` times, by turning its
    /// corners ((x, y) goes to (height - y, x) for each quarter).
    private static func turned(_ box: PageBox, quarters: Int, width: Int, height: Int) -> PageBox {
        var corners = [(box.x, box.y), (box.maxX, box.maxY)]
        var size = (width, height)
        for _ in 0..<quarters {
            corners = corners.map { (size.1 - $0.1, $0.0) }
            size = (size.1, size.0)
        }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        return PageBox(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The upright page as an image stored turned clockwise by `degrees` holds it, with
    /// `rotation_degrees` saying so.
    static func stored(_ page: Ocr_V1_PageResult, turnedBy degrees: Int) -> Ocr_V1_PageResult {
        let quarters = degrees / 90
        let (width, height) = (Int(page.width), Int(page.height))
        func turn(_ box: Ocr_V1_BoundingBox) -> Ocr_V1_BoundingBox {
            let b = turned(PageBox(box), quarters: quarters, width: width, height: height)
            return Ocr_V1_BoundingBox.with { $0.x = Int32(b.x); $0.y = Int32(b.y); $0.width = UInt32(b.width); $0.height = UInt32(b.height) }
        }
        var out = page
        out.rotationDegrees = Int32(degrees)
        if quarters % 2 == 1 { (out.width, out.height) = (page.height, page.width) }
        out.rules = page.rules.map(turn)
        out.blocks = page.blocks.map { block in
            var block = block
            block.paragraphs = block.paragraphs.map { paragraph in
                var paragraph = paragraph
                paragraph.lines = paragraph.lines.map { line in
                    var line = line
                    line.words = line.words.map { word in
                        var word = word
                        word.box = word.box.map(turn)
                        return word
                    }
                    return line
                }
                return paragraph
            }
            return block
        }
        return out
    }

    @Test(arguments: [90, 180, 270])
    func aTurnedPageHasTheUprightPagesStructureInItsOwnPixels(degrees: Int) throws {
        let upright = Self.upright.page
        let expected = DocumentStructure.analyze([upright])[0].elements
        // The upright page's structure as the other tests find it: nothing is vacuous here.
        try #require(expected.count == 5)
        let found = DocumentStructure.analyze([Self.stored(upright, turnedBy: degrees)])[0].elements
        try #require(found.count == expected.count)
        func original(_ box: PageBox) -> PageBox {
            Self.turned(box, quarters: degrees / 90, width: Int(upright.width), height: Int(upright.height))
        }
        for (found, expected) in zip(found, expected) {
            #expect(found.box == original(expected.box))
            switch (found, expected) {
            case (.heading(let f), .heading(let e)):
                #expect(f.text == e.text && f.level == e.level)
            case (.paragraph(let f), .paragraph(let e)):
                #expect(f.text == e.text)
            case (.list(let f), .list(let e)):
                #expect(f.items.map(\.text) == e.items.map(\.text) && f.items.map(\.level) == e.items.map(\.level))
                #expect(f.items.map(\.box) == e.items.map { original($0.box) })
            case (.table(let f), .table(let e)):
                #expect(f.rows.map { $0.map(\.text) } == e.rows.map { $0.map(\.text) })
                #expect(f.rows.map { $0.map(\.columnSpan) } == e.rows.map { $0.map(\.columnSpan) })
                #expect(f.rows.flatMap { $0.map(\.box) } == e.rows.flatMap { $0.map { $0.box.map(original) } })
                #expect(f.rows.count == 4 && f.columnCount == 3)
            default:
                Issue.record("\(found) where the upright page has \(expected)")
            }
        }
    }
}
