import Foundation
import OCRWire

/// `DocumentFormat.alto`: ALTO 4.4 (`http://www.loc.gov/standards/alto/ns-v4#`), pixel units.
///
/// Mapping (as Tesseract's ALTO renderer, which writes v3): a block is a `ComposedBlock`, each of
/// its paragraphs a `TextBlock`, then `TextLine` (with `BASELINE` as `x1,y1 x2,y2`), `String`
/// (`CONTENT`, `WC` 0...1) and an `SP` between words. Image blocks become `Illustration`s and
/// separators `GraphicalElement`s. Ids match hOCR's: `page_P`, `block_P_N`, `par_P_N`,
/// `line_P_N`, `word_P_N`. A page's `PC` is its mean confidence. A failed or missing page is a
/// `Page` with `QUALITY="Missing"` and the status in `QUALITY_DETAIL`, so page numbers stay
/// aligned. With glyphs, each `String` holds one `Glyph` (`CONTENT`, `GC`) per symbol when every
/// symbol of the word is a single Unicode scalar (ALTO's `Glyph/@CONTENT` has length 1).
enum ALTORenderer {
    static func render(_ document: Document, glyphs: Bool = false) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <alto xmlns="http://www.loc.gov/standards/alto/ns-v4#" \
        xmlns:xlink="http://www.w3.org/1999/xlink" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.loc.gov/standards/alto/ns-v4# http://www.loc.gov/alto/v4/alto-4-4.xsd">
          <Description>
            <MeasurementUnit>pixel</MeasurementUnit>

        """
        if let file = document.recognizedPages.first(where: { !$0.file.isEmpty })?.file {
            out += "    <sourceImageInformation>\n      <fileName>\(xmlEscaped(file, attribute: false))</fileName>\n    </sourceImageInformation>\n"
        }
        out += "    <Processing ID=\"OCR_0\">\n      <processingSoftware>\n"
        out += "        <softwareName>\(xmlEscaped(document.software, attribute: false))</softwareName>\n"
        out += "      </processingSoftware>\n    </Processing>\n  </Description>\n  <Layout>\n"
        for page in document.pages {
            switch page {
            case .recognized(let result):
                appendPage(result, glyphs: glyphs, to: &out)
            case .failed(let index, let error):
                appendGap(index, detail: "\(error.code.name): \(error.message)", to: &out)
            case .missing(let index):
                appendGap(index, detail: "no result was received", to: &out)
            }
        }
        out += "  </Layout>\n</alto>\n"
        return out
    }

    private static func appendGap(_ index: Int, detail: String, to out: inout String) {
        out += "    <Page ID=\"page_\(index + 1)\" PHYSICAL_IMG_NR=\"\(index + 1)\" QUALITY=\"Missing\" QUALITY_DETAIL=\"\(xmlEscaped(detail))\"/>\n"
    }

    private static func appendPage(_ page: PageResult, glyphs: Bool, to out: inout String) {
        let p = Int(page.pageIndex) + 1
        out += "    <Page ID=\"page_\(p)\" PHYSICAL_IMG_NR=\"\(p)\" WIDTH=\"\(page.width)\" HEIGHT=\"\(page.height)\" PC=\"\(confidenceFraction(page.meanConfidence))\">\n"
        out += "      <PrintSpace HPOS=\"0\" VPOS=\"0\" WIDTH=\"\(page.width)\" HEIGHT=\"\(page.height)\">\n"
        var blockID = 0, parID = 0, lineID = 0, wordID = 0, otherID = 0
        for block in page.blocks {
            let paragraphs = block.nonEmptyParagraphs
            if paragraphs.isEmpty {
                guard let (kind, box) = block.nonTextRegion else { continue }
                otherID += 1
                let element = kind == .image ? "Illustration" : "GraphicalElement"
                out += "        <\(element) ID=\"region_\(p)_\(otherID)\" \(position(box))/>\n"
                continue
            }
            blockID += 1
            out += "        <ComposedBlock ID=\"block_\(p)_\(blockID)\" \(position(block.pixelBox))>\n"
            for paragraph in paragraphs {
                parID += 1
                out += "          <TextBlock ID=\"par_\(p)_\(parID)\" \(position(paragraph.pixelBox))>\n"
                for line in paragraph.nonEmptyLines {
                    lineID += 1
                    var attributes = position(line.pixelBox)
                    if line.baseline.count >= 4 {
                        let b = line.baseline
                        attributes += " BASELINE=\"\(b[0]),\(b[1]) \(b[2]),\(b[3])\""
                    }
                    out += "            <TextLine ID=\"line_\(p)_\(lineID)\" \(attributes)>\n"
                    for (w, word) in line.words.enumerated() {
                        wordID += 1
                        let box = word.pixelBox
                        out += "              <String ID=\"word_\(p)_\(wordID)\" \(position(box)) WC=\"\(confidenceFraction(word.confidence))\" CONTENT=\"\(xmlEscaped(word.text))\""
                        let symbols = word.symbols
                        if glyphs, !symbols.isEmpty, symbols.allSatisfy({ $0.text.unicodeScalars.count == 1 }) {
                            out += ">\n"
                            for symbol in symbols {
                                var glyph = "                <Glyph CONTENT=\"\(xmlEscaped(symbol.text))\" GC=\"\(confidenceFraction(symbol.confidence))\""
                                if let symbolBox = symbol.box { glyph += " " + position(PixelBox(symbolBox)) }
                                out += glyph + "/>\n"
                            }
                            out += "              </String>"
                        } else {
                            out += "/>"
                        }
                        if w + 1 < line.words.count {
                            let next = line.words[w + 1].pixelBox
                            out += "<SP HPOS=\"\(box.right)\" VPOS=\"\(box.top)\" WIDTH=\"\(max(0, next.left - box.right))\"/>"
                        }
                        out += "\n"
                    }
                    out += "            </TextLine>\n"
                }
                out += "          </TextBlock>\n"
            }
            out += "        </ComposedBlock>\n"
        }
        out += "      </PrintSpace>\n    </Page>\n"
    }

    private static func position(_ box: PixelBox) -> String {
        "HPOS=\"\(box.left)\" VPOS=\"\(box.top)\" WIDTH=\"\(box.width)\" HEIGHT=\"\(box.height)\""
    }

}

extension Document {
    /// ALTO with one `Glyph` per symbol inside each `String` when `glyphs` is true;
    /// `DocumentFormat.alto` is this with `false`.
    public func alto(glyphs: Bool) -> String {
        ALTORenderer.render(self, glyphs: glyphs)
    }
}
