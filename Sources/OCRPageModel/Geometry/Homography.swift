/// A plane projective transform in Leptonica's eight-coefficient form:
/// `x' = (c0 x + c1 y + c2) / (c6 x + c7 y + 1)`, `y' = (c3 x + c4 y + c5) / (c6 x + c7 y + 1)`.
///
/// Leptonica's `pixProjective` takes exactly these coefficients as the map from each output
/// pixel to where it samples the input, so one value both warps a photographed page flat and
/// maps the boxes read on the flat page back into the photo.
package struct Homography: Equatable {
    package var coefficients: [Double]

    /// The transform taking each of the four `from` points to the `to` point at the same index;
    /// nil when three of them are collinear (no such transform).
    package init?(from: [(x: Double, y: Double)], to: [(x: Double, y: Double)]) {
        guard from.count == 4, to.count == 4 else { return nil }
        var rows: [[Double]] = []
        for (p, q) in zip(from, to) {
            rows.append([p.x, p.y, 1, 0, 0, 0, -q.x * p.x, -q.x * p.y, q.x])
            rows.append([0, 0, 0, p.x, p.y, 1, -q.y * p.x, -q.y * p.y, q.y])
        }
        guard let solution = Self.solve(rows) else { return nil }
        coefficients = solution
    }

    /// Where the transform takes (x, y).
    package func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let c = coefficients
        let w = c[6] * x + c[7] * y + 1
        return ((c[0] * x + c[1] * y + c[2]) / w, (c[3] * x + c[4] * y + c[5]) / w)
    }

    /// Gaussian elimination with partial pivoting on an n x (n + 1) augmented matrix.
    private static func solve(_ matrix: [[Double]]) -> [Double]? {
        var m = matrix
        let n = m.count
        for col in 0..<n {
            let pivot = (col..<n).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            guard abs(m[pivot][col]) > 1e-12 else { return nil }
            m.swapAt(col, pivot)
            for row in 0..<n where row != col {
                let f = m[row][col] / m[col][col]
                if f != 0 { for k in col...n { m[row][k] -= f * m[col][k] } }
            }
        }
        return (0..<n).map { m[$0][n] / m[$0][$0] }
    }
}
