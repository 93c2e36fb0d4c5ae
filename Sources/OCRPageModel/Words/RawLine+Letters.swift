/// A line's letters as the checks that read its ink measure them (``DotLeaders``, ``Superscripts``).
extension RawLine {
    /// The line's letter height: the median of its words' (a table's line may hold a word
    /// several rows tall), slivers left out: words less tall than a third of their mean
    /// character width, a leader or a run of spaced dashes read as letters ("ee" "ee" "eee",
    /// most of the words of a transcript's line of dashes). Nil without a word of letters or digits.
    var letterHeight: Double? {
        let heights = words.filter { word in
            word.text.contains { $0.isLetter || $0.isNumber } && 3 * word.rect.height * word.text.count >= word.rect.width
        }.map(\.rect.height).sorted()
        return heights.isEmpty ? nil : Double(heights[heights.count / 2])
    }

    /// Where the line's baseline is at `x` (its two points extended); needs ``baseline``'s four values.
    func baselineY(at x: Int) -> Double {
        let (x1, y1, x2, y2) = (Double(baseline[0]), Double(baseline[1]), Double(baseline[2]), Double(baseline[3]))
        return x2 == x1 ? y1 : y1 + (y2 - y1) * (Double(x) - x1) / (x2 - x1)
    }
}
