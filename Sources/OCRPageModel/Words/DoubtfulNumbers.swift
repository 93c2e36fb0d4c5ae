/// Numbers the first reading was unsure of, in tables, statements and forms, and the parts of the
/// page to read each of them again on its own, as one line.
///
/// On a whole page Tesseract reads a dense row of numeric cells as one text line, and there it
/// splits a number at a thousands separator ("26.034" ".823", both at confidence 0, where the
/// page shows "26.034.823"), reads a neighbour's speck as a full stop ("09/10/2013.") or a thin
/// "1" as "4". Read alone, each number is a short line the recogniser reads right (the same
/// fax's cells, cropped: every one of those read exactly), and more confidently; the readings
/// are combined word by word (``WordCombination``), so a new reading replaces the first only
/// where it scores higher. Only words already read are replaced: nothing is added.
package enum DoubtfulNumbers {
    /// A number read with less confidence than this is read again.
    package static let doubtful: Float = 0.9
    /// Numbers of one line closer than this many line heights are read together (the two halves
    /// of a number split at its separator).
    static let joiningGap = 1.0
    /// Margin around a number, in its height: across (clipped to half the gap to its
    /// neighbours) and above and below.
    static let marginAcross = 0.25
    static let marginAbove = 0.2

    /// Whether `text` is a number, an amount, a date or a code: a digit, and at least as many
    /// digits as letters ("26.034", "$2,304.2", "(31.1)", "09/10/2013", "RM1.25", "27-1129").
    package static func isNumeric(_ text: String) -> Bool {
        let digits = digitCount(text)
        let letters = text.unicodeScalars.filter { $0.properties.isAlphabetic }.count
        return digits > 0 && digits >= letters
    }

    /// The parts of a `width` x `height` page to read again: one per run of doubtful numbers in a
    /// line (neighbours within ``joiningGap`` line heights joined), with a margin that stays
    /// clear of the line's other words. In reading order; empty when every number is sure.
    package static func regions(in blocks: [RawBlock], width: Int, height: Int) -> [RawRect] {
        var regions: [RawRect] = []
        for line in blocks.flatMap(\.paragraphs).flatMap(\.lines) {
            let words = line.words.filter { !$0.text.allSatisfy(\.isWhitespace) }.sorted { $0.rect.left < $1.rect.left }
            var index = 0
            while index < words.count {
                guard isDoubtful(words[index]) else { index += 1; continue }
                var end = index
                while end + 1 < words.count, isDoubtful(words[end + 1]),
                      Double(words[end + 1].rect.left - words[end].rect.right) <= joiningGap * Double(max(words[end].rect.height, words[end + 1].rect.height)) {
                    end += 1
                }
                let run = words[index...end]
                let top = run.map(\.rect.top).min()!, bottom = run.map(\.rect.bottom).max()!
                let left = run.first!.rect.left, right = run.last!.rect.right
                let size = Double(bottom - top)
                let across = Int((marginAcross * size).rounded(.up)), above = Int((marginAbove * size).rounded(.up))
                // Half the gap to each neighbour at most: a neighbour's ink read into the number
                // is what went wrong the first time.
                let leftRoom = index > 0 ? max(0, (left - words[index - 1].rect.right) / 2) : across
                let rightRoom = end + 1 < words.count ? max(0, (words[end + 1].rect.left - right) / 2) : across
                let region = RawRect(left: max(0, left - min(across, leftRoom)), top: max(0, top - above),
                                     right: min(width, right + min(across, rightRoom)), bottom: min(height, bottom + above))
                if region.width > 0, region.height > 0 { regions.append(region) }
                index = end + 1
            }
        }
        return regions
    }

    /// Numbers smaller than this (pixels tall) are not read alone: small text has been read
    /// enlarged already (``SmallText``), and a crop of it reads worse than the page.
    static let smallestHeight = 12

    /// Whether `reading`, a region's new reading, may replace what the first pass read there
    /// (the words of `first` centred in `region`): only when it keeps at least as many digits,
    /// and as many points or commas between two digits. Read alone, a crop of a rotated or tiny
    /// number can come back as one stray digit ("135 20 0" as "2"), and a crop of an amount
    /// loses its small point ("5.30" as "530", "15.90" as "16 90": receipts); read right, a
    /// number split at its separator or stuck to a speck keeps every digit and separator.
    package static func keeps(_ reading: [RawBlock], in region: RawRect, over first: [RawWord]) -> Bool {
        let read = reading.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
        let there = first.filter { region.contains(centreOf: $0.rect) }
        return read.reduce(0) { $0 + digitCount($1.text) } >= there.reduce(0) { $0 + digitCount($1.text) }
            && read.reduce(0) { $0 + separatorCount($1.text) } >= there.reduce(0) { $0 + separatorCount($1.text) }
    }

    /// The points and commas of `text` with a digit on each side ("1,234.50": 2).
    static func separatorCount(_ text: String) -> Int {
        let characters = Array(text)
        func isDigit(_ i: Int) -> Bool { ("0"..."9").contains(characters[i]) }
        var count = 0
        for i in characters.indices.dropFirst().dropLast() where (characters[i] == "." || characters[i] == ",") && isDigit(i - 1) && isDigit(i + 1) {
            count += 1
        }
        return count
    }

    private static func digitCount(_ text: String) -> Int {
        text.unicodeScalars.filter { ("0"..."9").contains($0) }.count
    }

    static func isDoubtful(_ word: RawWord) -> Bool {
        word.confidence < doubtful && min(word.rect.width, word.rect.height) >= smallestHeight && isNumeric(word.text)
    }
}
