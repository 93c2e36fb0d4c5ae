import OCRPageModel
import Testing

/// Colons read as semicolons, told apart by where the mark's box ends against the line's
/// baseline (pure: words in and out).
@Suite struct SemicolonColonsTests {
    /// `text` with one symbol per character: letters and digits 20 px tall on a baseline at
    /// y 120, each other mark ending at `markBottom`.
    static func word(_ text: String, left: Int = 100, markBottom: Int) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            let x = left + 12 * i
            return c.isLetter || c.isNumber
                ? RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: x, top: 100, right: x + 10, bottom: 120))
                : RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: x, top: 106, right: x + 3, bottom: markBottom))
        }
        return RawWord(text: text, confidence: 0.9, rect: RawRect(left: left, top: 100, right: left + 12 * text.count, bottom: max(120, markBottom)),
                       symbols: symbols)
    }

    /// The words after `SemicolonColons.read` on a page of paper (255) whose words' boxes hold
    /// ink (0) in their top rows, with `tails` (rectangles at gray `tailLevel`) drawn on it.
    static func read(_ words: [RawWord], tails: [RawRect] = [], tailLevel: UInt8 = 200) throws -> (texts: [String], changed: Int) {
        var page = GrayGrid(width: 800, height: 200, pixels: [UInt8](repeating: 255, count: 800 * 200))
        for word in words {
            for y in 100..<106 { for x in word.rect.left..<word.rect.right { page.pixels[y * 800 + x] = 0 } }
        }
        for tail in tails {
            for y in tail.top..<tail.bottom { for x in tail.left..<tail.right { page.pixels[y * 800 + x] = tailLevel } }
        }
        let rect = RawRect(left: 0, top: 90, right: 800, bottom: 130)
        let blocks = [RawBlock(rect: rect, type: .text, paragraphs: [RawParagraph(rect: rect, lines: [RawLine(rect: rect, words: words)])])]
        let read = try SemicolonColons.read(blocks) { [page] r in page.cropped(r) }
        return (RawBlock.allWords(read.blocks).map(\.text), read.changed)
    }

    @Test func aSemicolonEndingOnTheBaselineIsAColon() throws {
        let read = try Self.read([Self.word("NO;", markBottom: 121), Self.word(";", left: 200, markBottom: 120), Self.word("0013", left: 300, markBottom: 120)])
        #expect(read.texts == ["NO:", ":", "0013"] && read.changed == 2)
    }

    @Test func aSemicolonWhoseTailReachesBelowStays() throws {
        // 4 px below a 20 px line (0.2 of its letters, as the corpus's prose semicolons).
        let read = try Self.read([Self.word("position;", markBottom: 124), Self.word("and", left: 300, markBottom: 120)])
        #expect(read.texts == ["position;", "and"] && read.changed == 0)
        // A box that ends on the baseline over a faint tail the page shows under it (a scan's
        // "AD;"); one only as faint as the paper's grain is no tail.
        let tail = RawRect(left: 124, top: 122, right: 126, bottom: 126)
        #expect(try Self.read([Self.word("AD;", markBottom: 120)], tails: [tail]).texts == ["AD;"])
        #expect(try Self.read([Self.word("AD;", markBottom: 120)], tails: [tail], tailLevel: 240).texts == ["AD:"])
        // Symbols that do not match the characters one to one, and a line without letters.
        var ligature = Self.word("NO;", markBottom: 120)
        ligature.symbols.removeFirst()
        #expect(try Self.read([ligature, Self.word("and", left: 300, markBottom: 120)]).texts == ["NO;", "and"])
        #expect(try Self.read([Self.word(";", markBottom: 120)]).texts == [";"])
    }
}
