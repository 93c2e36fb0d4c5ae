/// Blank columns between ink on a text line of Tesseract's thresholded image: where the page
/// itself shows a space.
package struct BlankRun: Equatable {
    /// The first blank column and the column after the last, in page pixels.
    package var left: Int, right: Int
    package var width: Int { right - left }
}

package enum WordGaps {
    /// The runs of blank columns in `inked` (column `x0 + i` is `inked[i]`) that have ink on
    /// both sides: the margins before the first and after the last inked column are no gaps.
    package static func blankRuns(_ inked: [Bool], from x0: Int) -> [BlankRun] {
        var runs: [BlankRun] = []
        var start: Int?
        var seenInk = false
        for (i, ink) in inked.enumerated() {
            if ink {
                if let s = start, seenInk { runs.append(BlankRun(left: x0 + s, right: x0 + i)) }
                start = nil
                seenInk = true
            } else if start == nil {
                start = i
            }
        }
        return runs
    }

    /// How wide a blank run of the line of `words` (one line's blank runs, ``blankRuns(_:from:)``)
    /// must be to be a space, nil for a line without words. The line's own spaces set the
    /// width: where the recogniser separated at least two pairs of words, a space is at least
    /// ``spaceShare`` of the median of the widest run between each pair (and at least
    /// ``minimumShare`` of the line's height, the median height of its words); else at least
    /// ``defaultShare`` of that height, and ``spaceShare`` of the one space between its two
    /// words where it has two.
    package static func spaceWidth(in words: [RawWord], runs: [BlankRun]) -> Double? {
        guard !words.isEmpty else { return nil }
        let heights = words.map(\.rect.height).sorted()
        let height = Double(heights[heights.count / 2])
        var between: [Int] = []
        for (a, b) in zip(words, words.dropFirst()) {
            let widest = runs.filter { $0.left >= a.rect.right - 1 && $0.right <= b.rect.left + 1 }.map(\.width).max()
            if let widest { between.append(widest) }
        }
        between.sort()
        // One space of its own still bounds a line's space from below: a line of two words set
        // in a spaced face ("El Duraznillo") has letter gaps over a fifth of its height.
        return between.count >= 2
            ? max(minimumShare * height, spaceShare * Double(between[between.count / 2]))
            : max(defaultShare * height, spaceShare * Double(between.first ?? 0))
    }

    /// A space inside a word is at least this share of the line's median space. Chosen on the
    /// real-layout corpus's development half and the rendered tight-words page: 0.7 read 86.4%
    /// of that page, 0.85 and 1.0 74.2% (its spaces are 4-6 px, its letter gaps 1-4).
    package static let spaceShare = 0.7
    /// ...and at least this share of the line's height (specks and hairline gaps are no space).
    package static let minimumShare = 0.1
    /// Without two spaces of its own to measure, a line's space is this share of its height
    /// (word gaps on the corpus: a quarter of the height and more, letter gaps under a fifth).
    package static let defaultShare = 0.2
}
