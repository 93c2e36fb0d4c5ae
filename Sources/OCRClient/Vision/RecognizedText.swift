import OCRWire

/// One reading of a text line: its string, a confidence, and boxes for any part of the string.
///
/// Vision: `VNRecognizedText` / `RecognizedText`.
public struct RecognizedText: Sendable, Hashable {
    /// The text. Vision: `string`.
    public let string: String
    /// 0...1. Vision: `confidence` (`VNConfidence`).
    public let confidence: Float

    /// Pieces of `string` with their pixel boxes: symbols or characters of words, and the
    /// spaces between words (the gap between the two words' boxes).
    let units: [TextUnit]
    package let imageWidth: Int
    package let imageHeight: Int

    /// The normalised box (bottom-left origin) of `range` of `string`: the union of the boxes of
    /// the symbols it touches (a word's characters share its box evenly when the engine sent no
    /// symbol boxes for that reading); spaces between words add the gap between them. Nil when
    /// the range is empty or not within `string`.
    ///
    /// Vision: `boundingBox(for:)` (which returns a `VNRectangleObservation`/`RectangleObservation`
    /// and throws where this returns nil).
    public func boundingBox(for range: Range<String.Index>) -> NormalizedRect? {
        guard !range.isEmpty, range.lowerBound >= string.startIndex, range.upperBound <= string.endIndex else {
            return nil
        }
        let lower = string.utf8.distance(from: string.startIndex, to: range.lowerBound)
        let upper = string.utf8.distance(from: string.startIndex, to: range.upperBound)
        let boxes = units.filter { $0.utf8.overlaps(lower..<upper) }.compactMap(\.box)
        guard !boxes.isEmpty else { return nil }
        return NormalizedRect(PixelBox.union(boxes), imageWidth: imageWidth, imageHeight: imageHeight)
    }
}

/// A piece of a candidate string (UTF-8 offsets) and the pixels it covers, if any.
struct TextUnit: Sendable, Hashable {
    var utf8: Range<Int>
    var box: PixelBox?
}

/// Builds the `n` best line readings from the words' candidates.
enum LineCandidates {
    /// One word's readings, best first: its `text` first, then its other candidates by confidence.
    static func readings(of word: Word) -> [(text: String, confidence: Float)] {
        var seen: Set<String> = [word.text]
        var rest: [(text: String, confidence: Float)] = []
        for candidate in word.candidates where !seen.contains(candidate.text) {
            seen.insert(candidate.text)
            rest.append((candidate.text, candidate.confidence))
        }
        // A stable sort: equal confidences keep the engine's order.
        let sorted = rest.enumerated().sorted { a, b in
            a.element.confidence != b.element.confidence ? a.element.confidence > b.element.confidence : a.offset < b.offset
        }.map(\.element)
        return [(word.text, word.confidence)] + sorted
    }

    /// The `count` best choices of one reading per word, by the sum of the chosen confidences,
    /// best first (the first is every word's best reading).
    static func bestChoices(_ readings: [[(text: String, confidence: Float)]], count: Int) -> [[Int]] {
        guard count > 0 else { return [] }
        func score(_ choice: [Int]) -> Double {
            zip(readings, choice).reduce(0) { $0 + Double($1.0[$1.1].confidence) }
        }
        var frontier: [(choice: [Int], score: Double)] = []
        let first = [Int](repeating: 0, count: readings.count)
        frontier.append((first, score(first)))
        var seen: Set<[Int]> = [first]
        var result: [[Int]] = []
        while result.count < count, !frontier.isEmpty {
            // Highest score first; ties go to the choice found first (fewer changes).
            let best = frontier.indices.max { frontier[$0].score < frontier[$1].score || (frontier[$0].score == frontier[$1].score && $0 > $1) }!
            let (choice, _) = frontier.remove(at: best)
            result.append(choice)
            for j in choice.indices where choice[j] + 1 < readings[j].count {
                var next = choice
                next[j] += 1
                if seen.insert(next).inserted { frontier.append((next, score(next))) }
            }
        }
        return result
    }

    /// The reading made of `choice` (a reading index per word) of `words`.
    static func text(words: [Word], readings: [[(text: String, confidence: Float)]], choice: [Int],
                     confidence: Float, imageWidth: Int, imageHeight: Int) -> RecognizedText {
        var string = ""
        var units: [TextUnit] = []
        var offset = 0
        for (i, word) in words.enumerated() {
            let wordBox = word.pixelBox
            if i > 0 {
                let previous = words[i - 1].pixelBox
                let gap: PixelBox? = wordBox.left > previous.right
                    ? PixelBox(left: previous.right, top: min(previous.top, wordBox.top),
                               right: wordBox.left, bottom: max(previous.bottom, wordBox.bottom))
                    : nil
                units.append(TextUnit(utf8: offset..<offset + 1, box: gap))
                string += " "
                offset += 1
            }
            let text = readings[i][choice[i]].text
            units += wordUnits(word, text: text, box: wordBox, start: offset)
            string += text
            offset += text.utf8.count
        }
        return RecognizedText(string: string, confidence: confidence, units: units,
                              imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// Units of one word's reading: its symbols when they spell exactly this reading, else its
    /// characters sharing the word box evenly from left to right.
    static func wordUnits(_ word: Word, text: String, box: PixelBox, start: Int) -> [TextUnit] {
        var units: [TextUnit] = []
        var offset = start
        let symbols = word.symbols
        if !symbols.isEmpty, symbols.allSatisfy({ $0.box != nil }), symbols.map(\.text).joined() == text {
            for symbol in symbols {
                let length = symbol.text.utf8.count
                units.append(TextUnit(utf8: offset..<offset + length, box: clamp(PixelBox(symbol.box!), to: box)))
                offset += length
            }
            return units
        }
        let characters = Array(text)
        guard !characters.isEmpty else { return [] }
        for (k, character) in characters.enumerated() {
            let length = String(character).utf8.count
            let left = box.left + box.width * k / characters.count
            let right = box.left + box.width * (k + 1) / characters.count
            units.append(TextUnit(utf8: offset..<offset + length,
                                  box: PixelBox(left: left, top: box.top, right: right, bottom: box.bottom)))
            offset += length
        }
        return units
    }

    /// `box` cut to `bounds`; `bounds` itself when they do not overlap.
    static func clamp(_ box: PixelBox, to bounds: PixelBox) -> PixelBox {
        let clamped = PixelBox(left: max(box.left, bounds.left), top: max(box.top, bounds.top),
                               right: min(box.right, bounds.right), bottom: min(box.bottom, bounds.bottom))
        return clamped.width > 0 && clamped.height > 0 ? clamped : bounds
    }
}
