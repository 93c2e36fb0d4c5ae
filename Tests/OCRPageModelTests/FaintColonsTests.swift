import OCRPageModel
import Testing

/// A colon the reading left out, put back where the gray page shows its two dots (pure: words
/// and a drawn gray page in, words out).
@Suite struct FaintColonsTests {
    /// A 500 x 200 page of paper (255) with "Total Qty" as solid letters (ink 40), 12 px wide
    /// and 24 px tall on a baseline at y 124, and `dots` (left, top, gray level) of 3 x 3 px.
    struct Page {
        var grid = GrayGrid(width: 500, height: 200, pixels: [UInt8](repeating: 255, count: 500 * 200))
        var words: [RawWord] = []

        init(dots: [(Int, Int, UInt8)], ink: UInt8 = 40, after: [(String, Int)] = []) {
            for (text, left) in [("Total", 100), ("Qty", 182)] + after {
                var symbols: [RawSymbol] = []
                for (i, c) in text.enumerated() {
                    let rect = RawRect(left: left + 14 * i, top: 100, right: left + 14 * i + 12, bottom: 124)
                    symbols.append(RawSymbol(text: String(c), confidence: 0.9, rect: rect))
                    fill(rect, ink)
                }
                words.append(RawWord(text: text, confidence: 0.9, rect: RawRect(left: left, top: 100, right: left + 14 * text.count - 2, bottom: 124),
                                     symbols: symbols))
            }
            for (x, y, level) in dots { fill(RawRect(left: x, top: y, right: x + 3, bottom: y + 3), level) }
        }

        mutating func fill(_ r: RawRect, _ level: UInt8) {
            for y in r.top..<r.bottom { for x in r.left..<r.right { grid.pixels[y * grid.width + x] = level } }
        }

        var blocks: [RawBlock] {
            let line = RawRect(left: 100, top: 100, right: words.last!.rect.right, bottom: 124)
            return [RawBlock(rect: line, type: .text, paragraphs: [RawParagraph(rect: line, lines: [RawLine(rect: line, words: words)])])]
        }

        /// The words after `FaintColons.read`, and how many colons it put back.
        func read() throws -> (words: [String], changed: Int) {
            let grid = self.grid
            let read = try FaintColons.read(blocks, width: grid.width) { rect in grid.cropped(rect) }
            return (RawBlock.allWords(read.blocks).map(\.text), read.changed)
        }
    }

    /// The colon's two dots after "Qty" (which ends at x 222), `offset` px past it: the lower on
    /// the baseline, the upper about half a letter above.
    static func colon(offset: Int, level: UInt8 = 200, lowerTop: Int = 120, upperTop: Int = 109) -> [(Int, Int, UInt8)] {
        [(222 + offset, lowerTop, level), (222 + offset, upperTop, level)]
    }

    @Test func aColonBesideAWordJoinsIt() throws {
        let page = Page(dots: Self.colon(offset: 5))
        let read = try page.read()
        #expect(read.words == ["Total", "Qty:"] && read.changed == 1)
        let blocks = try FaintColons.read(page.blocks, width: 500) { [grid = page.grid] rect in grid.cropped(rect) }.blocks
        let qty = RawBlock.allWords(blocks)[1]
        #expect(qty.symbols.last?.text == ":")
        #expect(qty.symbols.last?.rect == RawRect(left: 227, top: 109, right: 230, bottom: 123))
        #expect(qty.rect.right == 230)
    }

    @Test func aColonSetApartIsAWordOfItsOwn() throws {
        let read = try Page(dots: Self.colon(offset: 18)).read()
        #expect(read.words == ["Total", "Qty", ":"] && read.changed == 1)
    }

    @Test func marksThatAreNoColonLeaveTheLineAsRead() throws {
        let cases: [(String, [(Int, Int, UInt8)])] = [
            ("nothing", []),
            ("a full stop alone", [(227, 120, 200)]),
            ("two dots side by side", [(227, 120, 200), (234, 120, 200)]),
            ("two dots too close together", Self.colon(offset: 5, upperTop: 116)),
            ("the pair too high (a quote's marks)", Self.colon(offset: 5, lowerTop: 104, upperTop: 96)),
            ("specks as faint as the paper's grain", Self.colon(offset: 5, level: 225)),
            ("three marks", Self.colon(offset: 5) + [(244, 120, 200)]),
            ("the rest of a letter touching the gap's side", Self.colon(offset: 2)),
        ]
        for (name, dots) in cases {
            let read = try Page(dots: dots).read()
            #expect(read.words == ["Total", "Qty"] && read.changed == 0, "\(name): \(read.words)")
        }
        // A word already ending in a colon, and a line with no contrast to judge.
        var colonRead = Page(dots: Self.colon(offset: 5))
        colonRead.words[1].text = "Qty:"
        #expect(try colonRead.read().words == ["Total", "Qty:"])
        #expect(try Page(dots: Self.colon(offset: 5), ink: 230).read().changed == 0)
        // Dots 3 px before the next word, where the reading saw nothing (a dot-matrix letter's
        // first column); 5 px before it they are a colon.
        #expect(try Page(dots: Self.colon(offset: 5), after: [("USER", 233)]).read().words == ["Total", "Qty", "USER"])
        #expect(try Page(dots: Self.colon(offset: 5), after: [("USER", 235)]).read().words == ["Total", "Qty:", "USER"])
    }

