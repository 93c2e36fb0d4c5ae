import OCRPageModel
import Testing

/// The parts of a line with a dot leader that are read again without it (pure: words in, page
/// rectangles out).
@Suite struct LeaderLinesTests {
    static func word(_ text: String, _ left: Int) -> RawWord { DotLeadersTests.word(text, left) }
    static func line(_ words: [RawWord]) -> [RawBlock] { DotLeadersTests.line(words) }

    /// A leader as ``DotLeaders`` reads one: a word of its dots, their ink its box.
    static func leader(_ count: Int, from left: Int) -> RawWord {
        let dots = DotLeadersTests.dots(count, from: left)
        return RawWord(text: String(repeating: ".", count: count), confidence: 0.9, rect: WordCombination.bounds(dots)!,
                       symbols: dots.map { RawSymbol(text: ".", confidence: 0.9, rect: $0) })
    }

    /// "one hour of birth ........ 42.9": the label before the leader, with half its height of
    /// paper around it but none of the leader's dots; the figure after the last leader is left
    /// as read.
    @Test func theLabelBeforeALeaderIsAPart() {
        let label = [Self.word("one", 0), Self.word("hour", 70), Self.word("of", 160), Self.word("birth", 210)]  // 0...308
        let blocks = Self.line(label + [Self.leader(20, from: 320), Self.word("42.9", 540)])
        let parts = LeaderLines.parts(in: blocks, width: 1000, height: 1000)
        #expect(parts == [RawRect(left: 0, top: 85, right: 320, bottom: 145)])
    }

    /// Two leaders in a line (a row of two label-figure pairs): a part before each, its paper
    /// stopping at a leader's dots on either side.
    @Test func eachLeaderHasItsPart() {
        let blocks = Self.line([Self.word("Assets", 100), Self.leader(10, from: 240), Self.word("12", 340), Self.word("Debts", 400),
                                Self.leader(10, from: 505), Self.word("7", 640)])
        let parts = LeaderLines.parts(in: blocks, width: 1000, height: 1000)
        #expect(parts == [RawRect(left: 85, top: 85, right: 233, bottom: 145), RawRect(left: 333, top: 85, right: 505, bottom: 145)])
    }

    /// A line without a leader, a leader with nothing before it, a run of marks without a letter
    /// or digit, and an ellipsis ("etc...", three dots) give no part.
    @Test func noLeaderNoPart() {
        #expect(LeaderLines.parts(in: Self.line([Self.word("Total", 0), Self.word("12.5", 300)]), width: 1000, height: 1000).isEmpty)
        #expect(LeaderLines.parts(in: Self.line([Self.leader(10, from: 0), Self.word("12.5", 300)]), width: 1000, height: 1000).isEmpty)
        #expect(LeaderLines.parts(in: Self.line([Self.word("(", 0), Self.leader(10, from: 40)]), width: 1000, height: 1000).isEmpty)
        #expect(LeaderLines.parts(in: Self.line([Self.word("etc", 0), Self.word("...", 80), Self.word("5", 200)]), width: 1000, height: 1000).isEmpty)
    }

    /// A part stays within the page.
    @Test func aPartStaysOnThePage() {
        let blocks = Self.line([Self.word("Total", 2), Self.leader(10, from: 150)])
        #expect(LeaderLines.parts(in: blocks, width: 1000, height: 140) == [RawRect(left: 0, top: 85, right: 115, bottom: 140)])
    }
}
