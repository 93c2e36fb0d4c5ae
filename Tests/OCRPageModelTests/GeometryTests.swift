import Foundation
@testable import OCRPageModel
import OCRWire
import Testing

/// Pure tests of the box mapping and candidate search (no Tesseract).
@Suite struct GeometryTests {
    @Test(arguments: 0..<4)
    func pointsRoundTrip(quarterTurns: Int) {
        for skew in [0.0, 3.0, -7.5] {
            let g = PageGeometry(width: 800, height: 300, quarterTurns: quarterTurns, skewDegrees: skew)
            for (x, y) in [(0.0, 0.0), (800, 300), (123.5, 250), (400, 150)] {
                let p = g.toProcessed(x, y)
                let back = g.toOriginal(p.0, p.1)
                #expect(abs(back.0 - x) < 1e-6 && abs(back.1 - y) < 1e-6, "\(g) \(x),\(y) -> \(p) -> \(back)")
            }
        }
    }

    @Test func quarterTurnsMapCornersOntoCorners() {
        // A 800x300 page turned 90 degrees clockwise is 300x800; its top-left pixel came from the
        // original's bottom-left.
        let g = PageGeometry(width: 800, height: 300, quarterTurns: 1)
        let box = g.toOriginal(RawRect(left: 0, top: 0, right: 10, bottom: 20))
        #expect(box.x == 0 && box.y == 290 && box.width == 20 && box.height == 10)
    }

    @Test func boxesAreClampedToThePage() {
        let g = PageGeometry(width: 100, height: 100, skewDegrees: 10)
        let box = g.toOriginal(RawRect(left: 0, top: 0, right: 100, bottom: 100))
        #expect(box.x == 0 && box.y == 0 && box.width == 100 && box.height == 100)
    }

    @Test func cropOffsetsAreAddedBack() {
        var g = PageGeometry(width: 1000, height: 500)
        g.cropX = 100
        g.cropY = 50
        let box = g.toOriginal(RawRect(left: 10, top: 10, right: 20, bottom: 30))
        #expect(box.x == 110 && box.y == 60 && box.width == 10 && box.height == 20)
    }

    @Test func candidatesAreBestFirstAndStartWithTheWord() {
        let symbols: [[(text: String, confidence: Float)]] = [
            [("c", 0.9), ("e", 0.08)], [("a", 0.95), ("o", 0.04)], [("t", 0.6), ("l", 0.39)],
        ]
        let c = WordCandidates.make(word: "cat", confidence: 0.8, symbols: symbols, count: 4)
        #expect(c.map(\.text) == ["cat", "cal", "eat", "eal"])  // costs 0, 0.43, 2.42, 2.85 (cot: 3.17)
        #expect(c.map(\.confidence) == c.map(\.confidence).sorted(by: >))
        #expect(c[0].confidence == 0.8)
        #expect(WordCandidates.make(word: "cat", confidence: 0.8, symbols: symbols, count: 1).count == 1)
        #expect(WordCandidates.make(word: "cat", confidence: 0.8, symbols: [], count: 5).map(\.text) == ["cat"])
    }
}
