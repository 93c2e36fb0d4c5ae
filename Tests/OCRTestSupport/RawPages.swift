import OCRPageModel

/// Raw page hierarchies made by hand, for the pure tests of word combination and of the levels'
/// triggers: words on a line 30 px high, one block of one paragraph.
package enum RawPages {
    /// A word `text` at `left`, `top`, 20 px a character wide unless `width` says otherwise.
    package static func word(_ text: String, _ left: Int, _ top: Int = 100, width: Int? = nil, confidence: Float = 0.9,
                             dictionary: Bool = true) -> RawWord {
        let w = width ?? text.count * 20
        return RawWord(text: text, confidence: confidence, rect: RawRect(left: left, top: top, right: left + w, bottom: top + 30),
                       fromDictionary: dictionary)
    }

    /// One block of one paragraph, one line per array of words.
    package static func page(_ lines: [RawWord]...) -> [RawBlock] { page(lines: lines) }

    /// One block of one paragraph, one line per array of words.
    package static func page(lines: [[RawWord]]) -> [RawBlock] {
        let raw = lines.map { words in
            RawLine(confidence: 0.9, rect: WordCombination.bounds(words.map(\.rect))!, words: words)
        }
        let rect = WordCombination.bounds(raw.map(\.rect))!
        return [RawBlock(confidence: 0.9, rect: rect, type: .text, paragraphs: [RawParagraph(confidence: 0.9, rect: rect, lines: raw)])]
    }

    /// The words' texts, line by line.
    package static func texts(_ blocks: [RawBlock]) -> [[String]] {
        blocks.flatMap(\.paragraphs).flatMap(\.lines).map { $0.words.map(\.text) }
    }
}
