import OCRWire

/// A horizontal rule's end read as a mark at a word's start or end.
///
/// A receipt's headings sit under and over dashed rules, and the line Tesseract reads takes in
/// the rule's end: "CASH" comes out "‘CASH", "Tax" "Tax_" (plain `tesseract` alike), the mark's
/// box a sliver a few pixels tall at the top or bottom of the word's box, which took in the rule.
/// A quote of the word's own is taller than it is wide, a dash or hyphen of its own ("-5.00",
/// "inter-") lies between the word's top and bottom; a rule's end is flat, on the box's edge, and
/// the rule runs on beside it. So a flat mark at a word's end, on the top or bottom edge of its
/// box, is dropped where on one side of it a row of the page at its height stays dark for a
/// letter height.
package enum RuleMarks {
    /// Marks a rule's end is read as.
    static let marks: Set<Character> = ["‘", "’", "“", "”", "'", "\"", "`", "~", "—", "–", "-", "=", "_", "^", "«", "»", "°"]
    /// A mark at most this share of the letters' height tall (and no taller than wide) is flat...
    static let flatness = 0.2
    /// ...and a rule runs on this many letter heights to one side of it...
    static let run = 1.0
    /// ...a row of it this share dark (a dashed rule's gaps are the rest).
    static let darkShare = 0.6
    /// A pixel darker than the paper by this share of the word's paper-to-ink contrast is dark.
    static let darkStep = 0.3

    /// Whether `grid` (the page beside a mark, over its rows and a pixel more each way; at least
    /// `leastWidth` wide, where the page's edge cuts it) has a row at least ``darkShare`` darker
    /// than `level`.
    static func hasRule(_ grid: GrayGrid, darkerThan level: Int, leastWidth: Int) -> Bool {
        guard grid.width > 0, grid.width >= leastWidth else { return false }
        return (0..<grid.height).contains { y in
            let dark = (0..<grid.width).count { Int(grid[$0, y]) < level }
            return Double(dark) >= darkShare * Double(grid.width)
        }
    }

    /// `blocks` with each word's leading and trailing marks that are a rule's end dropped, judged
    /// on `image` (the page's pixels inside a rectangle, clipped to the page, as gray); and how
    /// many words changed.
    package static func read(_ blocks: [RawBlock], image: (RawRect) throws(OCRError) -> GrayGrid) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        try RawBlock.replacingWords(in: blocks) { word throws(OCRError) in try dropping(from: word, image: image) }
    }

    /// `word` without the marks at its ends that are a rule's, or nil when it has none.
    static func dropping(from word: RawWord, image: (RawRect) throws(OCRError) -> GrayGrid) throws(OCRError) -> RawWord? {
        guard word.symbols.count >= 2, word.symbols.map(\.text).joined() == word.text,
              let first = word.text.first, let last = word.text.last, marks.contains(first) || marks.contains(last) else { return nil }
        let letters = word.symbols.filter { $0.text.contains(where: { $0.isLetter || $0.isNumber }) }
        guard letters.count >= 2 else { return nil }
        let h = letters.map(\.rect.height).sorted()[letters.count / 2]
        let page = try image(word.rect)
        let paper = page.level(share: 0.9), ink = page.level(share: 0.03)
        let level = paper - Int(darkStep * Double(paper - ink))
        func isRulesEnd(_ symbol: RawSymbol) throws(OCRError) -> Bool {
            let r = symbol.rect
            guard symbol.text.count == 1, let c = symbol.text.first, marks.contains(c),
                  Double(r.height) <= flatness * Double(h), r.width >= r.height,
                  r.top <= word.rect.top + 1 || r.bottom >= word.rect.bottom - 1 else { return false }
            let reach = Int(run * Double(h))
            let left = RawRect(left: r.left - reach, top: r.top - 1, right: r.left, bottom: r.bottom + 1)
            let right = RawRect(left: r.right, top: r.top - 1, right: r.right + reach, bottom: r.bottom + 1)
            if hasRule(try image(left), darkerThan: level, leastWidth: reach / 2) { return true }
            return hasRule(try image(right), darkerThan: level, leastWidth: reach / 2)
        }
        var symbols = word.symbols
        while symbols.count > letters.count, try isRulesEnd(symbols[0]) { symbols.removeFirst() }
        while symbols.count > letters.count, try isRulesEnd(symbols[symbols.count - 1]) { symbols.removeLast() }
        guard symbols.count < word.symbols.count else { return nil }
        var out = word
        out.symbols = symbols
        out.text = symbols.map(\.text).joined()
        out.rect = WordCombination.bounds(symbols.map(\.rect))!
        out.fromDictionary = false
        return out
    }
}
