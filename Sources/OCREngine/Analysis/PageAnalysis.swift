import OCRLeptonica
import OCRPageModel
import OCRWire

// The page analyses of OCRPageModel that read the page's pixels (Leptonica): their decisions are
// pure and live there; here is what they measure on the image.

extension PhotoCorrection {
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

    /// The page as it is recognised: `photo` warped to the rectangle, in 8 bpp gray with its
    /// background evened out and its lines straightened; `disparity` set when they were.
    mutating func flattened(_ photo: Pix) throws(OCRError) -> Pix {
        let flat = try photo.projected(toPhoto, width: flatWidth, height: flatHeight).backgroundNormalized()
        guard let (straight, field) = try flat.dewarped(threshold: Self.dewarpThreshold, step: 16),
              field.range >= Self.minimumDisparityShare * Double(flatHeight) else { return flat }
        disparity = field
        return straight
    }
}

extension ConvergingLines {
    /// The vertical shifts that make the text lines of `reduced.source` (the page, any depth but
    /// 1: a bilevel page is a scan or already thresholded, and the caller skips it) parallel
    /// and level, sampled every `step` pixels of the page; nil when its lines do not converge (or
    /// it has too little text).
    static func find(in reducedPage: ReducedPage, step: Int = 16) throws(OCRError) -> VerticalDisparity? {
        let page = reducedPage.source, factor = reducedPage.factor
        // Evened out first (a photo's light falls off), then thresholded below the paper's 200.
        let reduced = try reducedPage.pix.backgroundNormalized().toBinary(threshold: PhotoCorrection.dewarpThreshold)
        let limit = Int(largestComponentShare * Double(max(reduced.width, reduced.height)))
        let text = try reduced.withoutComponents(widerThan: limit, orTallerThan: limit)
        let letters = try text.componentBoxes().filter { $0.height >= 3 && Double($0.width) <= LostText.maximumAspect * Double($0.height) }
        guard let extent = textExtent(letters) else { return nil }
        var skews: [(y: Double, degrees: Double)] = []
        for band in 0..<bands {
            let top = extent.top + extent.height * band / bands, bottom = extent.top + extent.height * (band + 1) / bands
            let rect = RawRect(left: extent.left, top: top, right: extent.right, bottom: bottom)
            guard letters.filter({ ($0.top + $0.bottom) / 2 >= top && ($0.top + $0.bottom) / 2 < bottom }).count >= minimumLetters,
                  let degrees = try text.skew(in: rect, range: skewRange, minimumConfidence: minimumConfidence) else { continue }
            skews.append((Double(top + bottom) / 2 / factor, degrees))
        }
        return field(skews: skews, centreX: Double(extent.left + extent.right) / 2 / factor, width: page.width, height: page.height, step: step)
    }
}

extension UnevenLighting {
    /// Whether `reduced.source` (any depth but 1) is lit unevenly enough to need normalising.
    static func check(_ reduced: ReducedPage) throws(OCRError) -> Bool {
        guard let background = try reduced.pix.backgroundMap(tile: tile, threshold: paperLevel) else { return false }
        return isUneven(gray: reduced.grid, background: background)
    }
}
