import OCRBasics
import OCRPageModel
import Testing

/// An amount's point read into the next digit's box, found by its own ink (pure: words and gray
/// levels in, words out). The words' images are drawn here: digits as bars 22 px tall.
@Suite struct PointsInDigitsTests {
    /// A word's image, `width` x 22, paper at 255, with `marks` (rectangles in its pixels) inked at `level`.
    static func image(width: Int, _ marks: [(RawRect, UInt8)]) -> GrayGrid {
        var pixels = [UInt8](repeating: 255, count: width * 22)
        for (rect, level) in marks {
            for y in rect.top..<rect.bottom { for x in rect.left..<rect.right { pixels[y * width + x] = level } }
        }
        return GrayGrid(width: width, height: 22, pixels: pixels)
    }

    /// "47" as read: a 4 (x 0-12) and a 7 (x 19-31), and between them, when given, a point 3 px
    /// square on the baseline at x 14-17.
    static func fortySeven(point: RawRect? = RawRect(left: 14, top: 19, right: 17, bottom: 22), level: UInt8 = 0) -> GrayGrid {
        image(width: 32, [(RawRect(left: 0, top: 0, right: 12, bottom: 22), 0), (RawRect(left: 19, top: 0, right: 31, bottom: 22), 0)]
              + (point.map { [($0, level)] } ?? []))
    }

    /// A page of one line: the word read "47" at x 500 (its symbols boxed as Tesseract boxes
    /// them, the 7's taking in the point), and `pointed` amounts read with points.
    static func page(pointed: Int = 2) -> [RawBlock] {
        let word = RawWord(text: "47", confidence: 0.9, rect: RawRect(left: 500, top: 100, right: 532, bottom: 122),
                           symbols: [RawSymbol(text: "4", confidence: 0.9, rect: RawRect(left: 500, top: 100, right: 512, bottom: 122)),
                                     RawSymbol(text: "7", confidence: 0.9, rect: RawRect(left: 514, top: 100, right: 532, bottom: 122))])
        let amounts = (0..<pointed).map { i in
            RawWord(text: "3.4", confidence: 0.9, rect: RawRect(left: 600 + 60 * i, top: 100, right: 640 + 60 * i, bottom: 122))
        }
        let rect = RawRect(left: 0, top: 0, right: 800, bottom: 200)
        return [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: [word] + amounts)])])]
    }

    static func read(_ blocks: [RawBlock], _ image: GrayGrid) throws -> (texts: [String], word: RawWord, changed: Int) {
        let read = try PointsInDigits.read(blocks) { rect in
            // Only the word "47" is a number of digits: its image, and nothing else is asked for.
            #expect(rect == RawRect(left: 500, top: 100, right: 532, bottom: 122))
            return image
        }
        let words = read.blocks[0].paragraphs[0].lines[0].words
        return (words.map(\.text), words[0], read.changed)
    }

    @Test func aPointBetweenTwoDigitsIsPutIn() throws {
        let read = try Self.read(Self.page(), Self.fortySeven())
        #expect(read.texts == ["4.7", "3.4", "3.4"])
        #expect(read.changed == 1)
        #expect(read.word.symbols.map(\.text) == ["4", ".", "7"])
        #expect(read.word.symbols[1].rect == RawRect(left: 514, top: 119, right: 517, bottom: 122))
    }

    @Test func marksThatAreNoPointLeaveTheNumberAsRead() throws {
        let cases: [(String, GrayGrid)] = [
            ("no mark", Self.fortySeven(point: nil)),
            ("a piece touching the 7", Self.fortySeven(point: RawRect(left: 16, top: 19, right: 19, bottom: 22))),
            ("a faint speck", Self.fortySeven(level: 200)),
            ("a pixel", Self.fortySeven(point: RawRect(left: 15, top: 20, right: 16, bottom: 21))),
            ("a hyphen's height", Self.fortySeven(point: RawRect(left: 14, top: 10, right: 17, bottom: 13))),
            ("a mark as tall as a third of the digits", Self.fortySeven(point: RawRect(left: 14, top: 14, right: 17, bottom: 22))),
            ("digits run together, their count unsure",
             Self.image(width: 32, [(RawRect(left: 0, top: 0, right: 31, bottom: 22), 0), (RawRect(left: 14, top: 19, right: 17, bottom: 22), 0)])),
        ]
        for (name, image) in cases {
            let read = try Self.read(Self.page(), image)
            #expect(read.texts == ["47", "3.4", "3.4"], "\(name)")
            #expect(read.changed == 0, "\(name)")
        }
    }

    /// A day or a year beside a month's name is no amount: "Received 25 July 2008" keeps its
    /// "25" whatever speck lies between its digits.
    @Test func aNumberBesideAMonthIsNotLookedAt() throws {
        for month in ["July", "Jan.", "september,"] {
            var blocks = Self.page()
            let after = RawWord(text: month, confidence: 0.9, rect: RawRect(left: 540, top: 100, right: 590, bottom: 122))
            blocks[0].paragraphs[0].lines[0].words.insert(after, at: 1)
            let read = try PointsInDigits.read(blocks) { _ in
                Issue.record("no word's image is asked for")
                return Self.fortySeven()
            }
            #expect(read.changed == 0, "\(month)")
            #expect(read.blocks[0].paragraphs[0].lines[0].words[0].text == "47", "\(month)")
        }
        #expect(!MonthNames.isMonth("Mayor") && MonthNames.isMonth("(Dec."))
    }

    @Test func aPageWithoutPointedAmountsIsNotLookedAt() throws {
        let read = try PointsInDigits.read(Self.page(pointed: 1)) { _ in
            Issue.record("no word's image is asked for")
            return Self.fortySeven()
        }
        #expect(read.changed == 0)
    }
}
