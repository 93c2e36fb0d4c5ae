import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// The head of a real statistical table (camelot's `agstat.pdf`, page 1 at 300 dpi, its
    /// column heads and the first rows), five of its column heads printed turned a quarter.
    /// Tesseract cuts across them and reads slices ("SE/9RSS|/F5e5\\"), plain `tesseract` too;
    /// `accurate` reads them turned (SidewaysText.swift) and keeps the heads set across.
    @Suite struct SidewaysHeadsReading {
        static let page = "real/camelot/agstat-p1-heads.png"
        static let heads = ["Projected Population", "for 2012-13", "Total Consumption", "requirement", "(@ 400gms/adult/day)",
                            "Total Requirement", "(Including seeds,", "(In Lakh tonnes)"]

        @Test func theTurnedHeadsAreRead() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("sideways_text"))
            for head in Self.heads {
                #expect(result.text.contains(head), "\(head) in \(result.text)")
            }
            // What was read across stays: a head set across, and the rows.
            for kept in ["Production", "(Rice)", "1 Balasore 23.65 20.81 3.04 3.47"] {
                #expect(result.text.contains(kept), "\(kept) in \(result.text)")
            }
        }

        /// `fast` reads as Tesseract does: slices.
        @Test func fastReadsSlices() async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = .fast })
            #expect(!result.text.contains("Projected Population") && !result.text.contains("Total Consumption"), "\(result.text)")
        }
    }
}
