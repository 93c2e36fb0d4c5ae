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

    /// The 4-connected components of the pixels darker than `level`, each as its box (in this
    /// grid's pixels) and its darkest gray level, in the order their first pixels come row by row.
    package func darkComponents(below level: UInt8) -> [(box: RawRect, darkest: UInt8)] {
        var seen = [Bool](repeating: false, count: pixels.count)
        var components: [(box: RawRect, darkest: UInt8)] = []
        var stack: [Int] = []
        for start in pixels.indices where !seen[start] && pixels[start] < level {
            seen[start] = true
            stack.append(start)
            var box = RawRect(left: start % width, top: start / width, right: start % width + 1, bottom: start / width + 1)
            var darkest = pixels[start]
            while let i = stack.popLast() {
                let (x, y) = (i % width, i / width)
                box = RawRect(left: min(box.left, x), top: min(box.top, y), right: max(box.right, x + 1), bottom: max(box.bottom, y + 1))
                darkest = min(darkest, pixels[i])
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && nx < width && ny >= 0 && ny < height {
                    let n = ny * width + nx
                    if !seen[n] && pixels[n] < level { seen[n] = true; stack.append(n) }
                }
            }
            components.append((box, darkest))
        }
        return components
    }

    /// The part of this grid inside `rect`, clipped to it.
    package func cropped(_ rect: RawRect) -> GrayGrid {
        let (left, top) = (max(0, rect.left), max(0, rect.top))
        let (right, bottom) = (min(width, rect.right), min(height, rect.bottom))
        guard right > left, bottom > top else { return GrayGrid(width: 0, height: 0, pixels: []) }
        var out: [UInt8] = []
        out.reserveCapacity((right - left) * (bottom - top))
        for y in top..<bottom { out += pixels[(y * width + left)..<(y * width + right)] }
        return GrayGrid(width: right - left, height: bottom - top, pixels: out)
    }

    /// The gray level at or below which `share` of the pixels lie (0.9: the paper of a word's
    /// box, 0.03: its ink).
    package func level(share: Double) -> Int {
        let target = share * Double(pixels.count)
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if Double(seen) >= target { return value }
        }
        return 255
    }

    /// Whether this image holds a mark: a pixel darker than the paper by `share` of the contrast
    /// between the paper and the ink of `words` (their 90th and 3rd percentile levels), the
    /// words around it; nil where those show less than `leastContrast` levels to judge by.
    package func holdsMark(against words: GrayGrid, share: Double = 0.35, leastContrast: Int = 40) -> Bool? {
        let paper = words.level(share: 0.9), ink = words.level(share: 0.03)
        guard paper - ink >= leastContrast else { return nil }
        let mark = Double(paper) - share * Double(paper - ink)
        return pixels.contains { Double($0) < mark }
    }

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
