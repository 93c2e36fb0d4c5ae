import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// A ruled table of a real statistical report (camelot's `agstat.pdf`, page 1 at 300 dpi,
    /// seven rows of its first columns): the LSTM reads the rule left of each district's name
    /// as a bar it boxes on the name's first letter ("|Balasore", 15 px right of the rule), and
    /// some rules as words of their own ("|"), plain `tesseract` too. `accurate` drops both
    /// where the page shows the rule (TableRules.swift).
    @Suite struct TableRulesReading {
        static let page = "real/camelot/agstat-p1-districts.png"

        @Test func rulesBesideNamesAreNotRead() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            let words = result.words.map(\.text)
            #expect(!words.contains { $0.contains("|") }, "\(words)")
            for name in ["Balasore", "Bhadrak", "Balangir", "Subarnapur", "Cuttack", "Jagatsingpur", "Jajpur"] {
                #expect(words.contains(name), "\(name) in \(words)")
            }
            for number in ["23.65", "15.34", "17.01", "26.63", "18.59", "16.36"] {
                #expect(words.contains(number), "\(number) in \(words)")
            }
        }

        /// `fast` reads as Tesseract does, the rules as bars.
        @Test func fastReadsTheRulesAsBars() async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = .fast })
            let words = result.words.map(\.text)
            #expect(words.contains("|Balasore"), "\(words)")
            #expect(words.contains("|"), "\(words)")
        }
    }
}
