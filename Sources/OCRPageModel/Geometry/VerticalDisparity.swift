/// How far Leptonica's dewarping moved each point of a page vertically: the straightened page's
/// pixel (x, y) came from the page's (x, y - d(x, y)) (Leptonica's `pixApplyVertDisparity`).
/// Kept as samples every `step` pixels, read bilinearly, so boxes read on the straightened page
/// can be mapped back.
package struct VerticalDisparity: Equatable {
    package var step: Int
    package var columns: Int
    package var rows: Int
    /// d at (column * step, row * step), row by row.
    package var samples: [Float]

    package init(step: Int, columns: Int, rows: Int, samples: [Float]) {
        self.step = step; self.columns = columns; self.rows = rows; self.samples = samples
    }

    /// d at (x, y), bilinear between samples, held constant past the edges.
    package func value(_ x: Double, _ y: Double) -> Double {
        let gx = max(0, min(Double(columns - 1), x / Double(step)))
        let gy = max(0, min(Double(rows - 1), y / Double(step)))
        let (c0, r0) = (Int(gx), Int(gy))
        let (c1, r1) = (min(c0 + 1, columns - 1), min(r0 + 1, rows - 1))
        let (fx, fy) = (gx - Double(c0), gy - Double(r0))
        func at(_ c: Int, _ r: Int) -> Double { Double(samples[r * columns + c]) }
        let top = at(c0, r0) * (1 - fx) + at(c1, r0) * fx
        let bottom = at(c0, r1) * (1 - fx) + at(c1, r1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// The page point a straightened point came from.
    package func source(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (x, y - value(x, y)) }

    /// The straightened point a page point went to (the inverse of ``source(_:_:)``, by a few
    /// fixed-point steps: d changes slowly, so they converge at once).
    package func straightened(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        var yd = y
        for _ in 0..<4 { yd = y + value(x, yd) }
        return (x, yd)
    }

    /// The largest d minus the smallest (a uniform shift straightens nothing).
    package var range: Double {
        Double((samples.max() ?? 0) - (samples.min() ?? 0))
    }
}
