import Testing
@testable import OCRPageModel
@testable import OCREngine

/// A table's rule read as a bracket beside a number (pure: words and pixels in).
@Suite struct TableRulesTests {
    static func word(_ text: String) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: 100 + i * 20, top: 100, right: 100 + i * 20 + 18, bottom: 130))
        }
        return RawWord(text: text, confidence: 0.9, rect: WordCombination.bounds(symbols.map(\.rect))!, symbols: symbols)
    }

    /// A bracket or bar without a partner at an end of a number may be a rule; beside any other
    /// word a bar or a square or curly bracket, not a round one.
    @Test func suspectsAreUnpairedBracketsBesideNumbers() {
        #expect(TableRules.suspectEnds(Self.word("0.02)")) == (false, true))
        #expect(TableRules.suspectEnds(Self.word("|2.78")) == (true, false))
        #expect(TableRules.suspectEnds(Self.word("|1,234|")) == (true, true))
        #expect(TableRules.suspectEnds(Self.word("(31.1)")) == (false, false))
        #expect(TableRules.suspectEnds(Self.word("(31.1")) == (true, false))  // An opening bracket alone may be a rule.
        #expect(TableRules.suspectEnds(Self.word("lakhs)")) == (false, false))
        #expect(TableRules.suspectEnds(Self.word("(In")) == (false, false))
        #expect(TableRules.suspectEnds(Self.word("|RURAL")) == (true, false))
        #expect(TableRules.suspectEnds(Self.word("||TOTAL|")) == (true, true))
        #expect(TableRules.suspectEnds(Self.word(")")) == (false, false))
        #expect(TableRules.suspectEnds(Self.word("[Anaesthetics")) == (true, false))
        #expect(TableRules.suspectEnds(Self.word("{Muscle")) == (true, false))
        #expect(TableRules.suspectEnds(Self.word("PHC}")) == (false, true))
        #expect(TableRules.suspectEnds(Self.word("[sic]")) == (false, false))
    }

    /// A dark column through the word (rows 15-45 of the strip) and on to the strip's top or
    /// bottom is a rule (through the whole strip, or stopping at a table's edge under its first
    /// or last row); a bracket's stroke, which ends with the text line, is not.
    @Test func aRuleRunsOnPastTheWord() {
        func strip(column: Int?, from top: Int, to bottom: Int) -> GrayGrid {
            var pixels = [UInt8](repeating: 255, count: 10 * 60)
            if let column { for y in top..<bottom { pixels[y * 10 + column] = 40 } }
            return GrayGrid(width: 10, height: 60, pixels: pixels)
        }
        let word = 15..<45
        #expect(TableRules.hasRule(strip(column: 4, from: 0, to: 60), word: word))
        #expect(TableRules.hasRule(strip(column: 4, from: 0, to: 48), word: word))
        #expect(TableRules.hasRule(strip(column: 4, from: 12, to: 60), word: word))
        #expect(!TableRules.hasRule(strip(column: 4, from: 13, to: 47), word: word))
        #expect(!TableRules.hasRule(strip(column: 4, from: 0, to: 40), word: word))
        #expect(!TableRules.hasRule(strip(column: nil, from: 0, to: 0), word: word))
    }

    @Test func droppingAnEndKeepsTheRestOfTheWord() {
        let word = TableRules.dropping(4, of: Self.word("0.02)"))
        #expect(word.text == "0.02" && word.symbols.count == 4)
        #expect(word.rect == RawRect(left: 100, top: 100, right: 178, bottom: 130))
    }
}
