import OCRLeptonica
import OCRPageModel
import OCRWire

/// A page reduced to at most ``side`` pixels on its longer side, in 8 bpp gray: what the checks
/// before recognition measure (a photographed page, converging lines, uneven light). Reducing a
/// page costs about as much as one check, so it is made once per image and shared by every
/// check that reads that image (``Recognizer`` keeps the last one).
struct ReducedPage {
    /// The longer side of the reduced copy (letters are 3-6 px tall there on a letter page:
    /// enough for paper, light and line angles, not for reading).
    static let side = 1000.0

    /// The image it was reduced from.
    let source: Pix
    /// Reduced size over full size (1 when the page is no larger than ``side``).
    let factor: Double
    /// The reduced page, 8 bpp gray.
    let pix: Pix
    /// Its pixels.
    let grid: GrayGrid

    init(_ page: Pix) throws(OCRError) {
        source = page
        factor = min(1, Self.side / Double(max(page.width, page.height)))
        pix = try page.toGray().scaled(factor)
        grid = try pix.grayGrid()
    }

    /// `reduced` when it was made from `page`, else `page` reduced anew.
    static func of(_ page: Pix, reusing reduced: ReducedPage?) throws(OCRError) -> ReducedPage {
        if let reduced, reduced.source === page { return reduced }
        return try ReducedPage(page)
    }
}
