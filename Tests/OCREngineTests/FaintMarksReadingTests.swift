import OCREngine
import OCRWire
import Testing

/// Amounts whose faint points and labels whose faint colons the reading drops, read through a
/// real engine (`Tests/Fixtures/faint-marks.png`, made by `scripts/make-faint-marks-fixture.py`).
@Suite struct FaintMarksReadingTests {
    static let page = "faint-marks.png"
    static let amounts = ["7.95", "4.50", "3.20", "12.80", "1.15", "28.45"]

    @Test func accurateReadsEachAmountWithItsPoint() async throws {
        let result = try await recognize(Fixtures.page(Self.page))
        let words = result.words.map(\.text)
        for amount in Self.amounts {
            #expect(words.contains(amount), "\(amount) in \(words)")
        }
        #expect(try #require(result.timings?.steps).map(\.step).contains("dropped_points"))
    }

    @Test func accurateReadsTheFaintColons() async throws {
        let result = try await recognize(Fixtures.page(Self.page))
        let lines = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
        #expect(lines.contains(["Date:", "05/03/2018"]), "\(lines)")
        #expect(lines.contains(["Cashier", ":", "USER"]), "\(lines)")
        #expect(try #require(result.timings?.steps).map(\.step).contains("faint_colons"))
    }

    /// `fast` reads as plain Tesseract does: without the faint points and colons.
    @Test func fastDropsThem() async throws {
        var options = RecognitionOptions()
        options.level = .fast
        let words = try await recognize(Fixtures.page(Self.page), options).words.map(\.text)
        #expect(words.contains("795") && words.contains("450"), "\(words)")
        #expect(!words.contains("7.95"), "\(words)")
        #expect(words.contains("Date") && !words.contains { $0.contains(":") }, "\(words)")
    }
}
