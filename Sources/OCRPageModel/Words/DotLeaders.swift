/// Dot leaders ("Total ........ 12.5", a table of contents, a form's "Name ..........") and the
/// dots that stand for an empty cell ("..."), read as the dots they are.
///
/// Tesseract takes a line's leader for letters sized to the line ("ccceeseeseeee", "on", "we",
/// plain `tesseract` too), runs the word before it into it ("discharge......:eceeee") and
/// leaves some of its dots in no word. The thresholded image says what they are: marks a
/// fraction of the line's letters tall and wide, sitting on its baseline. A run of
/// ``minimumRun`` or more such dots, alike and evenly spaced with nothing between them, is one
/// leader word of that many dots, wherever Tesseract's words began and ended; the words it ran
/// through keep their letters outside it. A word whose ink is only dots is read as those dots.
/// A leader may run on past its line's end (``reach(of:lines:pageRight:)``): the layout
/// analysis of a blurred scan leaves it out of the line, or makes a line of it read as nothing.
///
/// Spaced dashes ("- - - - - - x" in a transcript's caption, a form's blank) are read the same
/// way, each dash a word "-": Tesseract reads such a run as one word of letters ("ee") or not
/// at all. A dash is as thin as a dot, wider than tall, and sits halfway up the letters.
package enum DotLeaders {
    /// A dot is at most this share of the line's letter height, tall and wide.
    static let dotSize = 0.3
    /// ...and its bottom within this share of the letter height of the baseline.
    static let baselineSlack = 0.2
    /// A leader has this many dots or more ("etc..." keeps its ellipsis).
    static let minimumRun = 4
    /// ...set at least this many letter heights apart, centre to centre (a full stop's advance
    /// is a quarter of an em): a dithered fax breaks a letter's bowl into specks on the baseline
    /// two or three pixels apart, a tenth of a letter height.
    static let minimumPitch = 0.2
    /// Dots of a leader are at most this many letter heights apart (". . . ." too); a word this
    /// close to a leader loses the full stops it read of it.
    static let joiningGap = 1.0
    /// A dash is at most this share of the line's letter height wide, and at least twice as
    /// wide as tall (a hyphen is a third of an em, an en dash half)...
    static let dashWidth = 0.8
    /// ...with its middle this many letter heights above the bottom of the line's letters
    /// (halfway up a lowercase letter; an underscore lies on that bottom).
    static let dashMiddle = 0.15...0.6
    /// Spaced dashes are at most this many letter heights apart, edge to edge (a transcript's
    /// "- - - -" leaves 1.5).
    static let dashGap = 2.5

    /// `blocks` with their dot leaders read as dots, given `components` (the boxes of the
    /// thresholded page's connected components, in the blocks' pixels), and how many words changed.
    package static func read(_ blocks: [RawBlock], components: [RawRect]) -> (blocks: [RawBlock], changed: Int) {
        let grid = ComponentGrid(components)
        // Lines with something read in them: the layout analysis may make a line of a leader
        // alone that the recogniser then reads as nothing.
        let lines = blocks.flatMap(\.paragraphs).flatMap(\.lines)
            .filter { $0.words.contains { $0.text.contains { $0.isLetter || $0.isNumber } } }.map(\.rect)
        let pageRight = components.map(\.right).max() ?? 0
        var blocks = blocks, changed = 0
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    let line = blocks[b].paragraphs[p].lines[l]
                    let (words, count) = read(line, grid: grid, reach: reach(of: line.rect, lines: lines, pageRight: pageRight))
                    blocks[b].paragraphs[p].lines[l].words = words
                    changed += count
                }
            }
        }
        return (blocks, changed)
    }

    /// A mark of a line's ink: a dot on the baseline, a dash halfway up the letters, or anything
    /// else there is to read.
    enum Mark {
        case dot(RawRect)
        case dash(RawRect)
        case ink(RawRect)

        var isDot: Bool { if case .dot = self { true } else { false } }
        var isDash: Bool { if case .dash = self { true } else { false } }
        var rect: RawRect { switch self { case .dot(let r), .dash(let r), .ink(let r): r } }
    }

    /// How far right of `line` its leader may run: to the nearest other line beside it (the
    /// next column's figures), or the page's last ink. The layout analysis of a blurred scan
    /// leaves a label's leader out of every line ("breastfed ........ 4.7": the line ends at
    /// "breastfed", the figure is a line of its own), and a leader is still the label's.
    static func reach(of line: RawRect, lines: [RawRect], pageRight: Int) -> Int {
        let beside = lines.filter { other in
            other.left >= line.right && 2 * (min(line.bottom, other.bottom) - max(line.top, other.top)) >= min(line.height, other.height)
        }
        return max(line.right, beside.map(\.left).min() ?? pageRight)
    }

    /// `reach`: how far right of the line's box its leader may run (the line's own end when nil).
    static func read(_ line: RawLine, grid: ComponentGrid, reach: Int? = nil) -> (words: [RawWord], changed: Int) {
        guard let letterHeight = line.letterHeight, line.baseline.count == 4 else { return (line.words, 0) }
        var searched = line.rect
        searched.right = max(line.rect.right, reach ?? line.rect.right)
        let centred = grid.centred(in: searched).sorted { $0.left < $1.left }
        // Where the line's letters stand, for dashes: the median bottom of its letter-sized ink
        // (Tesseract's baseline of a line it made of dashes alone runs under the dashes).
        let letterBottoms = centred.filter { Double($0.height) >= 0.5 * letterHeight }.map(\.bottom).sorted()
        let letterBottom = letterBottoms.isEmpty ? nil : Double(letterBottoms[letterBottoms.count / 2])
        func mark(_ c: RawRect) -> Mark? {
            let thin = Double(c.height) <= dotSize * letterHeight
            if thin, let letterBottom, c.width >= 2 * c.height, Double(c.width) <= dashWidth * letterHeight,
               Double(c.width) > dotSize * letterHeight {
                return dashMiddle.contains((letterBottom - Double(c.top + c.bottom) / 2) / letterHeight) ? .dash(c) : .ink(c)
            }
            let small = Double(max(c.width, c.height)) <= dotSize * letterHeight
            if !small { return .ink(c) }
            // A small mark off the baseline (a colon's upper dot, an i's dot, a speck) is neither.
            let onBaseline = abs(Double(c.bottom) - line.baselineY(at: (c.left + c.right) / 2)) <= baselineSlack * letterHeight
            return onBaseline ? .dot(c) : nil
        }
        let gap = Int(joiningGap * letterHeight)

        // The line's leaders: runs of dots (or of dashes) with nothing else between them,
        // wherever Tesseract's words begin and end (it often leaves a leader's first dots out
        // of every word).
        let marks = centred.compactMap(mark)
        var leaders: [(dashes: Bool, marks: [RawRect])] = []
        var run: [RawRect] = []
        var runOfDashes = false
        func endRun() {
            if run.count >= minimumRun, isEven(run, letterHeight: letterHeight) { leaders.append((runOfDashes, run)) }
            run = []
        }
        let dashGap = Int(Self.dashGap * letterHeight)
        for m in marks {
            let joins = (m.isDot && !runOfDashes) || (m.isDash && runOfDashes)
            if !joins || run.last.map({ m.rect.left - $0.right > (runOfDashes ? dashGap : gap) }) == true { endRun() }
            if m.isDot || m.isDash {
                runOfDashes = m.isDash
                run.append(m.rect)
            }
        }
        endRun()
        // A leader past the line's end is the line's only when it starts within a gap of it
        // (dots further on are another line's, or a rule's).
        leaders.removeAll { $0.marks[0].left > line.rect.right + gap }
        let spans = leaders.map { ($0.marks.first!.left, $0.marks.last!.right) }

        var out: [RawWord] = []
        var changed = 0
        for word in line.words {
            let touched = spans.filter { $0.0 < word.rect.right && word.rect.left < $0.1 }
            // A word is cut by its symbols, which must spell it.
            guard !word.symbols.isEmpty, word.symbols.map(\.text).joined() == word.text else {
                out.append(word)
                continue
            }
            if !touched.isEmpty {
                // The word's letters outside the leaders it runs into, without the full stops
                // read into them, nor letters over blank paper (the recogniser spreads a word
                // read from a leader's marks over more than their width).
                out += pieces(of: word, outside: touched).filter { !grid.centred(in: $0.rect).isEmpty }
                changed += 1
            } else if zip(leaders, spans).contains(where: { !$0.0.dashes && (abs($0.1.0 - word.rect.right) <= gap || abs(word.rect.left - $0.1.1) <= gap) }),
                      let bare = withoutDots(word), bare.text != word.text {
                out.append(bare)
                changed += 1
            } else {
                let marks = grid.centred(in: word.rect).compactMap(mark)
                let dots = marks.map(\.rect).sorted { $0.left < $1.left }
                if dots.count >= 2, marks.allSatisfy(\.isDot), isEven(dots, letterHeight: letterHeight),
                   word.text != String(repeating: ".", count: dots.count) {
                    out.append(leader(dots, confidence: word.confidence))
                    changed += 1
                } else {
                    out.append(word)
                }
            }
        }
        // Each leader goes before the first word right of it (the line's order is kept), as
        // sure as its line; spaced dashes are a word each.
        for found in leaders {
            let words = found.dashes ? found.marks.map { dash($0, confidence: line.confidence) } : [leader(found.marks, confidence: line.confidence)]
            out.insert(contentsOf: words, at: out.firstIndex { $0.rect.left >= found.marks[0].left } ?? out.endIndex)
        }
        return (out, changed + leaders.count)
    }

    /// Whether `dots` (left to right, two or more) are set as a leader's are: alike in size,
    /// evenly spaced and at least ``minimumPitch`` letter heights apart (a broken letter's
    /// specks are not).
    static func isEven(_ dots: [RawRect], letterHeight: Double) -> Bool {
        let pitches = zip(dots, dots.dropFirst()).map { Double($1.left - $0.left) }.sorted()
        let heights = dots.map { Double($0.height) }.sorted()
        let pitch = pitches[pitches.count / 2], height = heights[heights.count / 2]
        guard pitch >= minimumPitch * letterHeight else { return false }
        let even = pitches.filter { (0.6 * pitch...1.4 * pitch).contains($0) }.count
        let alike = heights.filter { (0.5 * height...2 * height).contains($0) }.count
        return Double(even) >= 0.8 * Double(pitches.count) && Double(alike) >= 0.8 * Double(dots.count)
    }

    /// The parts of `word` whose symbols are centred outside `spans`, each without the full stops
    /// at its ends (Tesseract reads a leader's first dots into the word before it).
    static func pieces(of word: RawWord, outside spans: [(Int, Int)]) -> [RawWord] {
        var parts: [[RawSymbol]] = [[]]
        for symbol in word.symbols {
            let x = (symbol.rect.left + symbol.rect.right) / 2
            if spans.contains(where: { $0.0 <= x && x < $0.1 }) {
                if !parts[parts.count - 1].isEmpty { parts.append([]) }
            } else {
                parts[parts.count - 1].append(symbol)
            }
        }
        return parts.compactMap { part in
            Self.word(of: Array(part.drop { $0.text == "." }.reversed().drop { $0.text == "." }.reversed()), from: word)
        }
    }

    /// `word` without two or more full stops at its start or end (one is a full stop).
    static func withoutDots(_ word: RawWord) -> RawWord? {
        let symbols = word.symbols
        let leading = symbols.prefix { $0.text == "." }.count, trailing = symbols.reversed().prefix { $0.text == "." }.count
        guard leading >= 2 || trailing >= 2, leading < symbols.count else { return nil }
        return Self.word(of: Array(symbols.dropFirst(leading >= 2 ? leading : 0).dropLast(trailing >= 2 ? trailing : 0)), from: word)
    }

    private static func word(of symbols: [RawSymbol], from word: RawWord) -> RawWord? {
        guard !symbols.isEmpty else { return nil }
        return RawWord(text: symbols.map(\.text).joined(), confidence: word.confidence, rect: WordCombination.bounds(symbols.map(\.rect))!,
                       fromDictionary: word.fromDictionary, symbols: symbols)
    }

    private static func dash(_ rect: RawRect, confidence: Float) -> RawWord {
        RawWord(text: "-", confidence: confidence, rect: rect, symbols: [RawSymbol(text: "-", confidence: confidence, rect: rect)])
    }

    private static func leader(_ dots: [RawRect], confidence: Float) -> RawWord {
        RawWord(text: String(repeating: ".", count: dots.count), confidence: confidence, rect: WordCombination.bounds(dots)!,
                       symbols: dots.map { RawSymbol(text: ".", confidence: confidence, rect: $0) })
    }

    /// The components of a page, found by the rectangle their centre lies in (``DotLeaders``,
    /// ``Superscripts``).
    struct ComponentGrid {
        static let cell = 32
        private let rows: [Int: [RawRect]]  // Band (centre y / cell) -> the components centred in it.

        init(_ components: [RawRect]) {
            rows = Dictionary(grouping: components) { ($0.top + $0.bottom) / 2 / Self.cell }
        }

        func centred(in rect: RawRect) -> [RawRect] {
            guard rect.height > 0 else { return [] }
            return (rect.top / Self.cell...(rect.bottom - 1) / Self.cell).flatMap { rows[$0] ?? [] }.filter { rect.contains(centreOf: $0) }
        }
    }
}
