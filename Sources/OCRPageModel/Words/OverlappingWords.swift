/// Two words read over each other: one word of the page read twice, on two lines that
/// Tesseract's layout analysis made overlap, or by two readings that each kept their own.
///
/// Plain `tesseract` reads the dev half's `medicine` table's head "Category" as "Categor" on one
/// line and "gory" on another over it; at 150 dpi the readings combined after it keep
/// "Hydrochlorid" beside "Hydrochloride" and a cell's "Xylocaine" twice. Word for word
/// the page then has two words where it prints one, and the one a reader meets first is wrong.
/// Where two words overlap each other over half the narrower one's width and half the lower
/// one's height, and their texts say they are one word read twice, one word is kept:
/// - the same text twice: the surer reading;
/// - one text inside the other, most of it ("Hydrochlorid", "Hydrochloride"): the longer;
/// - the left one's end is the right one's start ("Categor", "gory"): the two joined ("Category").
/// Other overlapping words (a table's rule read as a letter over a word, turned text) are left
/// as they are.
package enum OverlappingWords {
    /// Two words overlap across at least this share of the narrower one's width...
    static let across = 0.5
    /// ...and down at least this share of the lower one's height.
    static let down = 0.5
    /// A text that is part of the other, or the part two texts share at their ends, is at least
    /// this many characters (a single letter is as often a speck).
    static let minimumShared = 2

    /// `blocks` with each pair of words read over each other made one (see above), and how many were.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        func word(_ path: WordCombination.WordPath) -> RawWord { blocks[word: path] }
        let paths = blocks.wordPaths.filter { word($0).text.count >= minimumShared }.sorted { word($0).rect.top < word($1).rect.top }
        var replaced: [Int: RawWord] = [:], removed = Set<Int>()
        for i in paths.indices where !removed.contains(i) && replaced[i] == nil {
            let a = word(paths[i])
            for j in (i + 1)..<paths.count where !removed.contains(j) && replaced[j] == nil {
                let b = word(paths[j])
                guard b.rect.top < a.rect.bottom else { break }
                guard overlap(a.rect, b.rect), let (kept, one) = joined(a, b) else { continue }
                replaced[kept == 0 ? i : j] = one
                removed.insert(kept == 0 ? j : i)
                break
            }
        }
        guard !removed.isEmpty else { return (blocks, 0) }
        var out = blocks
        for (index, word) in replaced { out[word: paths[index]] = word }
        // Removed from the end of each line first, so the other paths stay valid.
        for path in removed.map({ paths[$0] }).sorted(by: >) {
            out[path.block].paragraphs[path.paragraph].lines[path.line].words.remove(at: path.word)
        }
        // A line left without words goes, and a paragraph left without lines.
        for b in out.indices {
            for p in out[b].paragraphs.indices { out[b].paragraphs[p].lines.removeAll { $0.words.isEmpty } }
            out[b].paragraphs.removeAll { $0.lines.isEmpty }
        }
        return (out, removed.count)
    }

    /// Whether two boxes overlap as one word read twice does.
    static func overlap(_ a: RawRect, _ b: RawRect) -> Bool {
        let width = min(a.right, b.right) - max(a.left, b.left), height = min(a.bottom, b.bottom) - max(a.top, b.top)
        return Double(width) >= across * Double(min(a.width, b.width)) && Double(height) >= down * Double(min(a.height, b.height))
    }

    /// The one word `a` and `b` are, and which of the two (0: `a`, 1: `b`) it takes the place of;
    /// nil where their texts do not say they are one word read twice.
    static func joined(_ a: RawWord, _ b: RawWord) -> (kept: Int, word: RawWord)? {
        if a.text == b.text { return b.confidence > a.confidence ? (1, b) : (0, a) }
        // One inside the other, most of it: a short word inside a long one's box ("at" in
        // "maltreater", another line's word over it) is a word of its own.
        if a.text.contains(b.text), 2 * b.text.count >= a.text.count { return (0, a) }
        if b.text.contains(a.text), 2 * a.text.count >= b.text.count { return (1, b) }
        // The left one's end read again as the right one's start.
        let (left, right, leftIndex) = a.rect.left <= b.rect.left ? (a, b, 0) : (b, a, 1)
        guard right.rect.right > left.rect.right else { return nil }
        let leftText = Array(left.text), rightText = Array(right.text)
        for shared in stride(from: min(leftText.count, rightText.count) - 1, through: minimumShared, by: -1)
        where leftText.suffix(shared) == rightText.prefix(shared) {
            var one = left
            one.text = left.text + String(rightText.dropFirst(shared))
            one.rect = WordCombination.bounds([left.rect, right.rect])!
            one.confidence = min(left.confidence, right.confidence)
            one.fromDictionary = false
            // Symbols that spell each word spell the two joined.
            if left.symbols.count == leftText.count, right.symbols.count == rightText.count {
                one.symbols = left.symbols + right.symbols.dropFirst(shared)
            } else {
                one.symbols = []
            }
            return (leftIndex, one)
        }
        return nil
    }
}
