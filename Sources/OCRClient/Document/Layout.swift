import Foundation
import OCRWire

/// A pixel rectangle with exclusive right and bottom edges, as Tesseract's renderers print them.
package struct PixelBox: Hashable, Sendable {
    package var left: Int
    package var top: Int
    package var right: Int
    package var bottom: Int

    package static let zero = PixelBox(left: 0, top: 0, right: 0, bottom: 0)

    package init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    package init(_ box: BoundingBox) {
        self.init(left: Int(box.x), top: Int(box.y),
                  right: Int(box.x) + Int(box.width), bottom: Int(box.y) + Int(box.height))
    }

    /// The smallest box holding all of `boxes`; zero when there are none.
    package static func union(_ boxes: [PixelBox]) -> PixelBox {
        guard var result = boxes.first else { return .zero }
        for box in boxes.dropFirst() { result = result.union(box) }
        return result
    }

    package var width: Int { right - left }
    package var height: Int { bottom - top }

    package func union(_ other: PixelBox) -> PixelBox {
        PixelBox(left: min(left, other.left), top: min(top, other.top),
                 right: max(right, other.right), bottom: max(bottom, other.bottom))
    }
}

// Renderers write only elements that contain words, as Tesseract's do (its iterators skip empty
// blocks, paragraphs and lines), and number the elements they write.
extension TextLine {
    package var pixelBox: PixelBox { box.map(PixelBox.init) ?? .union(words.map(\.pixelBox)) }
}

extension Paragraph {
    package var nonEmptyLines: [TextLine] { lines.filter { !$0.words.isEmpty } }
    package var pixelBox: PixelBox { box.map(PixelBox.init) ?? .union(nonEmptyLines.map(\.pixelBox)) }
}

/// A block without text that the XML formats still describe.
package enum NonTextRegion { case image, separator }

extension Block {
    package var nonEmptyParagraphs: [Paragraph] { paragraphs.filter { !$0.nonEmptyLines.isEmpty } }
    /// An image or separator block with a box (what ALTO and PAGE write for blocks without
    /// text); nil for any other block.
    package var nonTextRegion: (NonTextRegion, PixelBox)? {
        guard let box else { return nil }
        switch type {
        case .image: return (.image, PixelBox(box))
        case .separator: return (.separator, PixelBox(box))
        default: return nil
        }
    }
    package var pixelBox: PixelBox { box.map(PixelBox.init) ?? .union(nonEmptyParagraphs.map(\.pixelBox)) }
}

extension PageResult {
    package var nonEmptyBlocks: [Block] { blocks.filter { !$0.nonEmptyParagraphs.isEmpty } }
    /// The page rectangle: the image size.
    package var pixelBox: PixelBox { PixelBox(left: 0, top: 0, right: Int(width), bottom: Int(height)) }
}

extension Word {
    package var pixelBox: PixelBox { box.map(PixelBox.init) ?? .union(symbols.compactMap { $0.box.map(PixelBox.init) }) }
}

extension PixelBox {
    package var asBoundingBox: BoundingBox {
        BoundingBox.with {
            $0.x = Int32(clamping: left)
            $0.y = Int32(clamping: top)
            $0.width = UInt32(clamping: max(0, width))
            $0.height = UInt32(clamping: max(0, height))
        }
    }
}

/// Confidence 0...1 as Tesseract's integer percent (`x_wconf`): truncated, robust to float error
/// (0.29 as a Float is 0.28999999; it must print 29, not 28).
package func percentTruncated(_ confidence: Float) -> Int {
    let value = (decimal(confidence) * 100 + 1e-9).rounded(.down)
    return Int(min(100, max(0, value)))
}

/// `value` as the Double its shortest decimal form names (Float 0.8 -> 0.8, not 0.800000011920929),
/// so percentages print as the engine meant them.
package func decimal(_ value: Float) -> Double {
    value.isFinite ? Double("\(value)") ?? Double(value) : Double(value)
}

/// A 0...1 confidence with at most 4 decimals, clamped (ALTO's `WC`, `GC`, `PC` and PAGE's
/// `conf` ranges).
package func confidenceFraction(_ value: Float) -> String {
    let clamped = value.isNaN ? 0 : min(1, max(0, Double(value)))
    var text = String(format: "%.4f", clamped)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}
