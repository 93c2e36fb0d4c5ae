import OCRLeptonica
import OCRPageModel
import OCRWire
import Testing

/// Leptonica's one wrapper on an image drawn here (a gray page with two black boxes), so every
/// answer is known exactly: decoding, sizes, components, thresholds, ink, crops, turns, PNG.
@Suite struct PixTests {
    static let (width, height) = (120, 80)
    static let boxes = [RawRect(left: 10, top: 10, right: 30, bottom: 40), RawRect(left: 60, top: 20, right: 100, bottom: 30)]

    /// A binary PGM (P5) of the page: paper 230, the boxes 0.
    static func pgm() -> [UInt8] {
        var pixels = [UInt8](repeating: 230, count: width * height)
        for box in boxes { for y in box.top..<box.bottom { for x in box.left..<box.right { pixels[y * width + x] = 0 } } }
        return Array("P5\n\(width) \(height)\n255\n".utf8) + pixels
    }

    @Test func decodesAndMeasuresADrawnPage() throws {
        let page = try Pix.decode(Self.pgm())
        #expect(page.width == Self.width && page.height == Self.height && page.depth == 8)
        let header = try Pix.header(Self.pgm())
        #expect(header.width == Self.width && header.height == Self.height && header.pixels == 9_600)
        #expect(try page.componentBoxes().sorted { $0.left < $1.left } == Self.boxes)
        let grid = try page.grayGrid()
        #expect(grid.pixels[0] == 230 && grid.pixels[15 * Self.width + 15] == 0)
        let ink = try page.toBinary(threshold: 128)
        #expect(ink.depth == 1)
        #expect(try ink.inkShare(in: Self.boxes[0]) == 1.0)
        #expect(try ink.inkShare(in: RawRect(left: 0, top: 50, right: 120, bottom: 80)) == 0.0)
        #expect(try ink.inkShare(in: RawRect(left: 0, top: 10, right: 40, bottom: 40)) == 0.5)
        let columns = try ink.inkedColumns(in: RawRect(left: 0, top: 0, right: 120, bottom: 80))
        #expect(columns.count == 120 && columns.indices.filter { columns[$0] } == Array(10..<30) + Array(60..<100))
    }

    @Test func cropsTurnsAndRoundTripsThroughPNG() throws {
        let page = try Pix.decode(Self.pgm())
        let crop = try page.cropped(RawRect(left: 60, top: 10, right: 110, bottom: 40))
        #expect(crop.width == 50 && crop.height == 30)
        #expect(try crop.componentBoxes() == [RawRect(left: 0, top: 10, right: 40, bottom: 20)])
        let turned = try page.rotatedOrth(1)
        #expect(turned.width == Self.height && turned.height == Self.width)
        let again = try Pix.decode(try page.png())
        #expect(try again.grayGrid() == (try page.grayGrid()))
    }

    /// A 1 bpp page smoothed: 8 bpp of the same size, paper and the middle of ink as they were,
    /// a box's edge a ramp over a few pixels, and the box's ink neither grown nor shrunk.
    @Test func aBilevelPageSmoothedHasGrayEdges() throws {
        let ink = try Pix.decode(Self.pgm()).toBinary(threshold: 128)
        let smooth = try ink.gaussianBlurred(sigma: 0.7)
        #expect(smooth.width == Self.width && smooth.height == Self.height && smooth.depth == 8)
        let grid = try smooth.grayGrid()
        func gray(_ x: Int, _ y: Int) -> UInt8 { grid.pixels[y * Self.width + x] }
        #expect(gray(5, 5) == 255 && gray(20, 25) == 0)  // Paper, and the first box's middle.
        let edge = (6..<14).map { gray($0, 25) }  // Across the first box's left edge, at x = 10.
        #expect(edge.first == 255 && edge.last == 0 && zip(edge, edge.dropFirst()).allSatisfy { $0 >= $1 }, "\(edge)")
        #expect(edge.contains { $0 > 40 && $0 < 215 }, "\(edge)")  // A step of whole pixels no more.
        #expect(try smooth.componentBoxes().sorted { $0.left < $1.left } == Self.boxes)
        #expect(throws: Never.self) { try Pix.decode(Self.pgm()).gaussianBlurred(sigma: 2) }  // Gray input too.
    }

