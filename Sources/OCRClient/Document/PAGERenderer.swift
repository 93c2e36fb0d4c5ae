import Foundation
import OCRStructure
import OCRWire

/// `DocumentFormat.page`: PAGE XML 2019-07-15 (`http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15`),
/// the format OCR-D works in, one `PcGts` document per page (PAGE describes one page image per
/// file).
///
/// Mapping: each paragraph is a `TextRegion` in reading order (listed in
/// `ReadingOrder/OrderedGroup`), its `type` from the document's structure (`heading`, `header`,
/// `footer`, `page-number`, `caption`, `footnote`, else `paragraph`), then `TextLine` (with its `Baseline`), `Word` and, when the
/// symbols have boxes, `Glyph`; every level has its `Coords` (the box's four corners, pixels) and a
/// `TextEquiv` (`conf` 0...1 where the engine gave one; lines join their words with spaces,
/// regions their lines with newlines). Image blocks are `ImageRegion`s, separators
/// `SeparatorRegion`s, and each table the structure found is a `TableRegion` with its `rows` and
/// `columns` over the text regions that hold its words, holding one `TextRegion` per cell with
/// words (its box, its text, and a `TableCellRole`: row and column from 0, spans, whether it is
/// a header cell). A failed or missing page is a `Page` without regions, 0 x 0, its status
/// in `Metadata/Comments`, so there is still one document per page.
enum PAGERenderer {
    static let namespace = "http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"

    /// One PAGE document per page of `document`, in page order.
    static func render(_ document: Document, created: Date = Date()) -> [String] {
        let stamp = ISO8601DateFormatter().string(from: created)
        let structures = Dictionary(document.structure.map { ($0.pageIndex, $0) }, uniquingKeysWith: { first, _ in first })
        return document.pages.map { page in
            switch page {
            case .recognized(let result):
                return wrap(software: document.software, stamp: stamp, comment: nil) {
                    pageElement(result, structure: structures[Int(result.pageIndex)])
                }
            case .failed(let index, let error):
                return wrap(software: document.software, stamp: stamp, comment: "page \(index + 1) failed: \(error.code.name): \(error.message)") {
                    emptyPage(index, file: error.file ?? "")
                }
            case .missing(let index):
                return wrap(software: document.software, stamp: stamp, comment: "page \(index + 1): no result was received") {
                    emptyPage(index, file: "")
                }
            }
        }
    }

    private static func wrap(software: String, stamp: String, comment: String?, page: () -> String) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <PcGts xmlns="\(namespace)" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="\(namespace) \(namespace)/pagecontent.xsd">
          <Metadata>
            <Creator>\(xmlEscaped(software, attribute: false))</Creator>
            <Created>\(stamp)</Created>
            <LastChange>\(stamp)</LastChange>

