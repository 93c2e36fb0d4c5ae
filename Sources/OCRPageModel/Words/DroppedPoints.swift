import OCRBasics
import OCRWire

/// An amount's point the reading dropped, put back where the digits leave room for it.
///
/// On a thermal receipt scanned at 200 dpi an amount's point is a few pixels a little darker
/// than the paper, and Tesseract (plain `tesseract` too) reads "7.95" as "795", or as "7 95"
/// where it took the point's room for a space. The digits still show where the point was: they
/// are tabular (each as wide as the next), so the distance from one digit's centre to the next's
/// is the same along a number, and a point between two of them adds its own width. So where a
/// number of digits has, before its last two, a step ``room`` times its other steps, or where two
/// numbers of one line, the second of two digits, stand closer than a digit's height, the point
/// is put back: "7.95", "7.50".
///
/// Only a page that prints its amounts with points is read so: at least ``pointedAmounts`` of
/// its words were read as amounts with a point and two decimals (a table of whole numbers whose
/// tiny digits' boxes are uneven, "124" in a 150-dpi statistical table, keeps its numbers).
///
/// What could be something else stays as read. The gap's upper part must hold no mark (a hyphen,
/// a colon, a stroke of a digit: a point sits on the baseline); a number with a leading zero
/// ("0164 27", an identifier), one of more than ``mostDigits`` digits (a bar code, a card), or
/// one followed by a longer number ("1800 88 1231") is no amount; symbol boxes that overlap or a
/// digit much wider than the others (Tesseract's boxes of a misread) tell nothing.
package enum DroppedPoints {
    /// A step between digits this many times their other steps holds a point.
    package static let room = 1.3
    /// The page's words read as amounts with a point and two decimals needed before a dropped
    /// point is put back.
    package static let pointedAmounts = 2
    /// Numbers of more digits (bar codes, account numbers) are not amounts.
    package static let mostDigits = 6
    /// The gap's part above this many digit heights over the baseline must be clear.
    static let clearAbove = 0.45
    /// The share of the gap's width left out on either side of that part (the next digit's
    /// stroke, which Tesseract's boxes cut short, reaches in).
    static let clearMargin = 0.2
    /// A pixel darker than the paper by this share of the paper-to-ink contrast is a mark.
    static let markContrast = 0.35
    /// Words with less contrast than this (gray levels) are not judged.
    static let leastContrast = 40

    /// A place where a point may have been dropped.
    package struct Place: Equatable {
        /// The word, as indices into the blocks.
        package var block: Int, paragraph: Int, line: Int, word: Int
        /// The word is the amount's whole part, and the next word of its line its two decimals.
        package var joinsNext: Bool
        /// Where in the word the point goes (the number of characters before it).
        package var offset: Int
        /// The part of the gap that must hold no mark.
        package var clear: RawRect
        /// The words the gap lies between, where the paper's and the ink's levels are measured.
        package var words: RawRect
        /// The point's own box: the gap's columns, on the baseline.
        package var point: RawRect
    }

    /// The places in `blocks` where the digits leave room for a dropped point, in order (none
    /// on a page with fewer than ``pointedAmounts`` amounts read with their points).
    package static func places(in blocks: [RawBlock]) -> [Place] {
        guard RawBlock.allWords(blocks).count(where: { DecimalCommas.hasDecimals($0.text, after: ".") }) >= pointedAmounts else { return [] }
        var places: [Place] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.lines.enumerated() {
                    var w = 0
                    while w < line.words.count {
                        let next = w + 1 < line.words.count ? line.words[w + 1] : nil
                        let after = w + 2 < line.words.count ? line.words[w + 2] : nil
                        let previous = w > 0 ? line.words[w - 1] : nil
                        if let next, let place = split(line.words[w], next, after: previous, followedBy: after) {
                            places.append(Place(block: b, paragraph: p, line: l, word: w, joinsNext: true, offset: place.offset,
                                                clear: place.clear, words: place.words, point: place.point))
                            w += 2
                            continue
                        }
                        if let place = squeezed(line.words[w]) {
                            places.append(Place(block: b, paragraph: p, line: l, word: w, joinsNext: false, offset: place.offset,
                                                clear: place.clear, words: place.words, point: place.point))
                        }
                        w += 1
                    }
                }
            }
        }
        return places
    }

    typealias Found = (offset: Int, clear: RawRect, words: RawRect, point: RawRect)

    /// A number of digits whose step before its last two holds a point's room ("795").
    static func squeezed(_ word: RawWord) -> Found? {
        let digits = Array(word.text)
        guard (3...mostDigits).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
              digits[0] != "0" || digits.count == 3, let metrics = Metrics(word.symbols, text: word.text) else { return nil }
        let centres = word.symbols.map { Double($0.rect.left + $0.rect.right) / 2 }
        let steps = zip(centres.dropFirst(), centres).map { $0 - $1 }
        let at = digits.count - 2
        var others = steps
        others.remove(at: at - 1)
        guard steps[at - 1] >= room * others.sorted()[others.count / 2] else { return nil }
        return metrics.found(offset: at, between: word.symbols[at - 1].rect, and: word.symbols[at].rect, words: word.rect)
    }

    /// Two numbers of one line, the second of two digits, that the reading split at the point
    /// ("7 95"), and not followed by a longer number. Nor one of a chain of groups of digits, each
    /// closer to the next than a digit's height: a phone number's "01 71 17 61", a company
    /// number's "3 441 812 388 61" (a French invoice read "71.17" and "388.61", the dev invoices,
    /// BENCHMARKS.md "A wider corpus").
    static func split(_ whole: RawWord, _ decimals: RawWord, after previous: RawWord?, followedBy after: RawWord?) -> Found? {
        guard !whole.text.isEmpty, whole.text.count <= mostDigits - 2, whole.text.allSatisfy(\.isASCIIDigit),
              whole.text.first != "0" || whole.text == "0",
              decimals.text.count == 2, decimals.text.allSatisfy(\.isASCIIDigit),
              !(after.map { $0.text.count >= 3 && $0.text.allSatisfy(\.isASCIIDigit) } ?? false),
              let metrics = Metrics(whole.symbols + decimals.symbols, text: whole.text + decimals.text,
                                    heightsOf: whole.symbols.count) else { return nil }
        let gap = decimals.rect.left - whole.rect.right
        guard gap > 0, gap < metrics.height else { return nil }
        if let previous, previous.text.last?.isASCIIDigit == true, whole.rect.left - previous.rect.right < metrics.height { return nil }
        if let after, after.text.first?.isASCIIDigit == true, after.rect.left - decimals.rect.right < metrics.height { return nil }
        return metrics.found(offset: whole.text.count, between: whole.rect, and: decimals.rect,
                             words: WordCombination.bounds([whole.rect, decimals.rect])!)
    }

    /// The digits' height, top and baseline, from symbol boxes that can be trusted: one per
    /// digit, in order without overlapping, none much wider than the others.
    struct Metrics {
        var height: Int, top: Int, baseline: Int

        /// From `symbols`, the characters of `text`; height, top and baseline from the first
        /// `heightsOf` of them (all by default).
        init?(_ symbols: [RawSymbol], text: String, heightsOf count: Int? = nil) {
            guard symbols.count == text.count, symbols.allSatisfy({ $0.rect.width > 0 && $0.rect.height > 0 }) else { return nil }
            let measured = symbols.prefix(count ?? symbols.count)
            let heights = measured.map(\.rect.height).sorted(), bottoms = measured.map(\.rect.bottom).sorted()
            let widths = symbols.map(\.rect.width).sorted()
            (height, baseline) = (heights[heights.count / 2], bottoms[bottoms.count / 2])
            top = measured.map(\.rect.top).min()!
            let width = widths[widths.count / 2]
            guard symbols.allSatisfy({ Double($0.rect.width) <= 0.9 * Double(height) && Double($0.rect.width) <= 1.6 * Double(width) }),
                  zip(symbols, symbols.dropFirst()).allSatisfy({ $1.rect.left >= $0.rect.right - 1 }) else { return nil }
        }

        /// The place of a point between `left` and `right` (boxes of digits or words).
        func found(offset: Int, between left: RawRect, and right: RawRect, words: RawRect) -> Found? {
            let (start, end) = (left.right, right.left)
            guard end - start >= 2 else { return nil }
            let margin = Int(clearMargin * Double(end - start))
            let clear = RawRect(left: start + margin, top: top, right: end - margin,
                                bottom: baseline - Int((clearAbove * Double(height)).rounded()))
            guard clear.width > 0, clear.height > 0 else { return nil }
            let dot = max(1, height / 8)
            return (offset, clear, words, RawRect(left: start + margin, top: baseline - dot, right: end - margin, bottom: baseline))
        }
    }

    /// Whether `gap`, the image of a place's ``Place/clear`` part, holds no mark, the paper's
    /// and the ink's levels taken from `words`, the image of the words around it (false where
    /// the words show too little contrast to judge).
    package static func isClear(_ gap: GrayGrid, words: GrayGrid) -> Bool {
        gap.holdsMark(against: words, share: markContrast, leastContrast: leastContrast) == false
    }

    /// `blocks` with a point put back at each of `places` (from ``places(in:)``), and how many
    /// words changed.
    package static func putBack(_ places: [Place], in blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks
        // From the last place of each line back, so that joining words keeps the earlier indices.
        for place in places.sorted(by: { ($0.block, $0.paragraph, $0.line, $0.word) > ($1.block, $1.paragraph, $1.line, $1.word) }) {
            var words = blocks[place.block].paragraphs[place.paragraph].lines[place.line].words
            var word = words[place.word]
            let point = RawSymbol(text: ".", confidence: word.confidence, rect: place.point)
            if place.joinsNext {
                let decimals = words.remove(at: place.word + 1)
                word.symbols += [point] + decimals.symbols
                word.text += "." + decimals.text
                word.confidence = min(word.confidence, decimals.confidence)
                word.rect = WordCombination.bounds([word.rect, decimals.rect])!
                word.fromDictionary = false
            } else {
                word = pointed(word, at: place.offset, box: place.point)
            }
            words[place.word] = word
            blocks[place.block].paragraphs[place.paragraph].lines[place.line].words = words
        }
        return (blocks, places.count)
    }

    /// `word` with a point after its first `offset` characters, boxed by `box` (page pixels),
    /// its symbols too where they spell it (``PointsInDigits`` puts points in so as well).
    package static func pointed(_ word: RawWord, at offset: Int, box: RawRect) -> RawWord {
        var word = word
        if word.symbols.count == word.text.count {
            word.symbols.insert(RawSymbol(text: ".", confidence: word.confidence, rect: box), at: offset)
        }
        word.text = String(word.text.prefix(offset)) + "." + String(word.text.dropFirst(offset))
        word.fromDictionary = false
        return word
    }

    /// `blocks` with each dropped point put back where the digits leave room for it and the
    /// image, through `image` (the page's pixels inside a rectangle, as gray), shows no other
    /// mark there; and how many words changed.
    package static func read(_ blocks: [RawBlock], image: (RawRect) throws(OCRError) -> GrayGrid) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        var kept: [Place] = []
        for place in places(in: blocks) where isClear(try image(place.clear), words: try image(place.words)) {
            kept.append(place)
        }
        return kept.isEmpty ? (blocks, 0) : putBack(kept, in: blocks)
    }
}

