import OCREngine
import OCRWire
import Testing

extension EngineTests {
    /// Rows of a real statistical table (camelot's `district_health.pdf`, page 1 at 300 dpi, six
    /// rows of it), four labels followed by a dot leader: Tesseract reads the leaders as
    /// letters ("ee eee eeeeteeeee", "....cccceccsceec") and runs labels into them ("Dirth.........",
    /// "2.5 kg)........."), plain `tesseract` too. `accurate` reads them as dots (DotLeaders.swift).
    @Suite struct DotLeadersReading {
        static let page = "real/camelot/district_health-p1-leaders.png"

        static func lines(_ result: PageResult) -> [[String]] {
            result.blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
        }

        @Test func leadersAreReadAsDots() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("dot_leaders"))
            let words = result.words.map(\.text)
            let leaders = words.filter { $0.count >= 5 && $0.allSatisfy { $0 == "." } }
            #expect(leaders.count == 4, "\(Self.lines(result))")
            // No word mixes letters and a leader's dots, and no leader is read as letters.
            #expect(!words.contains { $0.contains("...") && $0.contains { $0.isLetter || $0.isNumber } }, "\(Self.lines(result))")
            #expect(!words.contains { $0.count >= 8 && Set($0).isSubset(of: "cesoatn.") && $0.contains { $0.isLetter } }, "\(Self.lines(result))")
            for label in ["birth", "kg)", "months"] {
                #expect(words.contains(label), "\(label) in \(Self.lines(result))")
            }
            for number in ["4.7", "42.9", "38.8", "12.8"] {
                #expect(words.contains(number), "\(number) in \(Self.lines(result))")
            }
        }

        /// Beside a leader Tesseract reads two labels' small letters as capitals ("at least 6
        /// MONTHS", "one hour Of Dirth"), plain `tesseract` too; read again without their leaders
        /// they read as printed (LeaderLines.swift), and the figures after the leaders stay.
        @Test func theWordsBeforeALeaderAreReadWithoutIt() async throws {
            let result = try await recognize(Fixtures.page(Self.page))
            #expect(try #require(result.timings?.steps).map(\.step).contains("leader_lines"))
            let lines = Self.lines(result).map { $0.joined(separator: " ") }
            #expect(lines.contains { $0.hasPrefix("Children age 6-35 months exclusively breastfed for at least 6 months .....") && $0.hasSuffix(" 4.7") },
                    "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Children under 3 years breastfed within one hour of birth .....") && $0.hasSuffix(" 42.9") },
                    "\(lines)")
        }

        /// The same page as a 200-dpi JPEG scan (the real-layout corpus's degradation, a dev-half
        /// page): the layout analysis ends most label lines before their leader, leaving its dots
        /// in no line or in lines read as nothing (plain `tesseract` reads dots in 5 of its lines).
        /// The dots that run on from a line's end are its leader, as far as the next column.
        @Test func aScansLeadersLeftOutOfTheirLinesAreRead() async throws {
            let result = try await recognize(Fixtures.page("real/camelot/district_health-p1-scan.jpg"))
            let lines = Self.lines(result).map { $0.joined(separator: " ") }
            let leaders = result.words.map(\.text).filter { $0.count >= 20 && $0.allSatisfy { $0 == "." } }
            #expect(leaders.count >= 25, "\(lines)")
            for label in ["Children age 6-9 months receiving solid/semi-solid food and breast milk", "Percentage of Children weighed at birth",
                          "Prevalence of diarrhoea in last 2 weeks for under 5 years old children"] {
                #expect(lines.contains { $0.hasPrefix(label + " .....") }, "\(label) in \(lines)")
            }
        }

        /// `fast` reads as Tesseract does, the leaders as letters.
        @Test func fastReadsLeadersAsTesseractDoes() async throws {
            let result = try await recognize(Fixtures.page(Self.page), RecognitionOptions.with { $0.level = .fast })
            let steps = try #require(result.timings?.steps).map(\.step)
            #expect(!steps.contains("dot_leaders") && !steps.contains("leader_lines"))
            #expect(result.words.map(\.text).contains { $0.contains("eeee") }, "\(Self.lines(result))")
        }
    }
}