    /// A mark Tesseract kept of a faded colon ("’", "»", "-") lying on its dots is replaced by it;
    /// one beside the dots is left as read.
    @Test func aStrayMarkOnTheDotsBecomesTheColon() throws {
        func page(markAt x: Int) -> Page {
            var page = Page(dots: Self.colon(offset: 60), after: [("USER", 320)])
            page.words.insert(RawWord(text: "’", confidence: 0.3, rect: RawRect(left: x, top: 109, right: x + 2, bottom: 115),
                                      symbols: [RawSymbol(text: "’", confidence: 0.3, rect: RawRect(left: x, top: 109, right: x + 2, bottom: 115))]), at: 2)
            return page
        }
        let read = try page(markAt: 283).read()
        #expect(read.words == ["Total", "Qty", ":", "USER"] && read.changed == 1)
        let colon = RawBlock.allWords(try FaintColons.read(page(markAt: 283).blocks, width: 500) { [grid = page(markAt: 283).grid] rect in grid.cropped(rect) }.blocks)[2]
        #expect(colon.rect == RawRect(left: 282, top: 109, right: 285, bottom: 123))
        #expect(try page(markAt: 300).read().words == ["Total", "Qty", "’", "USER"])
    }

    /// A colon set in a column far from its word ("Cashier      : USER", or "Address      :" with
    /// nothing after it) is found in the whole gap, up to six letter heights from the word.
    @Test func aTabulatedColonFarFromItsWord() throws {
        #expect(try Page(dots: Self.colon(offset: 100), after: [("USER", 360)]).read().words == ["Total", "Qty", ":", "USER"])
        #expect(try Page(dots: Self.colon(offset: 160), after: [("USER", 420)]).read().words == ["Total", "Qty", "USER"])
        // After the line's last word (a form's empty field, "Address      :").
        #expect(try Page(dots: Self.colon(offset: 100)).read().words == ["Total", "Qty", ":"])
        #expect(try Page(dots: Self.colon(offset: 160)).read().words == ["Total", "Qty"])
    }

    /// "Qty." whose full stop is a faded colon's lower dot reads "Qty:"; a full stop with a speck
    /// above it (no dot alike) stays.
    @Test func aWordsLastMarkOnTheLowerDotBecomesTheColon() throws {
        func page(upper: (Int, Int, UInt8), size: Int) -> Page {
            var page = Page(dots: [(227, 120, 200)])
            page.fill(RawRect(left: upper.0, top: upper.1, right: upper.0 + size, bottom: upper.1 + size), upper.2)
            let stop = RawRect(left: 227, top: 120, right: 230, bottom: 123)
            page.words[1].text = "Qty."
            page.words[1].symbols.append(RawSymbol(text: ".", confidence: 0.5, rect: stop))
            page.words[1].rect.right = 230
            return page
        }
        let colon = page(upper: (227, 109, 200), size: 3)
        let blocks = try FaintColons.read(colon.blocks, width: 500) { [grid = colon.grid] rect in grid.cropped(rect) }.blocks
        let qty = RawBlock.allWords(blocks)[1]
        #expect(qty.text == "Qty:" && qty.symbols.map(\.text) == ["Q", "t", "y", ":"])
        #expect(qty.symbols.last?.rect == RawRect(left: 227, top: 109, right: 230, bottom: 123) && qty.rect.right == 230)
        #expect(try page(upper: (228, 110, 200), size: 1).read().words == ["Total", "Qty."])
    }

    /// A bold colon's dots, a third of the letter height and a pixel (receipt 054's "DISC :", 4 px
    /// dots at 13 px letters), are a colon; a semicolon's tail below a like dot, as tall but
    /// narrow, is not.
    @Test func aBoldColonIsOneAndASemicolonIsNot() throws {
        func page(_ marks: [RawRect]) -> Page {
            var page = Page(dots: [])
            for mark in marks { page.fill(mark, 60) }
            return page
        }
        let bold = page([RawRect(left: 227, top: 116, right: 235, bottom: 124), RawRect(left: 227, top: 102, right: 235, bottom: 110)])
        #expect(try bold.read().words == ["Total", "Qty:"])
        let semicolon = page([RawRect(left: 227, top: 108, right: 231, bottom: 112), RawRect(left: 227, top: 118, right: 230, bottom: 126)])
        #expect(try semicolon.read().words == ["Total", "Qty"])
    }

    /// A rule above the line reaching into the gap's top is no mark of it.
    @Test func aRuleAboveTheLineIsLeftOut() throws {
        var page = Page(dots: Self.colon(offset: 5))
        page.fill(RawRect(left: 90, top: 94, right: 400, bottom: 96), 150)
        #expect(try page.read().words == ["Total", "Qty:"])
    }

    @Test func aGrayGridsDarkComponentsAndLevels() {
        // 6 x 3: a 2-pixel mark at the left, a 1-pixel one at the right, one pixel under the level.
        let grid = GrayGrid(width: 6, height: 3, pixels: [
            10, 255, 255, 255, 255, 255,
            20, 255, 255, 200, 255, 90,
            255, 255, 255, 255, 255, 255,
        ])
        let marks = grid.darkComponents(below: 128)
        #expect(marks.count == 2)
        #expect(marks[0].box == RawRect(left: 0, top: 0, right: 1, bottom: 2) && marks[0].darkest == 10)
        #expect(marks[1].box == RawRect(left: 5, top: 1, right: 6, bottom: 2) && marks[1].darkest == 90)
        #expect(grid.cropped(RawRect(left: 4, top: 1, right: 9, bottom: 9)) == GrayGrid(width: 2, height: 2, pixels: [255, 90, 255, 255]))
        #expect(grid.level(share: 0.1) == 20 && grid.level(share: 0.5) == 255)
    }
}
