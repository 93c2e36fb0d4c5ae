import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// Camelot's `district_health` page as a 200-dpi JPEG scan (a dev-half page of the
    /// real-layout corpus): Tesseract reads its "4.7" and "4.3" (percentages with one decimal)
    /// as "47" and "43", the point taken into the next digit's box. `accurate` puts the point
    /// back where the word's own ink shows it between the digits (PointsInDigits.swift).
    @Suite struct PointsInDigitsReading {
        static let page = "real/camelot/district_health-p1-scan.jpg"

        @Test func pointsInsideDigitsBoxesAreRead() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("points_in_digits"))
            let words = result.words.map(\.text)
            #expect(words.contains("4.7") && words.contains("4.3"), "\(result.text)")
            #expect(!words.contains("47") && !words.contains("43"), "\(result.text)")
        }
    }
}
