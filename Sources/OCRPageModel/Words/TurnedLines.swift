/// Lines the layout analysis turned on their side: the `accurate` level's guard for columns of
/// short numbers.
///
/// A table whose columns hold one- or two-digit numbers ("8", "21", "0") under one another is,
/// to Tesseract's layout analysis, a tall narrow stack of glyphs: it takes each column for a
/// line of vertical text and reads it turned, giving letters ("PrPrPWOODdOrRr", "WwW" for "30")
/// with low confidence, and plain `tesseract` does the same. The lines it read so have a
/// baseline running up or down the page while the page's other lines run across it. Where such
/// lines are few beside the others and read with low confidence, they are taken out and their
/// parts of the page read again as one uniform text block (`--psm 6`), which reads the numbers
/// as rows (``BestLevel``'s single-block pass over these regions).
///
/// A label set vertically on purpose (a margin stamp, a rotated column head) is read with good
/// confidence and kept.
package enum TurnedLines {
    /// A baseline at least this many times longer down the page than across it runs down it.
    package static let steepness = 2
    /// Turned lines read with less than this mean confidence (over their characters) are misread.
    package static let misreadConfidence: Float = 0.6
    /// A page has at least this many lines across it for each turned one.
    package static let acrossPerTurned = 1

    /// The lines of `blocks` read turned on a page of lines read across, when they were misread;
    /// empty otherwise.
    package static func misread(in blocks: [RawBlock]) -> [RawLine] {
        var turned: [RawLine] = []
        var across = 0
        for block in blocks {
            for paragraph in block.paragraphs {
                for line in paragraph.lines where line.words.contains(where: { !$0.text.allSatisfy(\.isWhitespace) }) {
                    guard line.baseline.count == 4 else { continue }
                    let dx = abs(line.baseline[2] - line.baseline[0]), dy = abs(line.baseline[3] - line.baseline[1])
                    if dy > steepness * dx { turned.append(line) } else if dx > steepness * dy { across += 1 }
                }
            }
        }
        guard !turned.isEmpty, across >= acrossPerTurned * turned.count else { return [] }
        var characters = 0
        var weighted: Float = 0
        for word in turned.flatMap(\.words) {
            characters += word.text.count
            weighted += Float(word.text.count) * word.confidence
        }
        return characters > 0 && weighted / Float(characters) < misreadConfidence ? turned : []
    }

    /// Letter-sized boxes covering `lines` (each turned line cut into squares of its width), for
    /// ``LostRegions`` to group into the parts of the page to read again.
    package static func letterBoxes(_ lines: [RawLine]) -> [RawRect] {
        lines.flatMap { line -> [RawRect] in
            let size = max(1, line.rect.width)
            return stride(from: line.rect.top, to: line.rect.bottom, by: size).map {
                RawRect(left: line.rect.left, top: $0, right: line.rect.right, bottom: min(line.rect.bottom, $0 + size))
            }
        }
    }

    /// `blocks` without `lines` (matched by their boxes); paragraphs and blocks they leave
    /// empty go too.
    package static func removing(_ lines: [RawLine], from blocks: [RawBlock]) -> [RawBlock] {
        let gone = lines.map(\.rect)
        return blocks.compactMap { block in
            var block = block
            var emptied = false
            block.paragraphs = block.paragraphs.compactMap { paragraph in
                var paragraph = paragraph
                paragraph.lines.removeAll { line in gone.contains(line.rect) }
                emptied = emptied || paragraph.lines.isEmpty
                return paragraph.lines.isEmpty ? nil : paragraph
            }
            return emptied && block.paragraphs.isEmpty ? nil : block
        }
    }
}
