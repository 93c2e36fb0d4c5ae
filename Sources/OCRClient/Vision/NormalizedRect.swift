import Foundation
import OCRWire

/// A rectangle in normalised image coordinates: 0...1 on both axes, origin at the BOTTOM-LEFT
/// corner of the image, as Vision reports every box. Computed from the pixel boxes on the wire
/// (top-left origin), never sent.
///
/// Vision: `NormalizedRect` (Swift Vision API), or the normalised `CGRect` of
/// `VNDetectedObjectObservation.boundingBox`.
public struct NormalizedRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge, 0...1 of the image width. Vision: `origin.x`.
    public var x: Double
    /// Bottom edge, 0...1 of the image height, measured from the bottom. Vision: `origin.y`.
    public var y: Double
    /// Vision: `width`.
    public var width: Double
    /// Vision: `height`.
    public var height: Double

    /// A rectangle in normalised coordinates (0...1, origin bottom-left).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image. Vision: `NormalizedRect.fullImage`.
    public static let fullImage = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// Normalises a pixel box (top-left origin) of an image `imageWidth` x `imageHeight` pixels,
    /// flipping it to a bottom-left origin: `y = 1 - (top + height) / imageHeight`.
    /// Vision: `NormalizedRect(imageRect:imageSize:)` / `VNNormalizedRectForImageRect`
    /// (which do not flip: Core Graphics image rects are already bottom-left).
    public init(imageRect box: BoundingBox, imageWidth: Int, imageHeight: Int) {
        self.init(PixelBox(box), imageWidth: imageWidth, imageHeight: imageHeight)
    }

    init(_ box: PixelBox, imageWidth: Int, imageHeight: Int) {
        let w = Double(max(1, imageWidth)), h = Double(max(1, imageHeight))
        self.init(x: Double(box.left) / w, y: 1 - Double(box.bottom) / h,
                  width: Double(box.width) / w, height: Double(box.height) / h)
    }

    /// Back to a pixel box with a top-left origin, rounded outwards to whole pixels.
    /// Vision: `toImageCoordinates(_:origin:)` / `VNImageRectForNormalizedRect`.
    public func toImageCoordinates(imageWidth: Int, imageHeight: Int) -> BoundingBox {
        let w = Double(imageWidth), h = Double(imageHeight)
        let left = Self.pixel(minX * w, .down), right = Self.pixel(maxX * w, .up)
        let top = Self.pixel((1 - maxY) * h, .down), bottom = Self.pixel((1 - minY) * h, .up)
        return BoundingBox.with {
            $0.x = Int32(clamping: Int(left))
            $0.y = Int32(clamping: Int(top))
            $0.width = UInt32(clamping: Int(max(0, right - left)))
            $0.height = UInt32(clamping: Int(max(0, bottom - top)))
        }
    }

    /// Rounds outwards, except that values within floating-point error of a whole pixel are
    /// that pixel (so a pixel box survives the round trip through normalised coordinates).
    private static func pixel(_ value: Double, _ rule: FloatingPointRoundingRule) -> Double {
        let nearest = value.rounded()
        return abs(value - nearest) < 1e-6 ? nearest : value.rounded(rule)
    }

    /// Left edge.
    public var minX: Double { x }
    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var minY: Double { y }
    /// Top edge.
    public var maxY: Double { y + height }
    /// Horizontal centre.
    public var midX: Double { x + width / 2 }
    /// Vertical centre.
    public var midY: Double { y + height / 2 }

    /// The smallest rectangle holding both. Vision/Core Graphics: `CGRect.union(_:)`.
    public func union(_ other: NormalizedRect) -> NormalizedRect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return NormalizedRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// True when `other` lies inside this rectangle (edges included, with `tolerance`).
    /// Core Graphics: `CGRect.contains(_:)`.
    public func contains(_ other: NormalizedRect, tolerance: Double = 1e-9) -> Bool {
        other.minX >= minX - tolerance && other.maxX <= maxX + tolerance
            && other.minY >= minY - tolerance && other.maxY <= maxY + tolerance
    }

    /// As a Core Graphics rectangle (still normalised, bottom-left origin), as Vision's
    /// `boundingBox: CGRect`. Vision: `NormalizedRect.cgRect`.
    public var cgRect: CGRect {
        CGRect(x: x, y: y, width: width, height: height)
    }

    /// `(x, y, width, height)` with three decimals.
    public var description: String {
        String(format: "(x: %.4f, y: %.4f, w: %.4f, h: %.4f)", x, y, width, height)
    }
}
