import Foundation
import OCRWire

/// Text lines that converge in a photo taken at an angle, made parallel before recognition.
///
/// A page photographed from below or beside it shows its far lines steeper than its near ones
/// (the real phone photos of `scripts/accuracy/real_photos.py`: 13 degrees at the top of the text,
/// 2 at the bottom). Tesseract deskews a page by one angle, so it breaks the steep lines into
/// scattered words or drops them (two such photos read 58% and 67% of their flat page's words).
/// When ``PhotoCorrection`` cannot find the page's four corners (a light desk, a page cut off by
/// the frame), the lines themselves give the correction: the text is cut into ``bands``
/// horizontal bands, each band's skew is measured (Leptonica's sweep on the letters alone), and
/// where the steepest and flattest bands differ by at least ``minimumSpread`` degrees, every
/// column is shifted vertically so that each line is level: at height y the skew is interpolated
/// between band centres, and a point x pixels right of the text's centre moves by tan(skew) x.
/// Scans have one skew for all their lines (bands within 0.15 degrees of each other on every
/// scan of `make accuracy`, the UNLV pages and Tesseract's test pages), so they are never
/// touched; of the seven real photos, the two taken at an angle spread 11 degrees, one 4.1
/// (straightened, it reads a little better), the others at most 1.1. Five bands, not three: a
/// dense page's third holds lines of several angles, and Leptonica's confidence in its skew
/// falls to 1.3 (`make accuracy`'s photo-angled).
package enum ConvergingLines {
    /// Horizontal bands the text is cut into.
    package static let bands = 5
    /// Skews are searched within this many degrees either way.
    package static let skewRange = 15.0
    /// Leptonica's confidence a band's skew needs (its usual 3 lets the far, small, blurred top
    /// band of a real photo through at 2.8).
    package static let minimumConfidence = 2.5
    /// Degrees between the steepest and the flattest band that make lines converging.
    package static let minimumSpread = 2.0
    /// Letters a band needs for its skew to be measured.
    package static let minimumLetters = 30
    /// Components wider or taller than this share of the reduced copy's side are no text (a
    /// photo's dark surround, pictures, rules).
    package static let largestComponentShare = 0.05

    /// The box holding the middle 90% of the letters' edges, each way; nil with fewer letters
    /// than the bands need.
    package static func textExtent(_ letters: [RawRect]) -> RawRect? {
        guard letters.count >= bands * minimumLetters else { return nil }
        func trimmed(_ values: [Int]) -> (Int, Int) {
            let sorted = values.sorted(), cut = sorted.count / 20
            return (sorted[cut], sorted[sorted.count - 1 - cut])
        }
        let (left, _) = trimmed(letters.map(\.left)), (_, right) = trimmed(letters.map(\.right))
        let (top, _) = trimmed(letters.map(\.top)), (_, bottom) = trimmed(letters.map(\.bottom))
        guard right > left, bottom > top else { return nil }
        return RawRect(left: left, top: top, right: right, bottom: bottom)
    }

    /// The shifts for band skews measured at heights `skews.y` (full-size pixels, top to
    /// bottom), about the text's centre `centreX`: d(x, y) = tan(skew(y)) (x - centreX), the
    /// skew interpolated between band centres and held beyond the first and last. nil when
    /// fewer than two bands were measured or their skews differ by less than ``minimumSpread``.
    package static func field(skews: [(y: Double, degrees: Double)], centreX: Double, width: Int, height: Int, step: Int) -> VerticalDisparity? {
        guard skews.count >= 2, let steepest = skews.map(\.degrees).max(), let flattest = skews.map(\.degrees).min(),
              steepest - flattest >= minimumSpread else { return nil }
        func skew(at y: Double) -> Double {
            if y <= skews[0].y { return skews[0].degrees }
            for (a, b) in zip(skews, skews.dropFirst()) where y <= b.y {
                return a.degrees + (b.degrees - a.degrees) * (y - a.y) / (b.y - a.y)
            }
            return skews[skews.count - 1].degrees
        }
        let (columns, rows) = ((width + step - 1) / step + 1, (height + step - 1) / step + 1)
        var samples = [Float](repeating: 0, count: columns * rows)
        for r in 0..<rows {
            let slope = tan(skew(at: Double(r * step)) * .pi / 180)
            for c in 0..<columns { samples[r * columns + c] = Float(slope * (Double(c * step) - centreX)) }
        }
        return VerticalDisparity(step: step, columns: columns, rows: rows, samples: samples)
    }
}
