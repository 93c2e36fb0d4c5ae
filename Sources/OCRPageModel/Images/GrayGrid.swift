import Foundation

/// An 8-bit grayscale image as plain bytes, row by row: what the page finder and the lighting
/// check read.
package struct GrayGrid: Equatable {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
    }

    package subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// Pixels per gray level, 0...255.
    package var histogram: [Int] {
        var counts = [Int](repeating: 0, count: 256)
        for v in pixels { counts[Int(v)] += 1 }
        return counts
    }

    /// Otsu's threshold: the gray level that best separates the histogram into two classes
    /// (pixels at or above it are the bright class).
    package static func otsu(_ histogram: [Int]) -> Int {
        let total = histogram.reduce(0, +)
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var (weightBelow, sumBelow, bestVariance, best) = (0, 0.0, -1.0, 128)
        for t in 0..<255 {
            weightBelow += histogram[t]
            sumBelow += Double(t * histogram[t])
            let weightAbove = total - weightBelow
            guard weightBelow > 0, weightAbove > 0 else { continue }
            let meanBelow = sumBelow / Double(weightBelow), meanAbove = (sum - sumBelow) / Double(weightAbove)
            let variance = Double(weightBelow) * Double(weightAbove) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if variance > bestVariance { (bestVariance, best) = (variance, t + 1) }
        }
        return best
    }
}
