import Foundation
import OCRWire

/// A photographed page made flat (issue 14, as VisionKit's document camera does it): the page's
/// quadrilateral found (``PageOutline``), warped to an upright rectangle and cropped to it, and
/// its lighting evened out (Leptonica's background normalisation: a light falling off across a
/// photo, or a shadow, otherwise pushes Tesseract's global threshold into the text), and its
/// text lines straightened when they curve (Leptonica's dewarping: a book's page sags).
///
/// It also maps points back: ``photoPoint(_:_:)`` takes a point of the page as recognised to the
/// photo, so boxes are reported in the photo's own pixels (``PageGeometry``).
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
    /// The straightening applied to the flat page, nil when its lines were straight enough.
    var disparity: VerticalDisparity?

    /// The closing brick that makes text vanish into the paper, as a share of that side.
    static let closingShare = 0.02

    /// The page in `reduced.source`; nil when there is none (``PageOutline`` says why).
    static func find(in reduced: ReducedPage) throws(OCRError) -> PhotoCorrection? {
        let photo = reduced.source, factor = reduced.factor
        let closed = try reduced.pix.grayClosed(size: Int(closingShare * Double(max(reduced.pix.width, reduced.pix.height))))
        switch PageOutline.find(closed: try closed.grayGrid(), original: reduced.grid) {
        case .none:
            return nil
        case .page(let found):
            // Reduced pixel (i, j) covers full-size pixels i / factor ..< (i + 1) / factor: its centre.
            let quad = PageQuad(found.corners.map { (($0.x + 0.5) / factor, ($0.y + 0.5) / factor) })
            let (w, h) = quad.flatSize
            let rectangle: [(x: Double, y: Double)] = [(0, 0), (Double(w), 0), (Double(w), Double(h)), (0, Double(h))]
            guard w >= 16, h >= 16, let toPhoto = Homography(from: rectangle, to: quad.corners),
                  let toFlat = Homography(from: quad.corners, to: rectangle) else { return nil }
            return PhotoCorrection(quad: quad, photoWidth: photo.width, photoHeight: photo.height,
                                   flatWidth: w, flatHeight: h, toPhoto: toPhoto, toFlat: toFlat)
        }
    }

    /// Dewarping is kept only when it moves lines by at least this share of the page height
    /// more in one place than another: on `make accuracy`'s photographs 4 to 13 px of a
    /// 3000-px page where it was flat (what the corner finding leaves), 124 px where it sagged.
    static let minimumDisparityShare = 0.006
    /// Leptonica's background normalisation brings paper to 200: text is below this.
    static let dewarpThreshold = 130

    /// The page as it is recognised: `photo` warped to the rectangle, in 8 bpp gray with its
    /// background evened out and its lines straightened; `disparity` set when they were.
    mutating func flattened(_ photo: Pix) throws(OCRError) -> Pix {
        let flat = try photo.projected(toPhoto, width: flatWidth, height: flatHeight).backgroundNormalized()
        guard let (straight, field) = try flat.dewarped(threshold: Self.dewarpThreshold, step: 16),
              field.range >= Self.minimumDisparityShare * Double(flatHeight) else { return flat }
        disparity = field
        return straight
    }

    /// A point of the page as recognised (flat, straightened) in the photo.
    func photoPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let p = disparity?.source(x, y) ?? (x: x, y: y)
        return toPhoto.apply(p.x, p.y)
    }

    /// A point of the photo in the page as recognised.
    func pagePoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let p = toFlat.apply(x, y)
        return disparity?.straightened(p.x, p.y) ?? p
    }

    /// The corners as PageResult.page_quad carries them: x, y clockwise from the top left.
    var wireQuad: [Int32] {
        quad.corners.flatMap { [Int32($0.x.rounded()), Int32($0.y.rounded())] }
    }
}
