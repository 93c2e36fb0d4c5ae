/// A word's first or last letters that Tesseract left out of it: "assigned" read "gned" on a
/// dev scan, its "assi" standing beside the word in no word's box; a chapter's first line
/// "WELL," read "ELL,", its larger first letter left out (OCRmyPDF's `c03-29.pdf`).
///
/// Plain `tesseract` reads the same. The letters are in the thresholded page, outside every
/// word (``LostText``'s lost letters), on the word's line, no further from it than the gap
/// between two of its letters and nearer it than any other word. The word and those letters are read again alone
/// as one line, and the reading is kept only where it spells the word as read with letters or
/// digits added at its ends (``keeps(_:over:edge:)``): a reading that changes a letter already
/// read is not trusted over the first.
package enum EdgeLetters {
    /// A lost letter is at most this share of the line's letter height beyond the word's edge
    /// (a gap between letters; a space between words is about a quarter of it)...
    static let reach = 0.12
    /// ...and stands on the line: its bottom no higher than this share of the letter height
    /// above the baseline (a quote, an apostrophe or a footnote's raised mark is higher).
    static let onBaseline = 0.25

    /// A word to read again with the lost letters at its edges.
    package struct Edge: Equatable {
        /// Where the word is in the blocks.
        package var place: WordCombination.WordPath
        /// The word and its lost letters.
        package var region: RawRect
        /// How many letters were lost before it and after it.
        package var before, after: Int
        package init(place: WordCombination.WordPath, region: RawRect, before: Int, after: Int) {
            self.place = place; self.region = region; self.before = before; self.after = after
        }
    }

    /// The words of `blocks` with letters of `lost` (the thresholded page's letters in no word)
    /// at their start or end, each with the part of the page to read again.
    package static func edges(in blocks: [RawBlock], lost: [RawRect]) -> [Edge] {
        guard !lost.isEmpty else { return [] }
        var edges: [Edge] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.lines.enumerated() {
                    guard let letterHeight = line.letterHeight, line.baseline.count == 4 else { continue }
                    let maximumGap = Int((reach * letterHeight).rounded(.up))
                    // Letters standing on this line (in no word: their centres are in none).
                    let onLine = lost.filter { letter in
                        let baseline = line.baselineY(at: (letter.left + letter.right) / 2)
                        return Double(letter.bottom) >= baseline - onBaseline * letterHeight
                            && Double(letter.bottom) <= baseline + letterHeight / 2
                            && Double(letter.top) >= Double(line.rect.top) - letterHeight / 2
                    }
                    guard !onLine.isEmpty else { continue }
                    // A letter nearer another word of the line than to the word and its letters so
                    // far (`region`) is that word's, if anyone's.
                    func distance(_ letter: RawRect, _ box: RawRect) -> Int { max(letter.left - box.right, box.left - letter.right, 0) }
                    func isNearest(_ letter: RawRect, to w: Int, _ region: RawRect) -> Bool {
                        let own = distance(letter, region)
                        return line.words.indices.allSatisfy { $0 == w || distance(letter, line.words[$0].rect) > own }
                    }
                    // Words of two characters or more: a lone letter is as often a speck read as one.
                    for (w, word) in line.words.enumerated() where word.text.count >= 2 && word.text.contains(where: { $0.isLetter || $0.isNumber }) {
                        var region = word.rect, before = 0, after = 0
                        // Letters in a row from the word's end, then from its start, each taking
                        // the region further (a sliver inside its edge is no next letter).
                        while let next = onLine.first(where: { $0.right > region.right && $0.left >= region.right - 2
                                                                && $0.left - region.right <= maximumGap && overlapsRows($0, region) && isNearest($0, to: w, region) }) {
                            region = WordCombination.bounds([region, next])!
                            after += 1
                        }
                        while let next = onLine.first(where: { $0.left < region.left && $0.right <= region.left + 2
                                                                && region.left - $0.right <= maximumGap && overlapsRows($0, region) && isNearest($0, to: w, region) }) {
                            region = WordCombination.bounds([region, next])!
                            before += 1
                        }
                        if before + after > 0 {
                            edges.append(Edge(place: WordCombination.WordPath(block: b, paragraph: p, line: l, word: w), region: region,
                                              before: before, after: after))
                        }
                    }
                }
            }
        }
        return edges
    }

    /// Whether `reading`, the word and its lost letters (`edge`) read again alone, is kept over
    /// `text`, the word as first read: one word that spells it with letters or digits added on
    /// the sides where letters were lost, at most one more than were lost there, and nothing else.
    package static func keeps(_ reading: String, over text: String, edge: Edge) -> Bool {
        guard reading.count > text.count, !reading.contains(" "), let found = reading.range(of: text) else { return false }
        let prefix = reading[reading.startIndex..<found.lowerBound], suffix = reading[found.upperBound...]
        func fits(_ added: Substring, lost: Int) -> Bool {
            added.isEmpty || lost > 0 && added.count <= lost + 1 && added.allSatisfy { $0.isLetter || $0.isNumber }
        }
        return fits(prefix, lost: edge.before) && fits(suffix, lost: edge.after)
    }

    private static func overlapsRows(_ a: RawRect, _ b: RawRect) -> Bool {
        min(a.bottom, b.bottom) > max(a.top, b.top)
    }
}
