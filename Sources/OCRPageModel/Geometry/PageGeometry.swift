import Foundation
import OCRWire

/// The transforms applied to a page before recognition, and their inverse for boxes.
///
/// In order, on the original image: (0) for a photographed page, `photo`'s perspective
/// correction to its flat `width x height` page (otherwise the original is `width x height`), (1) `quarterTurns` clockwise quarter turns
/// (undoing a rotation OSD found), (1b) for a photo whose text lines converge, the vertical
/// shifts that make them parallel (``ConvergingLines``; same size), (2) a rotation by `skewDegrees` clockwise about the centre of
/// the turned image, keeping its size (deskew), (3) a crop to the region of interest whose top-left corner is (`cropX`, `cropY`).
/// Tesseract reports boxes in the final image; ``toOriginal(_:)`` maps each of a box's four corners
/// back through (3), (2), (1), (0) and returns the axis-aligned box around them, clamped to the
/// original page. After a deskew, boxes therefore grow by up to `sin(skew) x` the other side.
/// (The deskew rotation keeps the canvas size, so at a few degrees only the page's extreme corners,
/// normally margin, fall outside it.)
package struct PageGeometry: Equatable {
    package var width: Int
    package var height: Int
    package var quarterTurns = 0
    package var skewDegrees = 0.0
    package var cropX = 0
    package var cropY = 0
    /// Step (0): the photographed page's correction, nil for an image read as it is.
    package var photo: PhotoCorrection?
    /// Step (1b): converging text lines made parallel, nil when they were not.
    package var lines: VerticalDisparity?

    package init(width: Int, height: Int, quarterTurns: Int = 0, skewDegrees: Double = 0.0, cropX: Int = 0, cropY: Int = 0, photo: PhotoCorrection? = nil, lines: VerticalDisparity? = nil) {
        self.width = width; self.height = height; self.quarterTurns = quarterTurns; self.skewDegrees = skewDegrees; self.cropX = cropX; self.cropY = cropY; self.photo = photo; self.lines = lines
    }

    /// The original image's size.
    package var originalSize: (w: Double, h: Double) {
        photo.map { (Double($0.photoWidth), Double($0.photoHeight)) } ?? (Double(width), Double(height))
    }

    /// Size of the image after step (1).
    package var turnedSize: (w: Double, h: Double) {
        quarterTurns % 2 == 0 ? (Double(width), Double(height)) : (Double(height), Double(width))
    }

    /// A point in the processed image to the original image.
    package func toOriginal(_ x: Double, _ y: Double) -> (Double, Double) {
        var (x, y) = (x + Double(cropX), y + Double(cropY))
        if skewDegrees != 0 {
            let (w, h) = turnedSize
            (x, y) = Self.rotate(x, y, by: -skewDegrees, cx: w / 2, cy: h / 2)
        }
        if let lines { (x, y) = lines.source(x, y) }
        let W = Double(width), H = Double(height)
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: (x, y) = (y, H - x)       // turned 90 cw: x' = H - y, y' = x
        case 2: (x, y) = (W - x, H - y)
        case 3: (x, y) = (W - y, x)       // turned 270 cw: x' = y, y' = W - x
        default: break
        }
        guard let photo else { return (x, y) }
        let p = photo.photoPoint(x, y)
        return (p.x, p.y)
    }

    /// A point in the original image to the processed image before cropping (for the region of interest).
    package func toProcessed(_ x: Double, _ y: Double) -> (Double, Double) {
        let W = Double(width), H = Double(height)
        let (x, y) = photo.map { $0.pagePoint(x, y) } ?? (x, y)
        var (px, py): (Double, Double)
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: (px, py) = (H - y, x)
        case 2: (px, py) = (W - x, H - y)
        case 3: (px, py) = (y, W - x)
        default: (px, py) = (x, y)
        }
        if let lines { (px, py) = lines.straightened(px, py) }
        if skewDegrees != 0 {
            let (w, h) = turnedSize
            (px, py) = Self.rotate(px, py, by: skewDegrees, cx: w / 2, cy: h / 2)
        }
        return (px, py)
    }

    /// Clockwise rotation on screen (y down) by `degrees` about (cx, cy).
    package static func rotate(_ x: Double, _ y: Double, by degrees: Double, cx: Double, cy: Double) -> (Double, Double) {
        let a = degrees * .pi / 180, dx = x - cx, dy = y - cy
        return (cx + dx * cos(a) - dy * sin(a), cy + dx * sin(a) + dy * cos(a))
    }

    /// A processed-image rectangle as a box in the original image, clamped to the page.
    /// (Every step but dewarping and straightening maps straight lines to straight lines; for a
    /// dewarped or straightened page the midpoints of the edges are mapped too, as its lines bend.)
    package func toOriginal(_ r: RawRect) -> BoundingBox {
        let (mx, my) = ((r.left + r.right) / 2, (r.top + r.bottom) / 2)
        let bends = photo?.disparity != nil || lines != nil
        let corners = ([(r.left, r.top), (r.right, r.top), (r.left, r.bottom), (r.right, r.bottom)]
                       + (bends ? [(mx, r.top), (mx, r.bottom), (r.left, my), (r.right, my)] : []))
            .map { toOriginal(Double($0.0), Double($0.1)) }
        let minX = corners.map(\.0).min()!, maxX = corners.map(\.0).max()!
        let minY = corners.map(\.1).min()!, maxY = corners.map(\.1).max()!
        let (W, H) = originalSize
        let left = Int(max(0, min(W, minX.rounded(.down))))
        let top = Int(max(0, min(H, minY.rounded(.down))))
        let right = Int(max(0, min(W, maxX.rounded(.up))))
        let bottom = Int(max(0, min(H, maxY.rounded(.up))))
        var box = BoundingBox()
        box.x = Int32(left)
        box.y = Int32(top)
        box.width = UInt32(max(0, right - left))
        box.height = UInt32(max(0, bottom - top))
        return box
    }

    /// A normalised region of the original image as a rectangle of the processed image.
    package func toProcessed(_ roi: Ocr_V1_NormalizedRect) -> RawRect {
        let (W, H) = originalSize
        let x0 = roi.x * W, y0 = roi.y * H, x1 = (roi.x + roi.width) * W, y1 = (roi.y + roi.height) * H
        let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map { toProcessed($0.0, $0.1) }
        let (w, h) = turnedSize
        func clampX(_ v: Double) -> Int { Int(max(0, min(w, v)).rounded()) }
        func clampY(_ v: Double) -> Int { Int(max(0, min(h, v)).rounded()) }
        return RawRect(left: clampX(corners.map(\.0).min()!), top: clampY(corners.map(\.1).min()!),
                       right: clampX(corners.map(\.0).max()!), bottom: clampY(corners.map(\.1).max()!))
    }
}
