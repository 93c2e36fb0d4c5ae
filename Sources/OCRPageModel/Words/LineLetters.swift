extension RawLine {
    /// The median height and bottom (the baseline) of the line's one-character letter and digit
    /// symbols; nil with fewer than two.
    package var letters: (height: Int, baseline: Int)? {
        let letters = words.flatMap(\.symbols).filter { $0.text.count == 1 && $0.text.allSatisfy { $0.isLetter || $0.isNumber } }
        guard letters.count >= 2 else { return nil }
        let heights = letters.map(\.rect.height).sorted(), bottoms = letters.map(\.rect.bottom).sorted()
        return (heights[heights.count / 2], bottoms[bottoms.count / 2])
    }
}
