/// Decimal points read as commas, told apart by where the mark sits.
///
/// On a scanned receipt Tesseract reads many an amount's point as a comma ("9,00", "RM 33,92"),
/// and plain `tesseract` does the same: at a receipt's resolution a point and a comma are a few
/// pixels either way, and its language model does not prefer one. The image tells them apart: a
/// comma's tail reaches below the digits' baseline, a point sits on it. So where an amount (digits,
/// a comma, two digits) has its comma's box ending no lower than the digits' bottom, give or take
/// ``tail`` of their height, the comma is read as a point. A comma that reaches below the digits,
/// and every comma that is not an amount's (thousands, "1,234"; words), stays.
package enum DecimalPoints {
    /// The share of the digits' height by which a mark's box may end below their bottom and
    /// still be a point (a pixel at least: a point's box ends within one of the digits' on the
    /// dev receipts, a comma's three or more below).
    package static let tail = 0.1

    /// `blocks` with each amount's comma that sits on the digits' baseline read as a point, and
    /// how many words changed.
    package static func read(_ blocks: [RawBlock]) -> (blocks: [RawBlock], changed: Int) {
        RawBlock.replacingWords(in: blocks, pointed)
    }

    /// `word` with its comma read as a point, when it is an amount whose comma sits on the
    /// digits' baseline; nil otherwise.
    package static func pointed(_ word: RawWord) -> RawWord? {
        let characters = Array(word.text)
        guard characters.count == word.symbols.count, characters.filter({ $0 == "," }).count == 1,
              let comma = characters.firstIndex(of: ","), comma > 0, characters[comma - 1].isNumber,
              comma + 2 < characters.count, characters[comma + 1].isNumber, characters[comma + 2].isNumber,
              comma + 3 == characters.count || !characters[comma + 3].isNumber else { return nil }
        let digits = word.symbols.filter { $0.text.allSatisfy(\.isNumber) && !$0.text.isEmpty }
        guard digits.count >= 3 else { return nil }
        let bottoms = digits.map(\.rect.bottom).sorted(), heights = digits.map(\.rect.height).sorted()
        let (bottom, height) = (bottoms[bottoms.count / 2], heights[heights.count / 2])
        guard word.symbols[comma].rect.bottom - bottom <= max(1, Int((tail * Double(height)).rounded())) else { return nil }
        var point = word
        point.symbols[comma].text = "."
        point.text = String(characters[..<comma]) + "." + String(characters[(comma + 1)...])
        return point
    }
}
