import Foundation

/// A page's four corners in an image, clockwise from the top left.
package struct PageQuad: Equatable {
    package var topLeft: (x: Double, y: Double)
    package var topRight: (x: Double, y: Double)
    package var bottomRight: (x: Double, y: Double)
    package var bottomLeft: (x: Double, y: Double)

    package var corners: [(x: Double, y: Double)] { [topLeft, topRight, bottomRight, bottomLeft] }

    package init(_ corners: [(x: Double, y: Double)]) {
        (topLeft, topRight, bottomRight, bottomLeft) = (corners[0], corners[1], corners[2], corners[3])
    }

    /// Area by the shoelace formula.
    package var area: Double {
        let c = corners
        return abs((0..<4).reduce(0.0) { $0 + c[$1].x * c[($1 + 1) % 4].y - c[($1 + 1) % 4].x * c[$1].y }) / 2
    }

    /// The longer of the top and bottom edges, and of the left and right ones: the flat page's
    /// size in pixels, keeping the resolution of its nearer side.
    package var flatSize: (width: Int, height: Int) {
        func length(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double { hypot(a.x - b.x, a.y - b.y) }
        let w = max(length(topLeft, topRight), length(bottomLeft, bottomRight))
        let h = max(length(topLeft, bottomLeft), length(topRight, bottomRight))
        return (Int(w.rounded()), Int(h.rounded()))
    }

    package static func == (a: PageQuad, b: PageQuad) -> Bool {
        zip(a.corners, b.corners).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }
}

/// Finds a photographed page, as a document camera does: a bright quadrilateral of paper with
/// text on it, on a darker surround, all four corners inside the picture.
///
/// It reads two reduced copies of the image: `closed` (gray-closed so text and rules vanish into
/// the paper) and `original`. The paper is the largest connected region brighter than the
/// closed image's Otsu threshold; its corners are its extreme points along the two diagonals.
/// It is taken as a page only when every check below holds, so a scan (paper to the edges), a
/// dark slide (light text, not paper), a page cut off by the frame or an irregular bright shape
/// is read as it is. The figures are chosen on `make accuracy`'s photographs and checked not to
/// fire on any of its scans (ClusterTests' AccuracyTests; the cases one by one: EngineTests.PhotoPages).
package enum PageOutline {
    /// What the finder concluded.
    package enum Finding: Equatable {
        case page(PageQuad)
        /// No page boundary: why, for logs and tests.
        case none(String)
    }

    /// The paper must cover at least this share of the picture.
    package static let minimumPageShare = 0.2
    /// The region must fill its quadrilateral (a page, not a blob): region pixels per quad pixel.
    package static let minimumFill = 0.85
    /// Gray levels between the paper and its surround (closed image).
    package static let minimumContrast = 40
    /// Share of the region's pixels that are paper in the unclosed image (text is a minority).
    package static let minimumPaperShare = 0.7
    /// Each corner at least this share of the picture's side from every edge.
    package static let edgeMargin = 0.01
    /// Interior angles of the quadrilateral, degrees.
    package static let angleRange = 50.0...130.0

    package static func find(closed: GrayGrid, original: GrayGrid) -> Finding {
        let (w, h) = (closed.width, closed.height)
        guard w >= 16, h >= 16, original.width == w, original.height == h else { return .none("image too small") }
        let threshold = GrayGrid.otsu(closed.histogram)
        let region = largestBrightRegion(closed, threshold: threshold)
        guard Double(region.count) >= minimumPageShare * Double(w * h) else {
            return .none("no bright region covers \(Int(minimumPageShare * 100))% of the image")
        }
        // Extreme points along the diagonals: top-left minimises x + y, top-right maximises x - y...
        var best: [(score: Int, x: Int, y: Int)] = Array(repeating: (Int.min, 0, 0), count: 4)
        var paper = 0
        var regionSum = 0
        for index in region {
            let x = index % w, y = index / w
            if -x - y > best[0].score { best[0] = (-x - y, x, y) }
            if x - y > best[1].score { best[1] = (x - y, x, y) }
            if x + y > best[2].score { best[2] = (x + y, x, y) }
            if y - x > best[3].score { best[3] = (y - x, x, y) }
            if original.pixels[index] >= threshold { paper += 1 }
            regionSum += Int(closed.pixels[index])
        }
        let quad = PageQuad(best.map { (Double($0.x), Double($0.y)) })
        let marginX = edgeMargin * Double(w), marginY = edgeMargin * Double(h)
        guard quad.corners.allSatisfy({ $0.x >= marginX && $0.x <= Double(w - 1) - marginX && $0.y >= marginY && $0.y <= Double(h - 1) - marginY }) else {
            return .none("the bright region reaches the image's edge (a scan, or a page cut off by the frame)")
        }
        guard let angles = interiorAngles(quad), angles.allSatisfy(angleRange.contains) else {
            return .none("the bright region is not a convex quadrilateral")
        }
        let fill = Double(region.count) / max(1, quad.area)
        guard fill >= minimumFill else { return .none("the bright region fills \(Int(fill * 100))% of its quadrilateral") }
        let outsideCount = w * h - region.count
        let outsideSum = closed.pixels.reduce(0) { $0 + Int($1) } - regionSum
        let contrast = regionSum / region.count - (outsideCount > 0 ? outsideSum / outsideCount : 255)
        guard contrast >= minimumContrast else { return .none("the region is only \(contrast) gray levels brighter than its surround") }
        let paperShare = Double(paper) / Double(region.count)
        guard paperShare >= minimumPaperShare else {
            return .none("only \(Int(paperShare * 100))% of the region is paper (light text on a dark ground?)")
        }
        return .page(quad)
    }

    /// Indexes (y * width + x) of the largest 4-connected region of pixels >= threshold.
    package static func largestBrightRegion(_ grid: GrayGrid, threshold: Int) -> [Int] {
        var seen = [Bool](repeating: false, count: grid.pixels.count)
        var largest: [Int] = []
        var stack: [Int] = []
        for start in grid.pixels.indices where !seen[start] && Int(grid.pixels[start]) >= threshold {
            var region: [Int] = []
            seen[start] = true
            stack.append(start)
            func visit(_ n: Int) {
                if !seen[n], Int(grid.pixels[n]) >= threshold {
                    seen[n] = true
                    stack.append(n)
                }
            }
            while let i = stack.popLast() {
                region.append(i)
                let x = i % grid.width
                if x > 0 { visit(i - 1) }
                if x < grid.width - 1 { visit(i + 1) }
                if i >= grid.width { visit(i - grid.width) }
                if i + grid.width < grid.pixels.count { visit(i + grid.width) }
            }
            if region.count > largest.count { largest = region }
        }
        return largest
    }

    /// The interior angles (degrees) at each corner when the quadrilateral is convex, else nil.
    package static func interiorAngles(_ quad: PageQuad) -> [Double]? {
        let c = quad.corners
        var angles: [Double] = []
        var sign = 0.0
        for i in 0..<4 {
            let p = c[(i + 3) % 4], q = c[i], r = c[(i + 1) % 4]
            let (ax, ay, bx, by) = (p.x - q.x, p.y - q.y, r.x - q.x, r.y - q.y)
            let cross = ax * by - ay * bx
            guard cross != 0, sign == 0 || (cross > 0) == (sign > 0) else { return nil }
            sign = cross
            angles.append(acos(max(-1, min(1, (ax * bx + ay * by) / (hypot(ax, ay) * hypot(bx, by))))) * 180 / .pi)
        }
        return angles
    }
}
