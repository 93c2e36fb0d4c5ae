import OCREngine
import OCRWire
import Testing

/// Amounts whose faint points the reading drops, read through a real engine
/// (`Tests/Fixtures/faint-points.png`, made by `scripts/make-faint-points-fixture.py`).
@Suite struct DroppedPointsReadingTests {
    static let page = "faint-points.png"
    static let amounts = ["7.95", "4.50", "3.20", "12.80", "1.15", "28.45"]

    @Test func accurateReadsEachAmountWithItsPoint() async throws {
        let result = try await recognize(Fixtures.page(Self.page))
        let words = result.words.map(\.text)
        for amount in Self.amounts {
            #expect(words.contains(amount), "\(amount) in \(words)")
        }
        #expect(try #require(result.timings?.steps).map(\.step).contains("dropped_points"))
    }

    /// `fast` reads as plain Tesseract does: without the faint points.
    @Test func fastDropsThePoints() async throws {
        var options = RecognitionOptions()
        options.level = .fast
        let words = try await recognize(Fixtures.page(Self.page), options).words.map(\.text)
        #expect(words.contains("795") && words.contains("450"), "\(words)")
        #expect(!words.contains("7.95"), "\(words)")
    }
}
