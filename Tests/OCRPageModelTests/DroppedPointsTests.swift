import OCRPageModel
import Testing

/// An amount's point the reading dropped, put back where the digits leave room for it (pure:
/// words and gray levels in, words out).
@Suite struct DroppedPointsTests {
    /// Digits 24 px tall on a baseline at y 124, 16 px wide, each `steps[i]` px right of the one
    /// before (tabular digits step 20 px; a dropped point adds its own width).
    static func number(_ text: String, left: Int = 100, steps: [Int]? = nil) -> RawWord {
        var x = left
        var symbols: [RawSymbol] = []
        for (i, c) in text.enumerated() {
            if i > 0 { x += steps?[i - 1] ?? 20 }
            symbols.append(RawSymbol(text: String(c), confidence: 0.8, rect: RawRect(left: x, top: 100, right: x + 16, bottom: 124)))
        }
        return RawWord(text: text, confidence: 0.8, rect: RawRect(left: left, top: 100, right: x + 16, bottom: 124), symbols: symbols)
    }

    /// A page of one line of `words`, and a line below of amounts read with their points
    /// (`pointed` of them: a page must print its amounts with points).
    static func page(_ words: [RawWord], pointed: Int = 2) -> [RawBlock] {
        let rect = RawRect(left: 0, top: 0, right: 800, bottom: 200), below = RawRect(left: 0, top: 200, right: 800, bottom: 240)
        let amounts = (0..<pointed).map { i in
            RawWord(text: "3.20", confidence: 0.9, rect: RawRect(left: 100 + 100 * i, top: 210, right: 160 + 100 * i, bottom: 234))
        }
        return [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: words)])]),
                RawBlock(rect: below, type: .text, paragraphs: [RawParagraph(rect: below, lines: [RawLine(rect: below, words: amounts)])])]
    }

    /// The first line's words.
    static func texts(_ blocks: [RawBlock]) -> [String] { blocks[0].paragraphs.flatMap(\.lines).flatMap(\.words).map(\.text) }

    /// A gray image of `width` x `height`: paper at 255, with ink (0) in its first `ink` pixels.
    static func gray(_ width: Int, _ height: Int, ink: Int = 0) -> GrayGrid {
        GrayGrid(width: width, height: height, pixels: [UInt8](repeating: 0, count: ink) + [UInt8](repeating: 255, count: width * height - ink))
    }

    @Test func aStepThatHoldsAPointBeforeTheLastTwoDigitsPutsItBack() throws {
        // "795": 7 to 9 is 29 px where 9 to 5 is 20 (the point's 9 px between).
        let blocks = Self.page([RawWord(text: "Total", confidence: 0.9, rect: RawRect(left: 10, top: 100, right: 80, bottom: 124)),
                                Self.number("795", steps: [29, 20])])
        let places = DroppedPoints.places(in: blocks)
        let place = try #require(places.first)
        #expect(places.count == 1)
        #expect(place.word == 1 && !place.joinsNext && place.offset == 1)
        // The point's box lies in the gap (x 116-129), on the baseline.
        #expect(place.point.left >= 116 && place.point.right <= 129 && place.point.bottom == 124)
        let put = DroppedPoints.putBack(places, in: blocks)
        #expect(put.changed == 1)
        #expect(Self.texts(put.blocks) == ["Total", "7.95"])
        let word = put.blocks[0].paragraphs[0].lines[0].words[1]
        #expect(word.symbols.map(\.text) == ["7", ".", "9", "5"])
        #expect(word.symbols[1].rect == place.point)
    }

    @Test func twoNumbersSplitAtThePointAreJoined() throws {
        // "7 50": the reading took the point's room for a space (6 px, under a digit's height).
        let whole = Self.number("7", left: 100), decimals = Self.number("50", left: 122)
        let blocks = Self.page([whole, decimals, RawWord(text: "SR", confidence: 0.9, rect: RawRect(left: 200, top: 100, right: 230, bottom: 124))])
        let places = DroppedPoints.places(in: blocks)
        #expect(places.count == 1 && places.first?.joinsNext == true)
        let put = DroppedPoints.putBack(places, in: blocks)
        #expect(Self.texts(put.blocks) == ["7.50", "SR"])
        let joined = put.blocks[0].paragraphs[0].lines[0].words[0]
        #expect(joined.rect == RawRect(left: 100, top: 100, right: 158, bottom: 124))
        #expect(joined.symbols.map(\.text) == ["7", ".", "5", "0"])
        // Two such amounts in a row (unit price, amount) are both joined.
        let row = Self.page([Self.number("57", left: 100), Self.number("50", left: 146),
                             Self.number("57", left: 300), Self.number("50", left: 346)])
        #expect(Self.texts(DroppedPoints.putBack(DroppedPoints.places(in: row), in: row).blocks) == ["57.50", "57.50"])
    }

    @Test func numbersThatAreNoAmountsStay() {
        let cases: [(String, [RawWord])] = [
            ("even steps", [Self.number("795")]),
            ("the wide step elsewhere", [Self.number("7950", steps: [29, 20, 20])]),
            ("a leading zero", [Self.number("0164", steps: [20, 29, 20])]),
            ("a bar code", [Self.number("9556939040118", steps: Array(repeating: 20, count: 10) + [29, 20])]),
            ("letters", [Self.number("7a5", steps: [29, 20])]),
            ("an identifier's groups", [Self.number("0164", left: 100), Self.number("27", left: 186)]),
            ("a card number's groups", [Self.number("1800", left: 100), Self.number("88", left: 186), Self.number("1231", left: 240)]),
            ("three decimals", [Self.number("7", left: 100), Self.number("500", left: 122)]),
            ("a column's width apart", [Self.number("7", left: 100), Self.number("50", left: 150)]),
            ("a phone number's groups", [Self.number("01", left: 100), Self.number("71", left: 146), Self.number("17", left: 192),
                                         Self.number("61", left: 238)]),
            ("a company number's last groups", [Self.number("812", left: 100), Self.number("388", left: 166), Self.number("61", left: 232)]),
        ]
        for (name, words) in cases {
            #expect(DroppedPoints.places(in: Self.page(words)).isEmpty, "\(name)")
        }
        // A page that shows fewer amounts with points prints its numbers whole.
        #expect(DroppedPoints.places(in: Self.page([Self.number("795", steps: [29, 20])], pointed: 1)).isEmpty)
        #expect(DroppedPoints.places(in: Self.page([Self.number("795", steps: [29, 20])], pointed: 2)).count == 1)
        // Symbol boxes of a misread: one much wider than the others, or overlapping.
        var wide = Self.number("795", steps: [29, 20])
        wide.symbols[2].rect.right += 20
        var overlapping = Self.number("795", steps: [29, 20])
        overlapping.symbols[1].rect.left = overlapping.symbols[0].rect.right - 4
        overlapping.symbols[1].rect.right = overlapping.symbols[1].rect.left + 16
        for word in [wide, overlapping] {
            #expect(DroppedPoints.places(in: Self.page([word])).isEmpty)
        }
    }

    @Test func aMarkAboveTheBaselineOrTooLittleContrastKeepsTheReading() throws {
        let words = Self.gray(60, 24, ink: 200)  // 14% ink: paper 255, ink 0.
        #expect(DroppedPoints.isClear(Self.gray(5, 10), words: words))
        // A hyphen's or a colon's mark in the gap's upper part.
        #expect(!DroppedPoints.isClear(GrayGrid(width: 5, height: 10, pixels: [UInt8](repeating: 255, count: 45) + [120, 120, 120, 255, 255]), words: words))
        // A faint speck (under a third of the contrast) is no mark.
        #expect(DroppedPoints.isClear(GrayGrid(width: 5, height: 10, pixels: [UInt8](repeating: 255, count: 49) + [200]), words: words))
        // Words that show no contrast cannot be judged.
        #expect(!DroppedPoints.isClear(Self.gray(5, 10), words: GrayGrid(width: 60, height: 24, pixels: [UInt8](repeating: 230, count: 1440))))

        // Through `read`: the image decides.
        let blocks = Self.page([Self.number("795", steps: [29, 20])])
        let place = try #require(DroppedPoints.places(in: blocks).first)
        let clear = try DroppedPoints.read(blocks) { rect in rect == place.clear ? Self.gray(rect.width, rect.height) : words }
        #expect(clear.changed == 1 && Self.texts(clear.blocks) == ["7.95"])
        let marked = try DroppedPoints.read(blocks) { rect in rect == place.clear ? Self.gray(rect.width, rect.height, ink: 1) : words }
        #expect(marked.changed == 0 && Self.texts(marked.blocks) == ["795"])
    }
}
