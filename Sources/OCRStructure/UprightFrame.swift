import OCRWire

/// A page's boxes as the page reads, upright. Boxes come in the original image's pixels; a page
/// the worker turned before reading it (`rotation_degrees`: a photo stored on its side, a table
/// printed across the page, `auto_rotate`) has its lines running down that image, and every rule
/// of structure analysis (rows across, columns down, headings above) holds only upright. The
/// analysis works on the page turned upright and gives its boxes back in the original pixels.
struct UprightFrame {
    /// Quarter turns clockwise from the original image to the upright page (0-3).
    let quarterTurns: Int
    /// The original image's size.
    let width: Int, height: Int

    init(_ page: Ocr_V1_PageResult) {
        quarterTurns = ((4 - Int(page.rotationDegrees) / 90 % 4) % 4 + 4) % 4
        width = Int(page.width)
        height = Int(page.height)
    }

    /// `box` of the original image, on the upright page.
    func upright(_ box: PageBox) -> PageBox { Self.turned(box, quarterTurns: quarterTurns, width: width, height: height) }

    /// `box` of the upright page, in the original image.
    func original(_ box: PageBox) -> PageBox {
        let turned = quarterTurns % 2 == 0 ? (width, height) : (height, width)
        return Self.turned(box, quarterTurns: (4 - quarterTurns) % 4, width: turned.0, height: turned.1)
    }

    /// `page` with its words' boxes, rules and size on the upright page.
    func upright(_ page: Ocr_V1_PageResult) -> Ocr_V1_PageResult {
        guard quarterTurns != 0 else { return page }
        var page = page
        if quarterTurns % 2 == 1 { (page.width, page.height) = (page.height, page.width) }
        func turn(_ box: Ocr_V1_BoundingBox) -> Ocr_V1_BoundingBox { Ocr_V1_BoundingBox(upright(PageBox(box))) }
        page.rules = page.rules.map(turn)
        for b in page.blocks.indices {
            if let box = page.blocks[b].box { page.blocks[b].box = turn(box) }
            for p in page.blocks[b].paragraphs.indices {
                for l in page.blocks[b].paragraphs[p].lines.indices {
                    for w in page.blocks[b].paragraphs[p].lines[l].words.indices {
                        if let box = page.blocks[b].paragraphs[p].lines[l].words[w].box {
                            page.blocks[b].paragraphs[p].lines[l].words[w].box = turn(box)
                        }
                    }
                }
            }
        }
        return page
    }

    /// `structure`, found on the upright page, with its boxes in the original image.
    func original(_ structure: PageStructure) -> PageStructure {
        guard quarterTurns != 0 else { return structure }
        var structure = structure
        structure.elements = structure.elements.map { $0.mappingBoxes(original) }
        structure.detectedData = structure.detectedData.map { $0.mappingBox(original) }
        return structure
    }

    /// `box` in a `width` x `height` image turned `quarterTurns` clockwise.
    static func turned(_ box: PageBox, quarterTurns: Int, width: Int, height: Int) -> PageBox {
        switch quarterTurns % 4 {
        case 1: PageBox(x: height - box.maxY, y: box.x, width: box.height, height: box.width)
        case 2: PageBox(x: width - box.maxX, y: height - box.maxY, width: box.width, height: box.height)
        case 3: PageBox(x: box.y, y: width - box.maxX, width: box.height, height: box.width)
        default: box
        }
    }
}