    /// Rules in light gray and rows of a ruled table told apart by shading are found as a
    /// table's rules; shading no rule runs down through parts no rows, a picture is not a band,
    /// a blurred word is no light rule, and the paper's own gray is no ink.
    @Test func lightRulesAndShadedBandsAreRules() throws {
        let (width, height) = (800, 800)
        var pixels = [UInt8](repeating: 235, count: width * height)  // gray paper
        func fill(_ rect: RawRect, _ value: UInt8) {
            for y in rect.top..<rect.bottom { for x in rect.left..<rect.right { pixels[y * width + x] = value } }
        }
        fill(RawRect(left: 50, top: 100, right: 750, bottom: 102), 175)  // a light-gray hairline across
        fill(RawRect(left: 600, top: 100, right: 602, bottom: 500), 175)  // and one down
        fill(RawRect(left: 50, top: 200, right: 550, bottom: 240), 205)  // a shaded row
        fill(RawRect(left: 400, top: 100, right: 403, bottom: 500), 0)  // a black rule down across it
        fill(RawRect(left: 50, top: 510, right: 750, bottom: 540), 205)  // a shaded row no rule runs down through
        fill(RawRect(left: 100, top: 580, right: 700, bottom: 790), 120)  // a picture, taller than a row
        // A blurred word: dark letters whose feet run together in light gray, a long thin light
        // stroke with dark letters on it, no rule.
        for x in stride(from: 420, to: 590, by: 20) { fill(RawRect(left: x, top: 300, right: x + 12, bottom: 330), 0) }
        fill(RawRect(left: 420, top: 328, right: 590, bottom: 330), 190)
        let page = try Pix.decode(Array("P5\n\(width) \(height)\n255\n".utf8) + pixels)
        let lines = try page.rulingLines(minimumLength: 40, maximumThickness: 12)
        func near(_ a: RawRect, _ b: RawRect) -> Bool {
            abs(a.left - b.left) <= 2 && abs(a.right - b.right) <= 2 && abs(a.top - b.top) <= 2 && abs(a.bottom - b.bottom) <= 2
        }
        let across = [RawRect(left: 50, top: 100, right: 750, bottom: 102), RawRect(left: 50, top: 200, right: 550, bottom: 202),
                      RawRect(left: 50, top: 238, right: 550, bottom: 240)]
        #expect(lines.horizontal.count == across.count)
        for rule in across { #expect(lines.horizontal.contains { near($0, rule) }, "\(rule) in \(lines.horizontal)") }
        let down = [RawRect(left: 600, top: 100, right: 602, bottom: 500), RawRect(left: 400, top: 100, right: 403, bottom: 500)]
        #expect(lines.vertical.count == down.count)
        for rule in down { #expect(lines.vertical.contains { near($0, rule) }, "\(rule) in \(lines.vertical)") }
    }

    /// A ruled table whose rows are told apart by shading, its first column's cell shaded
    /// over the three rows it spans while the other columns' rows alternate: each column's
    /// own shaded runs give the rules, so the first column has none inside its cell (a span)
    /// and the other columns have the edges of each shaded row, one rule across both of them.
    @Test func shadingSpanningRowsInOneColumnPartsRowsOnlyInTheOthers() throws {
        let (width, height) = (800, 1000)
        var pixels = [UInt8](repeating: 255, count: width * height)
        func fill(_ rect: RawRect, _ value: UInt8) {
            for y in rect.top..<rect.bottom { for x in rect.left..<rect.right { pixels[y * width + x] = value } }
        }
        fill(RawRect(left: 50, top: 100, right: 300, bottom: 220), 215)  // the first column's cell, three rows
        fill(RawRect(left: 300, top: 100, right: 750, bottom: 140), 215)  // the first row
        fill(RawRect(left: 300, top: 180, right: 750, bottom: 220), 215)  // the third row
        for x in [50, 300, 500, 748] { fill(RawRect(left: x, top: 60, right: x + 2, bottom: 260), 0) }  // column rules
        let page = try Pix.decode(Array("P5\n\(width) \(height)\n255\n".utf8) + pixels)
        let lines = try page.rulingLines(minimumLength: 40, maximumThickness: 12)
        func near(_ a: RawRect, _ b: RawRect) -> Bool {
            abs(a.left - b.left) <= 4 && abs(a.right - b.right) <= 4 && abs(a.top - b.top) <= 2 && abs(a.bottom - b.bottom) <= 2
        }
        let across = [RawRect(left: 50, top: 100, right: 750, bottom: 102), RawRect(left: 300, top: 138, right: 750, bottom: 140),
                      RawRect(left: 300, top: 180, right: 750, bottom: 182), RawRect(left: 50, top: 218, right: 750, bottom: 220)]
        #expect(lines.horizontal.count == across.count, "\(lines.horizontal)")
        for rule in across { #expect(lines.horizontal.contains { near($0, rule) }, "\(rule) in \(lines.horizontal)") }
        #expect(!lines.horizontal.contains { $0.left < 290 && $0.top > 110 && $0.top < 210 })  // none inside the spanning cell
    }

    @Test func corruptBytesAreInvalidArgument() {
        let error = #expect(throws: OCRError.self) { try Pix.decode(Array("P5\n120 80\n255\nshort".utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(throws: OCRError.self) { try Pix.header([0x89, 0x50, 0x4E, 0x47]) }
    }
}
