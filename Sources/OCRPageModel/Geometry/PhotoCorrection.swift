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
package struct PhotoCorrection: Equatable {
    /// The page's corners in the photo's pixels.
    package var quad: PageQuad
    package var photoWidth: Int
    package var photoHeight: Int
    /// The flat page's size in pixels.
    package var flatWidth: Int
    package var flatHeight: Int
    /// Flat page -> photo.
    package var toPhoto: Homography
    /// Photo -> flat page.
    package var toFlat: Homography
    /// The straightening applied to the flat page, nil when its lines were straight enough.
    package var disparity: VerticalDisparity?

    package init(quad: PageQuad, photoWidth: Int, photoHeight: Int, flatWidth: Int, flatHeight: Int, toPhoto: Homography, toFlat: Homography, disparity: VerticalDisparity? = nil) {
        self.quad = quad; self.photoWidth = photoWidth; self.photoHeight = photoHeight; self.flatWidth = flatWidth; self.flatHeight = flatHeight; self.toPhoto = toPhoto; self.toFlat = toFlat; self.disparity = disparity
    }

    /// The closing brick that makes text vanish into the paper, as a share of that side.
    package static let closingShare = 0.02

    /// Dewarping is kept only when it moves lines by at least this share of the page height
    /// more in one place than another: on `make accuracy`'s photographs 4 to 13 px of a
    /// 3000-px page where it was flat (what the corner finding leaves), 124 px where it sagged.
    package static let minimumDisparityShare = 0.006
    /// Leptonica's background normalisation brings paper to 200: text is below this.
    package static let dewarpThreshold = 130

    /// A point of the page as recognised (flat, straightened) in the photo.
    package func photoPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let p = disparity?.source(x, y) ?? (x: x, y: y)
        return toPhoto.apply(p.x, p.y)
    }

    /// A point of the photo in the page as recognised.
    package func pagePoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let p = toFlat.apply(x, y)
        return disparity?.straightened(p.x, p.y) ?? p
    }

    /// The corners as PageResult.page_quad carries them: x, y clockwise from the top left.
    package var wireQuad: [Int32] {
        quad.corners.flatMap { [Int32($0.x.rounded()), Int32($0.y.rounded())] }
    }
}
