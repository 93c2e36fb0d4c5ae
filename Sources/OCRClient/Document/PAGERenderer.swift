import Foundation
import OCRWire

/// `DocumentFormat.page`: PAGE XML 2019-07-15 (`http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15`),
/// the format OCR-D works in, one `PcGts` document per page (PAGE describes one page image per
/// file).
///
/// Mapping: each paragraph is a `TextRegion` (`type="paragraph"`) in reading order (listed in
/// `ReadingOrder/OrderedGroup`), then `TextLine` (with its `Baseline`), `Word` and, when the
/// symbols have boxes, `Glyph`; every level has its `Coords` (the box's four corners, pixels) and a
/// `TextEquiv` (`conf` 0...1 where the engine gave one; lines join their words with spaces,
/// regions their lines with newlines). Image blocks are `ImageRegion`s, separators
/// `SeparatorRegion`s. A failed or missing page is a `Page` without regions, 0 x 0, its status
/// in `Metadata/Comments`, so there is still one document per page.
enum PAGERenderer {
    static let namespace = "http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"

    /// One PAGE document per page of `document`, in page order.
    static func render(_ document: Document, created: Date = Date()) -> [String] {
        let stamp = ISO8601DateFormatter().string(from: created)
        return document.pages.map { page in
            switch page {
            case .recognized(let result):
                return wrap(software: document.software, stamp: stamp, comment: nil) { pageElement(result) }
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

    private static func pageElement(_ page: PageResult) -> String {
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
                regions += "    <TextRegion id=\"\(id)\" type=\"paragraph\">\n      \(coords(paragraph.pixelBox))\n"
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
        var out = "  <Page imageFilename=\"\(xmlEscaped(name))\" imageWidth=\"\(page.width)\" imageHeight=\"\(page.height)\">\n"
        if !order.isEmpty {
            out += "    <ReadingOrder>\n      <OrderedGroup id=\"order_\(p)\">\n"
            for (i, id) in order.enumerated() { out += "        <RegionRefIndexed index=\"\(i)\" regionRef=\"\(id)\"/>\n" }
            out += "      </OrderedGroup>\n    </ReadingOrder>\n"
        }
        return out + regions + "  </Page>\n"
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
