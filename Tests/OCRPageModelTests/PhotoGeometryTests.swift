import Foundation
@testable import OCRPageModel
import OCRWire
import Testing

/// The photographed-page pieces without Tesseract: the homography, the page finder on
/// drawn images, the dewarping field and the box mapping through them. (The whole pipeline
/// on rendered photographs is in ClusterTests' AccuracyTests.)
@Suite struct PhotoGeometryTests {
    static let rectangle: [(x: Double, y: Double)] = [(0, 0), (1000, 0), (1000, 1400), (0, 1400)]
    static let quad: [(x: Double, y: Double)] = [(210, 140), (1180, 90), (1290, 1660), (130, 1720)]

    @Test func homographyTakesEachCornerToItsImageAndBack() throws {
        let forward = try #require(Homography(from: Self.rectangle, to: Self.quad))
        let back = try #require(Homography(from: Self.quad, to: Self.rectangle))
        for (p, q) in zip(Self.rectangle, Self.quad) {
            let mapped = forward.apply(p.x, p.y)
            #expect(abs(mapped.x - q.x) < 1e-6 && abs(mapped.y - q.y) < 1e-6, "\(p) -> \(mapped), want \(q)")
        }
        for (x, y) in [(500.0, 700.0), (12.5, 1399.0), (999.0, 3.0)] {
            let there = forward.apply(x, y), again = back.apply(there.x, there.y)
            #expect(abs(again.x - x) < 1e-6 && abs(again.y - y) < 1e-6)
        }
        // The midpoint of an edge stays on that edge (lines stay lines), not at the middle.
        let top = forward.apply(500, 0)
        let cross = (top.x - 210) * (90 - 140) - (top.y - 140) * (1180 - 210)
        #expect(abs(cross) < 1e-6)
        #expect(Homography(from: [(0, 0), (1, 1), (2, 2), (0, 5)], to: Self.quad) == nil, "three collinear points have no transform")
    }

