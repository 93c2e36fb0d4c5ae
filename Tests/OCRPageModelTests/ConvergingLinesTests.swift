import Foundation
import Testing
@testable import OCRPageModel

/// Converging text lines made parallel (pure: band skews in, vertical shifts out).
@Suite struct ConvergingLinesTests {
    /// Bands at heights 100 and 500 measured 10 and 2 degrees (rising to the right): a point
    /// 100 px right of the text's centre moves by tan(skew) x 100, the skew interpolated between
    /// the bands and held beyond them; the centre column stays where it is.
    @Test func eachRowIsShiftedByItsInterpolatedSkew() throws {
        let field = try #require(ConvergingLines.field(skews: [(100, 10), (500, 2)], centreX: 400, width: 800, height: 800, step: 4))
        func tangent(_ degrees: Double) -> Double { tan(degrees * .pi / 180) }
        #expect(abs(field.value(500, 100) - 100 * tangent(10)) < 1e-3)
        #expect(abs(field.value(500, 300) - 100 * tangent(6)) < 1e-3)
        #expect(abs(field.value(300, 500) + 100 * tangent(2)) < 1e-3)
        #expect(abs(field.value(500, 0) - 100 * tangent(10)) < 1e-3)
        #expect(abs(field.value(500, 800) - 100 * tangent(2)) < 1e-3)
        #expect(abs(field.value(400, 300)) < 1e-3)
        // A line rising to the right through (400, 100) is level once straightened: its point
        // 100 px to the right, 17.6 px higher, comes out at height 100.
        let straightened = field.straightened(500, 100 - 100 * tangent(10))
        #expect(abs(straightened.y - 100) < 0.5, "\(straightened)")
    }

    /// Lines that share one skew (a scan, even a skewed one) or differ by less than the
    /// minimum spread are not converging; nor is one band alone.
    @Test func parallelLinesAreLeftAlone() {
        #expect(ConvergingLines.field(skews: [(100, 3), (300, 3), (500, 3)], centreX: 400, width: 800, height: 800, step: 16) == nil)
        #expect(ConvergingLines.field(skews: [(100, 1), (500, 2.5)], centreX: 400, width: 800, height: 800, step: 16) == nil)
        #expect(ConvergingLines.field(skews: [(100, 12)], centreX: 400, width: 800, height: 800, step: 16) == nil)
    }

    /// Boxes read on the straightened page map back into the photo and points round-trip,
    /// through the quarter turn the page was given first.
    @Test func pointsRoundTripThroughTheStraightening() throws {
        let field = try #require(ConvergingLines.field(skews: [(100, 12), (400, 6), (700, 1)], centreX: 300, width: 600, height: 800, step: 16))
        var geometry = PageGeometry(width: 800, height: 600, quarterTurns: 1)
        geometry.lines = field
        for (x, y) in [(10.0, 10.0), (700, 500), (400, 300), (123, 456)] {
            let processed = geometry.toProcessed(x, y)
            let back = geometry.toOriginal(processed.0, processed.1)
            #expect(abs(back.0 - x) < 0.5 && abs(back.1 - y) < 0.5, "\(x),\(y) -> \(processed) -> \(back)")
        }
    }
}
