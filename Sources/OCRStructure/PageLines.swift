import OCRWire

/// One word as structure analysis sees it.
struct LineWord: Sendable, Equatable {
    var text: String
    var box: PageBox
}

/// One text line of a page, with where Tesseract put it (block and paragraph, in its reading
/// order) and its words left to right.
struct PageLine: Sendable, Equatable {
    var words: [LineWord]
    var box: PageBox
    /// Index of the line in the page's reading order.
    var order: Int
    /// Which of Tesseract's paragraphs it belongs to (page-wide index).
    var paragraph: Int
    /// The part inside a ruled grid of a line Tesseract ran across the grid's edge (a table
    /// row read on one line with the column of prose beside it): `PageLines.cut(at:)`.
    var isCutFromProse = false

    var text: String { words.map(\.text).joined(separator: " ") }

    /// The height of the line's type, comparable between lines whatever their letters: the
    /// median height of its words that reach the cap height and do not descend (`Work`,
    /// `Done`), else of its descending words scaled back (a line box with `p` or `y` is a fifth
    /// taller than one without), else its box's.
    var typeSize: Int {
        var level: [Int] = [], descending: [Int] = []
        for word in words {
            let reachesTop = word.text.contains { $0.isUppercase || $0.isNumber || "bdfhklt".contains($0) }
            let descends = word.text.contains { "gjpqy(),;[]{}|/$@Q".contains($0) }
            if reachesTop, !descends { level.append(word.box.height) } else if descends { descending.append(word.box.height * 4 / 5) }
        }
        return PageLines.median(level) ?? PageLines.median(descending) ?? box.height
    }
}

/// A page's text lines and the measures every rule is relative to: the body text's line height
/// and its space between words. Scale-free rules (multiples of these) hold at any resolution.
struct PageLines: Sendable {
    var lines: [PageLine]
    /// The median height of lines of two words or more (all lines when there are none).
    var bodyHeight: Int
    /// The median `typeSize` of the same lines: what headings are measured against.
    var bodyTypeSize: Int
    /// The median gap between neighbouring words on a line, of the gaps narrower than a line's
    /// height (a page of table rows has few ordinary spaces and many wide gaps).
    var wordGap: Int
    var pageWidth: Int
    var pageHeight: Int
    /// The page's index in its job.
    var pageIndex: Int
    /// The page's ruling lines (`PageResult.rules`).
    var rules: [PageBox]
    /// Where Tesseract found pictures (its image blocks): what a figure's caption is next to.
    var figures: [PageBox]

    init(_ page: Ocr_V1_PageResult) {
        var lines: [PageLine] = []
        var paragraphIndex = 0
        for block in page.blocks where block.type != .image && block.type != .separator {
            for paragraph in block.paragraphs {
                for line in paragraph.lines {
                    let words = line.words
                        .filter { !$0.text.allSatisfy(\.isWhitespace) && $0.box != nil }
                        .map { LineWord(text: $0.text, box: PageBox($0.box!)) }
                        .sorted { $0.box.x < $1.box.x }
                    guard let box = PageBox.union(words.map(\.box)) else { continue }
                    lines.append(PageLine(words: words, box: box, order: lines.count, paragraph: paragraphIndex))
                }
                paragraphIndex += 1
            }
        }
        self.lines = lines
        let multiWord = lines.filter { $0.words.count >= 2 }.map(\.box.height)
        bodyHeight = max(1, Self.median(multiWord.isEmpty ? lines.map(\.box.height) : multiWord) ?? 1)
        var gaps: [Int] = []
        for line in lines {
            for (left, right) in zip(line.words, line.words.dropFirst()) { gaps.append(max(0, right.box.x - left.box.maxX)) }
        }
        let bodyLines = lines.filter { $0.words.count >= 2 }
        bodyTypeSize = max(1, Self.median((bodyLines.isEmpty ? lines : bodyLines).map(\.typeSize)) ?? 1)
        let body = bodyHeight
        wordGap = max(1, Self.median(gaps.filter { $0 < body }) ?? body / 3)
        pageWidth = Int(page.width)
        pageHeight = Int(page.height)
        pageIndex = Int(page.pageIndex)
        rules = page.rules.map(PageBox.init)
        figures = page.blocks.filter { $0.type == .image }.compactMap { $0.box.map(PageBox.init) }
    }

    /// These lines with each line that runs across the left or right edge of `regions` (ruled
    /// grids) at its height cut there: the words inside each region become a line of their
    /// own, right after the rest, regions in the order given (the grids' reading order), marked
    /// `isCutFromProse`. Reading order is renumbered; the page's measures stay those of the
    /// uncut lines.
    func cut(at regions: [PageBox]) -> PageLines {
        guard !regions.isEmpty else { return self }
        var out: [PageLine] = []
        for line in lines {
            let crossed = regions.filter { $0.y <= line.box.midY && line.box.midY <= $0.maxY }
            func region(of word: LineWord) -> Int? {
                crossed.firstIndex { $0.x <= word.box.midX && word.box.midX <= $0.maxX }
            }
            let outside = line.words.filter { region(of: $0) == nil }
            let inside = crossed.indices.map { index in line.words.filter { region(of: $0) == index } }.filter { !$0.isEmpty }
            guard inside.count + (outside.isEmpty ? 0 : 1) > 1 else {
                out.append(line)
                continue
            }
            for (words, isCut) in [(outside, false)] + inside.map({ ($0, true) }) where !words.isEmpty {
                out.append(PageLine(words: words, box: PageBox.union(words.map(\.box))!, order: out.count, paragraph: line.paragraph,
                                    isCutFromProse: isCut))
            }
        }
        var cut = self
        cut.lines = out.enumerated().map { index, line in
            var line = line
            line.order = index
            return line
        }
        return cut
    }

    static func median(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }
}