    /// A photo-like image: a dark desk, a bright page with dark text lines on it.
    static func photo(width: Int = 400, height: Int = 500, page: [(x: Double, y: Double)]?, desk: UInt8 = 60,
                      paper: UInt8 = 220, text: UInt8 = 30, closed: Bool) -> GrayGrid {
        var pixels = [UInt8](repeating: page == nil ? paper : desk, count: width * height)
        func inside(_ x: Double, _ y: Double, _ q: [(x: Double, y: Double)]) -> Bool {
            (0..<4).allSatisfy { i in
                let a = q[i], b = q[(i + 1) % 4]
                return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) >= 0
            }
        }
        for y in 0..<height {
            for x in 0..<width where page.map({ inside(Double(x), Double(y), $0) }) ?? true {
                // Text: 3-px lines every 12 px, broken into words, unless closed away.
                let isText = !closed && y % 12 < 3 && (x / 25) % 4 != 3
                pixels[y * width + x] = isText ? text : paper
            }
        }
        return GrayGrid(width: width, height: height, pixels: pixels)
    }

    @Test func findsAPhotographedPagesCorners() throws {
        let corners: [(x: Double, y: Double)] = [(60, 50), (330, 35), (360, 450), (40, 470)]
        let finding = PageOutline.find(closed: Self.photo(page: corners, closed: true), original: Self.photo(page: corners, closed: false))
        guard case .page(let quad) = finding else { Issue.record("no page: \(finding)"); return }
        for (found, truth) in zip(quad.corners, corners) {
            #expect(hypot(found.x - truth.x, found.y - truth.y) <= 2, "corner \(found), want \(truth)")
        }
    }

    @Test func readsScansSlidesAndCutOffPagesAsTheyAre() {
        func reason(_ finding: PageOutline.Finding) -> String? {
            if case .none(let why) = finding { return why }
            return nil
        }
        // A scan: paper to every edge.
        let scan = PageOutline.find(closed: Self.photo(page: nil, closed: true), original: Self.photo(page: nil, closed: false))
        #expect(reason(scan)?.contains("edge") == true, "\(scan)")
        // A page running off the bottom of the frame.
        let cut: [(x: Double, y: Double)] = [(60, 50), (330, 35), (360, 540), (40, 560)]
        let cutOff = PageOutline.find(closed: Self.photo(page: cut, closed: true), original: Self.photo(page: cut, closed: false))
        #expect(reason(cutOff)?.contains("edge") == true, "\(cutOff)")
        // Light text on a dark slide: the closed image has a bright block, but it is not paper.
        let block: [(x: Double, y: Double)] = [(60, 60), (340, 60), (340, 440), (60, 440)]
        let slide = PageOutline.find(closed: Self.photo(page: block, desk: 40, paper: 230, closed: true),
                                     original: Self.photo(page: block, desk: 40, paper: 40, text: 230, closed: false))
        #expect(reason(slide)?.contains("paper") == true, "\(slide)")
        // Too little contrast: a white page on a white desk.
        let pale = PageOutline.find(closed: Self.photo(page: block, desk: 210, closed: true), original: Self.photo(page: block, desk: 210, closed: false))
        #expect(reason(pale) != nil, "\(pale)")
    }

    @Test func otsuSplitsTwoPeaks() {
        var histogram = [Int](repeating: 0, count: 256)
        histogram[50] = 1000
        histogram[200] = 3000
        let t = GrayGrid.otsu(histogram)
        #expect(t > 50 && t <= 200, "\(t)")
    }

    @Test func disparityMapsStraightenedPointsBackAndForth() {
        // A sag: d grows from 0 at the sides to 30 px in the middle of a 320-px-wide page.
        let (step, columns, rows) = (16, 21, 11)
        var samples: [Float] = []
        for _ in 0..<rows { for c in 0..<columns { samples.append(Float(30 * sin(Double.pi * Double(c * step) / 320))) } }
        let field = VerticalDisparity(step: step, columns: columns, rows: rows, samples: samples)
        #expect(abs(field.range - 30) < 1e-3)
        for (x, y) in [(0.0, 40.0), (160, 100), (77, 150.5)] {
            let source = field.source(x, y)
            #expect(abs(source.y - (y - field.value(x, y))) < 1e-9)
            let straight = field.straightened(source.x, source.y)
            #expect(abs(straight.y - y) < 0.01 && straight.x == x, "\(x),\(y) -> \(source) -> \(straight)")
        }
    }

    @Test func boxesOfTheFlatPageLandOnThePhotographedOne() throws {
        let toPhoto = try #require(Homography(from: Self.rectangle, to: Self.quad))
        let toFlat = try #require(Homography(from: Self.quad, to: Self.rectangle))
        let photo = PhotoCorrection(quad: PageQuad(Self.quad), photoWidth: 1500, photoHeight: 1800, flatWidth: 1000, flatHeight: 1400,
                                    toPhoto: toPhoto, toFlat: toFlat)
        let g = PageGeometry(width: 1000, height: 1400, photo: photo)
        // The whole flat page is the quadrilateral's bounding box in the photo (rounded
        // outwards: floating-point error may add a pixel).
        let whole = g.toOriginal(RawRect(left: 0, top: 0, right: 1000, bottom: 1400))
        #expect(whole.x == 130 && whole.y == 90 && (1160...1161).contains(whole.width) && (1630...1631).contains(whole.height), "\(whole)")
        // Points round-trip through the photo, and a region of interest in the photo's pixels
        // comes to the flat page.
        for (x, y) in [(100.0, 100.0), (900, 1300), (500, 700)] {
            let p = g.toOriginal(x, y), back = g.toProcessed(p.0, p.1)
            #expect(abs(back.0 - x) < 1e-6 && abs(back.1 - y) < 1e-6)
        }
        var roi = Ocr_V1_NormalizedRect()
        (roi.x, roi.y, roi.width, roi.height) = (130.0 / 1500, 90.0 / 1800, 1160.0 / 1500, 1630.0 / 1800)
        let r = g.toProcessed(roi)
        #expect(r.left == 0 && r.top == 0 && r.right >= 999 && r.bottom >= 1399, "\(r)")
    }
}
