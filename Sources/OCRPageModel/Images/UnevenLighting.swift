import Foundation
import OCRWire

/// Uneven lighting found before recognition: the `accurate` level's guarded preprocessing (all
/// levels run it; it costs a few hundredths of a second).
///
/// Tesseract thresholds a gray page with one global Otsu threshold. Where the light falls off
/// across a page (a faded copy, a book's gutter), the paper in the dark part is darker than that
/// threshold: it turns black with the text on it (the faded page of `make accuracy` read 50.8%
/// of its words). Leptonica's background normalisation evens the paper out first (100% on that
/// page), but applied to every page it loses words elsewhere (light text on a dark slide: 100%
/// -> 83%; a ruled table, a receipt, tight text: about -1; real phone photos: -15 to +10 points).
/// So it is applied only where global thresholding is seen to lose text: at least
/// ``minimumLostTextShare`` of the page's text tiles have their paper darker than the Otsu
/// threshold. Measured on a reduced copy: Leptonica's background map gives each tile's paper
/// level, and a tile holds text when one pixel in fifty is ``markContrast`` levels darker.
package enum UnevenLighting {
    /// Background tiles of the reduced copy, pixels (about 5 mm on a letter page).
    package static let tile = 20
    /// Pixels above this gray level count as paper when the background is mapped (Leptonica's
    /// usual value): text and dark surrounds are left out of the map.
    package static let paperLevel = 100
    /// Gray levels below its tile's paper that make a pixel a mark (text).
    package static let markContrast = 40
    /// The share of text tiles whose paper lies below the Otsu threshold: 33% on the faded page
    /// and 38% on the zebra-shaded table (where normalising gains 0.4 points), 0% on every other
    /// rendered page, the UNLV and Tesseract test pages, 0-17% on seven real phone photos whose
    /// light desks and vignetting are darker than the threshold (normalised, they lost 11
    /// points in all). Chosen between those.
    package static let minimumLostTextShare = 0.2

    /// Whether enough of `gray`'s text lies on paper darker than `gray`'s Otsu threshold;
    /// `background` is Leptonica's map of `gray` in ``tile`` x ``tile`` tiles.
    package static func isUneven(gray: GrayGrid, background: GrayGrid) -> Bool {
        guard !background.pixels.isEmpty else { return false }
        let threshold = GrayGrid.otsu(gray.histogram)
        var text = 0, lost = 0
        for ty in 0..<background.height {
            for tx in 0..<background.width {
                let paper = Int(background[tx, ty])
                var marks = 0, pixels = 0
                for y in (ty * tile)..<min(gray.height, (ty + 1) * tile) {
                    for x in (tx * tile)..<min(gray.width, (tx + 1) * tile) {
                        pixels += 1
                        if Int(gray[x, y]) <= paper - markContrast { marks += 1 }
                    }
                }
                guard pixels > 0, marks * 50 >= pixels else { continue }
                text += 1
                if paper < threshold { lost += 1 }
            }
        }
        return text > 0 && Double(lost) >= minimumLostTextShare * Double(text)
    }

}
