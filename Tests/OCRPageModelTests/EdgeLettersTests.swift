import OCRPageModel
import Testing

/// A word's first or last letters left out of it, found beside it among the thresholded page's
/// letters in no word (pure: blocks and lost letters in). Words are boxed as ``DotLeadersTests``
/// boxes them: letters 20 px apart on the line 100-130, ink 105-125 on the baseline at 125.
@Suite struct EdgeLettersTests {
    /// "gned" read where "assigned" is printed (a dev scan), its "assi" lost before it, and a
    /// "y" lost after "Categor": each word with the part of the page holding it and its letters.
    @Test func lettersBesideAWordAreItsEdges() {
        let word = DotLeadersTests.word("gned", 80)
        let before = (0..<4).map { RawRect(left: 20 * $0, top: 105, right: 20 * $0 + 18, bottom: 125) }
        let edges = EdgeLetters.edges(in: DotLeadersTests.line([word]), lost: before)
        #expect(edges.count == 1)
        #expect(edges.first?.region == RawRect(left: 0, top: 100, right: 158, bottom: 130))
        #expect(edges.map { [$0.before, $0.after] } == [[4, 0]])
        let categor = DotLeadersTests.word("Categor", 0)
        let y = RawRect(left: 140, top: 105, right: 158, bottom: 132)
        #expect(EdgeLetters.edges(in: DotLeadersTests.line([categor]), lost: [y]).map { [$0.before, $0.after] } == [[0, 1]])
    }

    /// A letter between two words nearer the other ("of a" read "o a", its "f" lost, on a gray
    /// 120-dpi scan), and a letter beside a word of one character, are no edge of them.
    @Test func aLetterNearerAnotherWordOrBesideALoneLetterIsNoEdge() {
        let o = DotLeadersTests.word("o", 0), a = DotLeadersTests.word("a", 46)
        let f = RawRect(left: 21, top: 105, right: 34, bottom: 125)  // 3 px from "o", 12 from "a"
        #expect(EdgeLetters.edges(in: DotLeadersTests.line([o, a]), lost: [f]).isEmpty)
        // Within reach of both words (4 px): the nearer one's.
        let of = DotLeadersTests.word("of", 0), b = DotLeadersTests.word("ba", 50)
        let c = RawRect(left: 40, top: 105, right: 47, bottom: 125)  // 2 px from "of", 3 from "ba"
        #expect(EdgeLetters.edges(in: DotLeadersTests.line([of, b]), lost: [c]).map(\.place.word) == [0])
    }

    /// Letters a word's space away, raised above the line (a quote, a footnote's mark) or on
    /// another line are no edge of it.
    @Test func lettersAwayFromAWordAreNot() {
        let word = DotLeadersTests.word("Categor", 0)
        for lost in [RawRect(left: 150, top: 105, right: 168, bottom: 125), RawRect(left: 140, top: 100, right: 150, bottom: 112),
                     RawRect(left: 140, top: 160, right: 158, bottom: 180)] {
            #expect(EdgeLetters.edges(in: DotLeadersTests.line([word]), lost: [lost]).isEmpty, "\(lost)")
        }
    }

    /// A reading is kept where it spells the word with letters or digits added where letters
    /// were lost, and no more than one more than were lost there.
    @Test func aReadingIsKeptWhereItAddsTheLostLetters() {
        let after = EdgeLetters.Edge(place: WordCombination.WordPath(block: 0, paragraph: 0, line: 0, word: 0), region: RawRect(left: 0, top: 0, right: 1, bottom: 1), before: 0, after: 1)
        #expect(EdgeLetters.keeps("Category", over: "Categor", edge: after))
        #expect(!EdgeLetters.keeps("tas", over: "as", edge: after))  // added where nothing was lost
        #expect(!EdgeLetters.keeps("Categoryxyz", over: "Categor", edge: after))  // more than was lost
        #expect(!EdgeLetters.keeps("Catcgory", over: "Categor", edge: after))  // a letter read otherwise
        #expect(!EdgeLetters.keeps("Categor.", over: "Categor", edge: after))  // a mark, no letter
        #expect(!EdgeLetters.keeps("Categor y", over: "Categor", edge: after))
    }

    /// A sliver of ink inside the word's edge (a stroke of its last letter the word's box cut
    /// short) takes it no further: the search ends (it once went round for ever on a 150-dpi table).
    @Test func aSliverInsideTheEdgeIsNoNextLetter() {
        let word = DotLeadersTests.word("Categor", 0)
        let sliver = RawRect(left: 136, top: 105, right: 137, bottom: 125)
        #expect(EdgeLetters.edges(in: DotLeadersTests.line([word]), lost: [sliver]).isEmpty)
    }
}
