/// Text lines that took in two rows of the page, and the parts of the page to read again as one
/// text block.
///
/// Tesseract's line finder follows a text line's baseline across the page; where the rows of a
/// column sit lower than their labels' (a receipt bent as it was scanned, its prices a few pixels
/// down from one row to the next), it builds one line out of a label and parts of two rows of
/// prices. The recogniser scales that line to its fixed height as a whole, so the prices come out
/// half as tall as they are, read as "ee" or "ae" at low confidence: a receipt's "RM 15.00" and
/// "RM 0.00" stacked inside one word box twice a letter's height. Read on its own as one block,
/// the same part of the page gives "RM 15.00" and "RM 0.00". Such a word is what this finds: a
/// word much taller than the page's letters and read without confidence. The readings are then
/// combined word by word (``WordCombination``): a new reading replaces the first only where it
/// scores higher.
package enum MergedRows {
    /// A word read with less confidence than this may be a merged line's.
    package static let doubtful: Float = 0.8
    /// ...when it is at least this many times as tall as the page's letters.
    package static let tallness = 1.6
    /// The page's letter height: the median height of words of two or more characters read with
    /// at least this confidence, when there are at least `measuredWords` of them.
    static let sure: Float = 0.8
    static let measuredWords = 5
    /// Margin around each word read again, in letter heights (the recogniser needs paper
    /// around the ink).
    static let margin = 0.5
    /// A region's new reading is kept only when its words are this much more confident, on
    /// average, than the tall words were: a heading in large type is tall too, and read again
    /// it comes back as tall letters and specks no surer than before.
    package static let gain: Float = 0.2

    /// A part of the page to read again: the tall doubtful words as first read, and the
    /// rectangle read (their boxes with their margins, merged where they overlap).
    package struct Region {
        package var rect: RawRect
        package var tallWords: [RawWord]
        /// Sure words of the first reading within `rect` (beside the tall words): no new word
        /// may take their place.
        package var sureWords: [RawRect] = []
    }

    /// The parts of a `width` x `height` page to read again, top to bottom: each tall doubtful
    /// word of two or more letters or digits with a margin, those that overlap merged. Empty
    /// when there are none or the page has too few sure words to tell a letter's height.
    package static func regions(in blocks: [RawBlock], width: Int, height: Int) -> [Region] {
        let words = blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).filter { !$0.text.allSatisfy(\.isWhitespace) }
        let heights = words.filter { $0.confidence >= sure && $0.text.count >= 2 }.map(\.rect.height).sorted()
        guard heights.count >= measuredWords else { return [] }
        let letter = Double(heights[heights.count / 2])
        let pad = Int((margin * letter).rounded(.up))
        let page = RawRect(left: 0, top: 0, right: width, bottom: height)
        // Two letters or digits at least: a drop cap read with a speck ("S*") is tall too.
        var regions = words.filter { $0.confidence < doubtful && $0.text.filter { $0.isLetter || $0.isNumber }.count >= 2
                                     && Double($0.rect.height) >= tallness * letter }
            .map { Region(rect: $0.rect.padded(pad, within: page), tallWords: [$0]) }
        // Regions that overlap are read as one.
        var merged = true
        while merged {
            merged = false
            outer: for i in regions.indices {
                for j in regions.indices where j > i && regions[i].rect.overlaps(regions[j].rect) {
                    regions[i] = Region(rect: WordCombination.bounds([regions[i].rect, regions[j].rect])!,
                                        tallWords: regions[i].tallWords + regions[j].tallWords)
                    regions.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        let sureRects = words.filter { $0.confidence >= Self.sure }.map(\.rect)
        for i in regions.indices { regions[i].sureWords = sureRects.filter { regions[i].rect.overlaps($0) } }
        return regions.filter { $0.rect.width > 0 && $0.rect.height > 0 }.sorted { ($0.rect.top, $0.rect.left) < ($1.rect.top, $1.rect.left) }
    }

    /// The words of `reading` (the part of the page at `rect` read again, in the page's pixels)
    /// centred in one of the tall words of the region of `regions` read there and clear of the
    /// sure words around them: what the margin took in of its neighbours (half a word, cut) is
    /// left out, since it would replace the first reading's whole words. Nothing when those
    /// words are not ``gain`` more confident on average than the tall words were.
    package static func words(of reading: [RawBlock], in rect: RawRect, of regions: [Region]) -> [RawBlock] {
        guard let region = regions.first(where: { $0.rect == rect }) else { return [] }
        func centred(_ word: RawWord) -> Bool {
            region.tallWords.contains { $0.rect.contains(centreOf: word.rect) } && !region.sureWords.contains { word.rect.overlaps($0) }
        }
        let blocks = RawBlock.keepingWords(of: reading, where: centred)
        let read = RawBlock.wordsWithText(blocks)
        guard !read.isEmpty, RawWord.meanConfidence(read) >= RawWord.meanConfidence(region.tallWords) + gain else { return [] }
        return blocks
    }
}
