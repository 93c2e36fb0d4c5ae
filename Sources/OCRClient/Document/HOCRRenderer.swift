import Foundation
import OCRStructure
import OCRWire

/// `DocumentFormat.hocr`: hOCR 1.2 in XHTML, laid out as `tesseract X out hocr` writes it.
///
/// Per page an `ocr_page` (`image`, `bbox`, `ppageno` = zero-based page index, `scan_res`), then
/// `ocr_carea` (block), `ocr_par`, `ocr_line` (`bbox`, `baseline` slope and offset relative to
/// the line box's bottom-left corner) and `ocrx_word` (`bbox`, `x_wconf` 0...100). With character
/// boxes each word holds one `ocrx_cinfo` per symbol (`x_bboxes`, and `x_confs`: the hOCR 1.2
/// name; Tesseract's `hocr_char_boxes=1` writes a non-standard `x_conf`). Ids are `page_P`, `block_P_N`, `par_P_N`, `line_P_N`, `word_P_N`
/// counted through the page. Failed or missing pages are empty `ocr_page` elements holding a
/// comment that names the failure.
///
/// The document's structure (``Document/structure``) types the blocks, as hOCR's floats: the
/// blocks of a running header are one `ocr_header`, of a running footer one `ocr_footer` (an
/// `ocr_pageno` when it is the page number), the blocks of a table one `ocr_table`, of a
/// caption one `ocr_caption`, each with the element's `bbox` and holding the blocks'
/// paragraphs; other blocks stay `ocr_carea` (hOCR has no class for a footnote).
enum HOCRRenderer {
    static func render(_ document: Document, characterBoxes: Bool = false) -> String {
        let structures = Dictionary(document.structure.map { ($0.pageIndex, $0) }, uniquingKeysWith: { first, _ in first })
        var capabilities = ["ocr_page", "ocr_carea", "ocr_par", "ocr_line", "ocrx_word", "ocrp_wconf"]
        let floats = Set(structures.values.flatMap { $0.elements.compactMap(floatClass) })
        capabilities += ["ocr_header", "ocr_footer", "ocr_pageno", "ocr_table", "ocr_caption"].filter(floats.contains)
        if characterBoxes { capabilities.append("ocrx_cinfo") }
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
            "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
         <head>
          <title></title>
          <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
          <meta name='ocr-system' content='\(xmlEscaped(document.software))' />
          <meta name='ocr-capabilities' content='\(capabilities.joined(separator: " "))'/>

        """
        if !document.languages.isEmpty {
            out += "  <meta name='ocr-langs' content='\(xmlEscaped(document.languages.joined(separator: " ")))'/>\n"
        }
        out += "  <meta name='ocr-number-of-pages' content='\(document.pageCount)'/>\n"
        out += " </head>\n <body>\n"
        for page in document.pages {
            switch page {
            case .recognized(let result):
                appendPage(result, floats: (structures[Int(result.pageIndex)]?.elements ?? []).compactMap { element in
                    floatClass(element).map { ($0, element.box) }
                }, characterBoxes: characterBoxes, to: &out)
            case .failed(let index, let error):
                appendGap(index, note: "page \(index + 1) failed: \(error.code.name): \(error.message)", to: &out)
            case .missing(let index):
                appendGap(index, note: "page \(index + 1) missing: no result was received", to: &out)
            }
        }
        out += " </body>\n</html>\n"
        return out
    }

    private static func appendGap(_ index: Int, note: String, to out: inout String) {
        // "--" may not appear inside an XML comment.
        let comment = xmlEscaped(note, attribute: false).replacingOccurrences(of: "--", with: "- -")
        out += "  <div class='ocr_page' id='page_\(index + 1)' title='bbox 0 0 0 0; ppageno \(index)'>\n"
        out += "   <!-- \(comment) -->\n  </div>\n"
    }

    /// The hOCR float class of a structure element: running text, tables and captions; nil for
    /// the rest.
    private static func floatClass(_ element: StructureElement) -> String? {
        switch element {
        case .pageHeader: "ocr_header"
        case .pageFooter(let footer): footer.isPageNumber ? "ocr_pageno" : "ocr_footer"
        case .table: "ocr_table"
        case .caption: "ocr_caption"
        default: nil
        }
    }

    /// `page`'s blocks, those whose centres lie in one of `floats` grouped into a div of its class.
    private static func appendPage(_ page: PageResult, floats: [(className: String, box: PageBox)], characterBoxes: Bool, to out: inout String) {
        let p = Int(page.pageIndex) + 1
        var title = ""
        if !page.file.isEmpty {
            title += "image \"\(page.file.replacingOccurrences(of: "\"", with: "\\\""))\"; "
        }
        title += "bbox \(bbox(page.pixelBox)); ppageno \(page.pageIndex)"
        if page.dpi > 0 { title += "; scan_res \(page.dpi) \(page.dpi)" }
        out += "  <div class='ocr_page' id='page_\(p)' title='\(xmlEscaped(title))'>\n"
        var blockID = 0, parID = 0, lineID = 0, wordID = 0
        var openFloat: Int?  // the float whose div is open
        func float(of block: PixelBox) -> Int? {
            floats.firstIndex { $0.box.contains(x: (block.left + block.right) / 2, y: (block.top + block.bottom) / 2) }
        }
        for block in page.nonEmptyBlocks {
            blockID += 1
            let inFloat = float(of: block.pixelBox)
            if let inFloat {
                if openFloat != inFloat {
                    if openFloat != nil { out += "   </div>\n" }
                    let box = floats[inFloat].box
                    out += "   <div class='\(floats[inFloat].className)' id='block_\(p)_\(blockID)' title=\"bbox \(box.x) \(box.y) \(box.x + box.width) \(box.y + box.height)\">\n"
                    openFloat = inFloat
                }
            } else {
                if openFloat != nil { out += "   </div>\n" }
                openFloat = nil
                out += "   <div class='ocr_carea' id='block_\(p)_\(blockID)' title=\"bbox \(bbox(block.pixelBox))\">\n"
            }
            for paragraph in block.nonEmptyParagraphs {
                parID += 1
                out += "    <p class='ocr_par' id='par_\(p)_\(parID)' title=\"bbox \(bbox(paragraph.pixelBox))\">\n"
                for line in paragraph.nonEmptyLines {
                    lineID += 1
                    let lineBox = line.pixelBox
                    var lineTitle = "bbox \(bbox(lineBox))"
                    if let baseline = baseline(line.baseline, in: lineBox) { lineTitle += "; baseline \(baseline)" }
                    out += "     <span class='ocr_line' id='line_\(p)_\(lineID)' title=\"\(lineTitle)\">\n"
                    for word in line.words {
                        wordID += 1
                        let wordTitle = "bbox \(bbox(word.pixelBox)); x_wconf \(percentTruncated(word.confidence))"
                        out += "      <span class='ocrx_word' id='word_\(p)_\(wordID)' title='\(wordTitle)'>"
                        let symbols = word.symbols.filter { $0.box != nil }
                        if characterBoxes, !symbols.isEmpty {
                            out += "\n"
                            for symbol in symbols {
                                let conf = String(format: "%.2f", decimal(symbol.confidence) * 100)
                                out += "       <span class='ocrx_cinfo' title='x_bboxes \(bbox(PixelBox(symbol.box!))); x_confs \(conf)'>"
                                out += xmlEscaped(symbol.text, attribute: false) + "</span>\n"
                            }
                            out += "      </span>\n"
                        } else {
                            out += xmlEscaped(word.text, attribute: false) + "</span>\n"
                        }
                    }
                    out += "     </span>\n"
                }
                out += "    </p>\n"
            }
            if inFloat == nil { out += "   </div>\n" }
        }
        if openFloat != nil { out += "   </div>\n" }
        out += "  </div>\n"
    }

    private static func bbox(_ box: PixelBox) -> String {
        "\(box.left) \(box.top) \(box.right) \(box.bottom)"
    }

    /// hOCR `baseline p1 p0`: the line y = p1 * x + p0 through the baseline's two points, with the
    /// bottom-left corner of the line box as origin, rounded to 3 decimals (as Tesseract does).
    /// Nil when the baseline is absent or vertical.
    static func baseline(_ points: [Int32], in box: PixelBox) -> String? {
        guard points.count >= 4 else { return nil }
        let x1 = Double(Int(points[0]) - box.left), y1 = Double(Int(points[1]) - box.bottom)
        let x2 = Double(Int(points[2]) - box.left), y2 = Double(Int(points[3]) - box.bottom)
        guard x1 != x2 else { return nil }
        let slope = (y2 - y1) / (x2 - x1)
        let offset = y1 - slope * x1
        return "\(cNumber((slope * 1000).rounded() / 1000)) \(cNumber((offset * 1000).rounded() / 1000))"
    }

    /// A number as C++ streams print a double by default (`%g`), without a negative zero.
    static func cNumber(_ value: Double) -> String {
        value == 0 ? "0" : String(format: "%g", value)
    }
}

extension Document {
    /// hOCR with one `ocrx_cinfo` per symbol inside each word when `characterBoxes` is true
    /// (Tesseract's `hocr_char_boxes=1`); `DocumentFormat.hocr` is this with `false`.
    public func hOCR(characterBoxes: Bool) -> String {
        HOCRRenderer.render(self, characterBoxes: characterBoxes)
    }
}