        """
        if let comment { out += "    <Comments>\(xmlEscaped(comment, attribute: false))</Comments>\n" }
        out += "  </Metadata>\n" + page() + "</PcGts>\n"
        return out
    }

    private static func emptyPage(_ index: Int, file: String) -> String {
        let name = file.isEmpty ? "page-\(index + 1)" : file
        return "  <Page imageFilename=\"\(xmlEscaped(name))\" imageWidth=\"0\" imageHeight=\"0\"/>\n"
    }

    private static func pageElement(_ page: PageResult, structure: PageStructure?) -> String {
        let p = Int(page.pageIndex) + 1
        let name = page.file.isEmpty ? "page-\(p)" : page.file
        var regions = "", order: [String] = []
        var regionID = 0, lineID = 0, wordID = 0, glyphID = 0, otherID = 0
        for block in page.blocks {
            let paragraphs = block.nonEmptyParagraphs
            if paragraphs.isEmpty {
                guard let (kind, box) = block.nonTextRegion else { continue }
                otherID += 1
                let element = kind == .image ? "ImageRegion" : "SeparatorRegion"
                regions += "    <\(element) id=\"other_\(p)_\(otherID)\">\n      \(coords(box))\n    </\(element)>\n"
                continue
            }
            for paragraph in paragraphs {
                regionID += 1
                let id = "region_\(p)_\(regionID)"
                order.append(id)
                regions += "    <TextRegion id=\"\(id)\" type=\"\(regionType(paragraph.pixelBox, structure))\">\n      \(coords(paragraph.pixelBox))\n"
                var lineTexts: [String] = []
                for line in paragraph.nonEmptyLines {
                    lineID += 1
                    regions += "      <TextLine id=\"line_\(p)_\(lineID)\">\n        \(coords(line.pixelBox))\n"
                    if line.baseline.count >= 4 {
                        let b = line.baseline.map { max(0, Int($0)) }
                        regions += "        <Baseline points=\"\(b[0]),\(b[1]) \(b[2]),\(b[3])\"/>\n"
                    }
                    for word in line.words {
                        wordID += 1
                        regions += "        <Word id=\"word_\(p)_\(wordID)\">\n          \(coords(word.pixelBox))\n"
                        for symbol in word.symbols {
                            guard let box = symbol.box else { continue }
                            glyphID += 1
                            regions += "          <Glyph id=\"glyph_\(p)_\(glyphID)\">\n            \(coords(PixelBox(box)))\n"
                            regions += "            \(textEquiv(symbol.text, conf: symbol.confidence))\n          </Glyph>\n"
                        }
                        regions += "          \(textEquiv(word.text, conf: word.confidence))\n        </Word>\n"
                    }
                    let text = line.words.map(\.text).joined(separator: " ")
                    lineTexts.append(text)
                    regions += "        \(textEquiv(text, conf: nil))\n      </TextLine>\n"
                }
                regions += "      \(textEquiv(lineTexts.joined(separator: "\n"), conf: nil))\n    </TextRegion>\n"
            }
        }
        for case .table(let table) in structure?.elements ?? [] {
            otherID += 1
            let box = PixelBox(left: table.box.x, top: table.box.y, right: table.box.maxX, bottom: table.box.maxY)
            regions += "    <TableRegion id=\"other_\(p)_\(otherID)\" rows=\"\(table.rows.count)\" columns=\"\(table.columnCount)\">\n      \(coords(box))\n"
            for (rowIndex, row) in table.rows.enumerated() {
                for cell in row {
                    guard let cellBox = cell.box else { continue }  // an empty cell has no place to give
                    regions += "      <TextRegion id=\"cell_\(p)_\(otherID)_\(rowIndex)_\(cell.column)\" type=\"paragraph\">\n"
                    regions += "        \(coords(PixelBox(left: cellBox.x, top: cellBox.y, right: cellBox.maxX, bottom: cellBox.maxY)))\n"
                    regions += "        <Roles><TableCellRole rowIndex=\"\(rowIndex)\" columnIndex=\"\(cell.column)\" rowSpan=\"\(cell.rowSpan)\" "
                        + "colSpan=\"\(cell.columnSpan)\" header=\"\(rowIndex < table.headerRows)\"/></Roles>\n"
                    regions += "        \(textEquiv(cell.text, conf: nil))\n      </TextRegion>\n"
                }
            }
            regions += "    </TableRegion>\n"
        }
        var out = "  <Page imageFilename=\"\(xmlEscaped(name))\" imageWidth=\"\(page.width)\" imageHeight=\"\(page.height)\">\n"
        if !order.isEmpty {
            out += "    <ReadingOrder>\n      <OrderedGroup id=\"order_\(p)\">\n"
            for (i, id) in order.enumerated() { out += "        <RegionRefIndexed index=\"\(i)\" regionRef=\"\(id)\"/>\n" }
            out += "      </OrderedGroup>\n    </ReadingOrder>\n"
        }
        return out + regions + "  </Page>\n"
    }

    /// PAGE's type of the text region at `box`: that of the structure's element its centre is
    /// in (a heading, a running header, a running footer or page number, a caption, a
    /// footnote), else a paragraph.
    private static func regionType(_ box: PixelBox, _ structure: PageStructure?) -> String {
        let element = structure?.elements.first { $0.box.contains(x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2) }
        switch element {
        case .heading?: return "heading"
        case .pageHeader?: return "header"
        case .pageFooter(let footer)?: return footer.isPageNumber ? "page-number" : "footer"
        case .caption?: return "caption"
        case .footnote?: return "footnote"
        default: return "paragraph"
        }
    }

    /// The box as PAGE's polygon: its four corners, clockwise from the top left.
    private static func coords(_ box: PixelBox) -> String {
        let l = max(0, box.left), t = max(0, box.top), r = max(l, box.right), b = max(t, box.bottom)
        return "<Coords points=\"\(l),\(t) \(r),\(t) \(r),\(b) \(l),\(b)\"/>"
    }

    private static func textEquiv(_ text: String, conf: Float?) -> String {
        let confidence = conf.map { " conf=\"\(confidenceFraction($0))\"" } ?? ""
        return "<TextEquiv\(confidence)><Unicode>\(xmlEscaped(text, attribute: false))</Unicode></TextEquiv>"
    }
}

extension Document {
    /// PAGE XML 2019-07-15, one document per page in page order (see `DocumentFormat.page`).
    public func pageXML() -> [String] {
        PAGERenderer.render(self)
    }
}
