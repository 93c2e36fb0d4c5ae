import Foundation

/// One recognised word for a PDF's invisible text layer: its text and its box in the pixels of
/// the image it was recognised on (origin top left).
package struct PDFTextWord: Sendable, Equatable {
    package var text: String
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(text: String, x: Double, y: Double, width: Double, height: Double) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Where the recognised image lies on a PDF page: the raster covered `box` (the crop box, in
/// user space) turned clockwise by `rotation` degrees (the page's /Rotate), as a viewer and the
/// rasteriser show it, in `pixelWidth` x `pixelHeight` pixels.
package struct PDFPlacement: Sendable {
    package var box: (llx: Double, lly: Double, urx: Double, ury: Double)
    package var rotation: Int
    package var pixelWidth: Double
    package var pixelHeight: Double

    package init(box: (llx: Double, lly: Double, urx: Double, ury: Double), rotation: Int, pixelWidth: Double, pixelHeight: Double) {
        self.box = box
        self.rotation = ((rotation % 360) + 360) % 360
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// The page as shown (rotated), in points.
    var shownWidth: Double { rotation % 180 == 0 ? box.urx - box.llx : box.ury - box.lly }
    var shownHeight: Double { rotation % 180 == 0 ? box.ury - box.lly : box.urx - box.llx }

    /// User-space point of a pixel position (origin top left of the shown page).
    func point(_ px: Double, _ py: Double) -> (x: Double, y: Double) {
        let u = px * shownWidth / pixelWidth, v = py * shownHeight / pixelHeight
        let w = box.urx - box.llx, h = box.ury - box.lly
        switch rotation {
        case 90: return (box.llx + v, box.lly + u)
        case 180: return (box.llx + w - u, box.lly + v)
        case 270: return (box.llx + w - v, box.lly + h - u)
        default: return (box.llx + u, box.lly + h - v)
        }
    }
}

/// The content stream of an invisible text layer (text render mode 3, as Tesseract's and
/// OCRmyPDF's renderers write it): each word in reading order with the glyphless font, its
/// baseline on the bottom of its box, the font as tall as the box and stretched (`Tz`) to its
/// width, so that selecting, searching and `pdftotext -bbox` find the word where the page shows
/// it. No space characters: as in Tesseract's renderer, the gaps are the spaces (a space glyph
/// filling a gap makes extractors see no gap, and join the words).
enum TextLayer {
    /// The font resource name the stream uses.
    static let fontName = "/OCRf"

    /// Which way a line's text runs in the recognised image.
    enum Direction { case right, down, up }

    /// Left to right, unless the line is vertical: its words step down (text turned clockwise)
    /// or up the image, or a lone word is much taller than wide; lone words follow the page's
    /// other vertical lines, else read downwards.
    static func directions(_ lines: [[PDFTextWord]]) -> [Direction] {
        func stepped(_ line: [PDFTextWord]) -> Direction? {
            guard let first = line.first, let last = line.last, line.count >= 2 else { return nil }
            let dx = (last.x + last.width / 2) - (first.x + first.width / 2), dy = (last.y + last.height / 2) - (first.y + first.height / 2)
            return abs(dy) > abs(dx) ? (dy > 0 ? .down : .up) : .right
        }
        let stepping = lines.compactMap(stepped)
        let lone: Direction = stepping.filter { $0 == .up }.count > stepping.filter { $0 == .down }.count ? .up : .down
        return lines.map { line in
            if let direction = stepped(line) { return direction }
            guard let word = line.first, word.text.count >= 2, word.height > 2 * word.width else { return .right }
            return lone
        }
    }

    static func content(lines: [[PDFTextWord]], placement: PDFPlacement) -> String {
        var out = "BT\n3 Tr\n"
        // What the text state already holds: the last word's axes and origin, size and stretch.
        var state: (last: (axes: String, x: Double, y: Double)?, size: String, stretch: String) = (nil, "", "")
        for (line, direction) in zip(lines, directions(lines)) {
            let words = line.filter { !$0.text.isEmpty && $0.width > 0 && $0.height > 0 }
            // Per word, in image pixels: where its baseline starts, the unit vectors along the
            // text and towards the glyphs' tops, and its length and height along those.
            let frames = words.map { w -> (origin: (Double, Double), along: (Double, Double), up: (Double, Double), length: Double, size: Double) in
                // In a vertical line, a word wider than tall is not turned (Tesseract gives such
                // lines words of both shapes): its glyphs lie on its box either way.
                let turned = direction != .right && (w.height >= w.width || w.text.count == 1)
                switch turned ? direction : .right {
                case .right: return ((w.x, w.y + w.height), (1, 0), (0, -1), w.width, w.height)
                case .down: return ((w.x, w.y), (0, 1), (1, 0), w.height, w.width)
                case .up: return ((w.x + w.width, w.y + w.height), (0, -1), (-1, 0), w.height, w.width)
                }
            }
            // Into page space (points, rotation, non-square pixels all in `placement`): where
            // the baseline starts, unit vectors along it and up, and the word's length and size.
            let placed = frames.map { frame -> (origin: (x: Double, y: Double), along: (Double, Double), up: (Double, Double), length: Double, size: Double) in
                let origin = placement.point(frame.origin.0, frame.origin.1)
                func toward(_ v: (Double, Double), _ pixels: Double) -> (Double, Double, Double) {
                    let p = placement.point(frame.origin.0 + v.0 * pixels, frame.origin.1 + v.1 * pixels)
                    let d = (p.x - origin.x, p.y - origin.y)
                    let length = (d.0 * d.0 + d.1 * d.1).squareRoot()
                    return length > 0 ? (d.0 / length, d.1 / length, length) : (1, 0, 0)
                }
                let along = toward(frame.along, frame.length), up = toward(frame.up, frame.size)
                return (origin, (along.0, along.1), (up.0, up.1), along.2, up.2)
            }
            // Text extraction (poppler's pdftotext among others) sees a space between two words
            // only when the gap between them is wide enough for the font size, and recognised
            // boxes can nearly touch: where a gap is under a fifth of an em, the glyphs of the
            // words on both sides give up to 7.5% of their length at that end, so each still
            // covers 85% of its box.
            var cutStart = [Double](repeating: 0, count: words.count), cutEnd = cutStart
            for i in words.indices.dropLast() {
                let a = placed[i], b = placed[i + 1]
                let gap = (b.origin.x - a.origin.x) * a.along.0 + (b.origin.y - a.origin.y) * a.along.1 - a.length
                var need = max(0, 0.2 * a.size - gap)
                cutEnd[i] = min(0.075 * a.length, need)
                need -= cutEnd[i]
                cutStart[i + 1] = min(0.075 * b.length, need)
            }
            for (i, (word, p)) in zip(words, placed).enumerated() where p.size > 0 && p.length > 0 {
                let units = Array(word.text.utf16).count
                let glyphs = p.length - cutStart[i] - cutEnd[i]
                let x = p.origin.x + p.along.0 * cutStart[i], y = p.origin.y + p.along.1 * cutStart[i]
                // Each glyph is half an em wide (/DW 500): stretch the word over its glyphs' length.
                let stretch = n(100 * glyphs / (Double(units) * p.size / 2), decimals: 1), size = n(p.size)
                // A word turned like the one before moves from it (Td, in that text space);
                // size and stretch are set only when they change: a third less to store.
                let axes = "\(n(p.along.0, decimals: 4)) \(n(p.along.1, decimals: 4)) \(n(p.up.0, decimals: 4)) \(n(p.up.1, decimals: 4))"
                // The position is tracked as written (rounded), so the moves never drift.
                var at = (x: Double(n(x))!, y: Double(n(y))!)
                if let last = state.last, last.axes == axes {
                    let dx = x - last.x, dy = y - last.y
                    let tx = n(dx * p.along.0 + dy * p.along.1), ty = n(dx * p.up.0 + dy * p.up.1)
                    out += "\(tx) \(ty) Td"
                    at = (last.x + Double(tx)! * p.along.0 + Double(ty)! * p.up.0, last.y + Double(tx)! * p.along.1 + Double(ty)! * p.up.1)
                } else {
                    out += "\(axes) \(n(x)) \(n(y)) Tm"
                }
                if state.size != size { out += " \(fontName) \(size) Tf" }
                if state.stretch != stretch { out += " \(stretch) Tz" }
                out += " <\(hex(word.text))> Tj\n"
                state = (last: (axes, at.x, at.y), size: size, stretch: stretch)
            }
        }
        return out + "ET\n"
    }

    /// UTF-16BE code units in hex: the glyphless font's codes are Unicode code units
    /// (Identity-H, with a ToUnicode map that gives them back).
    static func hex(_ text: String) -> String {
        text.utf16.map { String(format: "%04X", $0) }.joined()
    }

    /// A number as PDF content writes it: at most `decimals` decimals (a hundredth of a point
    /// is far below what anyone selects), no exponent.
    static func n(_ value: Double, decimals: Int = 2) -> String {
        guard value.isFinite else { return "0" }
        var s = String(format: "%.\(decimals)f", value)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// The ToUnicode CMap of the glyphless font: every 2-byte code is its own UTF-16 code unit,
    /// for the 256-code `blocks` (high bytes) the text uses, one range each, because a bfrange
    /// may only vary in its last byte (English needs two: 0x00 and 0x20 for quotes and dashes).
    static func toUnicodeCMap(blocks: [UInt8]) -> String {
        var s = """
        /CIDInit /ProcSet findresource begin
        12 dict begin
        begincmap
        /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
        /CMapName /Adobe-Identity-UCS def
        /CMapType 2 def
        1 begincodespacerange
        <0000> <FFFF>
        endcodespacerange

        """
        for start in stride(from: 0, to: blocks.count, by: 100) {
            let chunk = blocks[start..<min(start + 100, blocks.count)]
            s += "\(chunk.count) beginbfrange\n"
            for high in chunk {
                let h = String(format: "%02X", high)
                s += "<\(h)00> <\(h)FF> <\(h)00>\n"
            }
            s += "endbfrange\n"
        }
        return s + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    }
}
