import Foundation
import OCRWire

/// A photographed page made flat (issue 14, as VisionKit's document camera does it): the page's
/// quadrilateral found (``PageOutline``), warped to an upright rectangle and cropped to it, and
/// its lighting evened out (Leptonica's background normalisation: a light falling off across a
/// photo, or a shadow, otherwise pushes Tesseract's global threshold into the text).
///
/// It also maps points back: ``toPhoto`` takes a point of the flat page to the photo, so boxes
/// read on the flat page are reported in the photo's own pixels (``PageGeometry``).
struct PhotoCorrection: Equatable {
    /// The page's corners in the photo's pixels.
    var quad: PageQuad
    var photoWidth: Int
    var photoHeight: Int
    /// The flat page's size in pixels.
    var flatWidth: Int
    var flatHeight: Int
    /// Flat page -> photo.
    var toPhoto: Homography
    /// Photo -> flat page.
    var toFlat: Homography

    /// The longest side of the reduced copy the page is looked for in.
    static let searchSide = 1000.0
    /// The closing brick that makes text vanish into the paper, as a share of that side.
    static let closingShare = 0.02

    /// The page in `photo`, or why there is none.
    static func find(in photo: Pix) throws(OCRError) -> (correction: PhotoCorrection?, reason: String) {
        let factor = min(1, searchSide / Double(max(photo.width, photo.height)))
        let reduced = try photo.toGray().scaled(factor)
        let closed = try reduced.grayClosed(size: Int(closingShare * Double(max(reduced.width, reduced.height))))
        switch PageOutline.find(closed: try closed.grayGrid(), original: try reduced.grayGrid()) {
        case .none(let reason):
            return (nil, reason)
        case .page(let found):
            // Reduced pixel (i, j) covers full-size pixels i / factor ..< (i + 1) / factor: its centre.
            let quad = PageQuad(found.corners.map { (($0.x + 0.5) / factor, ($0.y + 0.5) / factor) })
            let (w, h) = quad.flatSize
            let rectangle: [(x: Double, y: Double)] = [(0, 0), (Double(w), 0), (Double(w), Double(h)), (0, Double(h))]
            guard w >= 16, h >= 16, let toPhoto = Homography(from: rectangle, to: quad.corners),
                  let toFlat = Homography(from: quad.corners, to: rectangle) else { return (nil, "degenerate page corners") }
            return (PhotoCorrection(quad: quad, photoWidth: photo.width, photoHeight: photo.height,
                                    flatWidth: w, flatHeight: h, toPhoto: toPhoto, toFlat: toFlat), "")
        }
    }

    /// The flat page: `photo` warped to the rectangle, in 8 bpp gray with its background evened out.
    func flattened(_ photo: Pix) throws(OCRError) -> Pix {
        try photo.projected(toPhoto, width: flatWidth, height: flatHeight).backgroundNormalized()
    }

    /// The corners as PageResult.page_quad carries them: x, y clockwise from the top left.
    var wireQuad: [Int32] {
        quad.corners.flatMap { [Int32($0.x.rounded()), Int32($0.y.rounded())] }
    }
}
