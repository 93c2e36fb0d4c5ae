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

    @Test func corruptBytesAreInvalidArgument() {
        let error = #expect(throws: OCRError.self) { try Pix.decode(Array("P5\n120 80\n255\nshort".utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(throws: OCRError.self) { try Pix.header([0x89, 0x50, 0x4E, 0x47]) }
    }
}
