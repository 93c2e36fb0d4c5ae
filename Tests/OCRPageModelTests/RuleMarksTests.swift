import OCRPageModel
import Testing

/// A horizontal rule's end read as a mark at a word's start or end (pure: words and a drawn gray
/// page in, words out).
@Suite struct RuleMarksTests {
    /// "CASH" as four solid letters (ink 40), 20 x 30 px on a baseline at y 130, its box from
    /// y 96 (it took in what is above it), with `lead` before it: a mark's text and box.
    static func word(lead: (String, RawRect)?) -> RawWord {
        var symbols = "CASH".enumerated().map { i, c in
            RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: 110 + 24 * i, top: 96, right: 130 + 24 * i, bottom: 130))
        }
        if let lead { symbols.insert(RawSymbol(text: lead.0, confidence: 0.5, rect: lead.1), at: 0) }
        let rect = WordCombination.bounds(symbols.map(\.rect))!
        return RawWord(text: symbols.map(\.text).joined(), confidence: 0.8, rect: rect, symbols: symbols)
    }

    /// The word's text after `RuleMarks.read` on a page of paper (255) with the letters drawn
    /// and `rule` (rectangles at gray `level`) on it.
    static func read(_ word: RawWord, rule: [RawRect], level: UInt8 = 150) throws -> String {
        var page = GrayGrid(width: 400, height: 200, pixels: [UInt8](repeating: 255, count: 400 * 200))
        func fill(_ r: RawRect, _ v: UInt8) { for y in r.top..<r.bottom { for x in r.left..<r.right { page.pixels[y * 400 + x] = v } } }
        for i in 0..<4 { fill(RawRect(left: 110 + 24 * i, top: 100, right: 130 + 24 * i, bottom: 130), 40) }
        for dash in rule { fill(dash, level) }
        let rect = RawRect(left: 0, top: 90, right: 400, bottom: 140)
        let blocks = [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: [word])])])]
        return try RawBlock.allWords(RuleMarks.read(blocks) { [page] r in page.cropped(r) }.blocks)[0].text
    }

    @Test func aRulesEndOnTheBoxsEdgeIsDropped() throws {
        let sliver = RawRect(left: 104, top: 96, right: 109, bottom: 98)
        // A dashed rule above the word, from its first letter on (dashes of 8 px, gaps of 2).
        let dashes = stride(from: 104, to: 210, by: 10).map { RawRect(left: $0, top: 96, right: $0 + 8, bottom: 98) }
        #expect(try Self.read(Self.word(lead: ("‘", sliver)), rule: dashes) == "CASH")
        #expect(try Self.read(Self.word(lead: ("‘", sliver)), rule: []) == "‘CASH")
    }

    @Test func aMarkOfTheWordsOwnStays() throws {
        let rule = [RawRect(left: 60, top: 96, right: 210, bottom: 98)]
        // A quote: taller than wide.
        #expect(try Self.read(Self.word(lead: ("‘", RawRect(left: 104, top: 96, right: 108, bottom: 104))), rule: rule) == "‘CASH")
        // A dash between the word's top and bottom ("-5.00"), with paper beside it.
        #expect(try Self.read(Self.word(lead: ("-", RawRect(left: 100, top: 112, right: 107, bottom: 114))), rule: []) == "-CASH")
        // A flat mark on the edge with only paper beside it.
        #expect(try Self.read(Self.word(lead: ("~", RawRect(left: 100, top: 96, right: 107, bottom: 98))), rule: [RawRect(left: 100, top: 96, right: 107, bottom: 98)]) == "~CASH")
    }
}
