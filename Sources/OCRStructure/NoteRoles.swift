/// Captions and footnotes among a page's paragraphs: what a reader sets apart from the running
/// text although it is set as paragraphs.
///
/// - A caption starts with a label and a number (`Table 2`, `Figure 3.1`, `Fig. 4`, `Exhibit B`,
///   `TABLE IV`) and either sets the number off (`Table 2:`, `Figure 3. `, `Table 1 -`), or is in
///   capitals, or stands right above or below a table or picture. Prose that names a table
///   ("Table 2 shows ...") does none of these.
/// - A footnote is set smaller than the page's body, under all of the page's body text beside it,
///   and starts with a note's marker (`1`, `*`, `†`, `a`, `(2)`, `1See` with the marker run into
///   its first word); what follows it as small at the foot of the page goes on with it. A note
///   right under a table (`Note:`, `Source:`, or a marker in small type) is one too, whatever
///   is below it.
struct NoteRoles {
    let page: PageLines
    /// Tables' and pictures' boxes: what captions name and notes are under.
    let targets: [PageBox]
    /// Lines that are no part of the page's body (running headers and footers).
    let excludedLines: Set<Int>

    /// Type smaller than this share of the body's is a note's.
    static let smallTypeRatio = 0.9
    /// How far from a table or picture (in body line heights) its caption or note may stand.
    static let reach = 3

    /// `elements` with captions and footnotes given their roles (a list whose items are
    /// footnotes becomes one footnote per item).
    func relabeled(_ elements: [(order: Int, element: ParagraphRoles.Element)]) -> [(order: Int, element: ParagraphRoles.Element)] {
        var out: [(order: Int, element: ParagraphRoles.Element)] = []
        var lastFootnote: PageBox?  // the footnote just before, when the last element was one
        for (start, element) in elements {
            var order = start
            switch element {
            case .done(.paragraph(let whole)):
                // A caption Tesseract ran on from the paragraph above it starts a line of it.
                var block = whole
                if let (before, caption) = splitAtCaption(whole) {
                    out.append((before.order, .done(.paragraph(before.text))))
                    (order, block) = (caption.order, caption.text)
                }
                if isCaption(block) {
                    out.append((order, .done(.caption(block))))
                    lastFootnote = nil
                } else if isFootnote(block, after: lastFootnote) {
                    out += notes(in: block, order: order).map { ($0.order, .done(.footnote($0.note))) }
                    lastFootnote = block.box
                } else {
                    out.append((order, element))
                    lastFootnote = nil
                }
            case .done(.table(let table)):
                // A caption set in line with the columns is read as the table's first row.
                if let (caption, rest) = Self.captionRow(of: table) {
                    out.append((order, .done(.caption(caption))))
                    out.append((order, .done(.table(rest))))
                } else {
                    out.append((order, element))
                }
                lastFootnote = nil
            case .heading(let candidate):
                // A caption set in bold, or a table's `Source: ...` standing alone in title case.
                let block = TextBlock(text: candidate.text, box: candidate.box)
                let labelled = candidate.text.split(separator: " ").first.map { Self.isNoteLabel(String($0)) } ?? false
                if isCaption(block) {
                    out.append((order, .done(.caption(block))))
                    lastFootnote = nil
                } else if labelled, isFootnote(block, after: lastFootnote) {
                    out.append((order, .done(.footnote(block))))
                    lastFootnote = block.box
                } else {
                    out.append((order, element))
                    lastFootnote = nil
                }
            case .done(.list(let list)) where isSmall(list.box) && isAtFoot(list.box):
                // Notes numbered `1.` or `(a)` read as a list: each item its own note.
                for (index, item) in list.items.enumerated() {
                    out.append((order + index, .done(.footnote(TextBlock(text: item.marker + " " + item.text, box: item.box)))))
                }
                lastFootnote = list.box
            default:
                out.append((order, element))
                lastFootnote = nil
            }
        }
        return out
    }

    // MARK: Captions

    /// Words that name what a caption is of, lower-cased, any trailing full stop dropped.
    static let captionLabels: Set<String> = [
        "table", "figure", "fig", "chart", "exhibit", "graph", "map", "plate", "scheme", "diagram", "illustration",
        "listing", "box", "tabla", "figura", "cuadro", "gráfico", "grafico", "tableau", "graphique", "tabelle", "abbildung", "abb",
    ]

    /// `Table`, `FIGURE`, `Fig.`: one of ``captionLabels`` in any case.
    static func isCaptionLabel(_ word: String) -> Bool {
        captionLabels.contains((word.hasSuffix(".") ? String(word.dropLast()) : word).lowercased())
    }

    func isCaption(_ block: TextBlock) -> Bool {
        let words = block.text.split(separator: " ").map(String.init)
        guard words.count >= 2, words.count <= 120 else { return false }
        guard Self.isCaptionLabel(words[0]), let numberSetOff = Self.captionNumber(words[1]) else { return false }
        let setOff = numberSetOff || words.count >= 3 && [":", "-", "–", "—", "|", "."].contains(words[2])
        let capitals = words[0].count >= 3 && words[0].allSatisfy { $0.isUppercase || $0 == "." }
        // Not set off, it names a table beside it as a title does ("Table 6.10 Private Label
        // Penetration"), not as a sentence does ("Table 2-1 takes the analysis ...").
        let titled = words.count >= 3 && words[2].first?.isLowercase != true
        return setOff || capitals || words.count == 2 || titled && isBeside(block.box)
    }

    /// `table` without its first row when that row is a caption with its number set off
    /// (`Table 14. Actual and projected numbers ...` across the columns), and the caption; the
    /// columns only the caption was in go with it. Nil when the first row is no caption or the
    /// table would keep fewer than two rows.
    static func captionRow(of table: TableBlock) -> (caption: TextBlock, rest: TableBlock)? {
        guard table.rows.count >= 3, let first = table.rows.first else { return nil }
        let words = first.map(\.text).filter { !$0.isEmpty }.joined(separator: " ").split(separator: " ").map(String.init)
        guard words.count >= 2, isCaptionLabel(words[0]), captionNumber(words[1]) == true || words[0].allSatisfy(\.isUppercase),
              first.allSatisfy({ $0.rowSpan == 1 }), let box = PageBox.union(first.compactMap(\.box)) else { return nil }
        let rows = Array(table.rows.dropFirst())
        let used = (0..<table.columnCount).filter { column in
            rows.contains { $0.contains { !$0.text.isEmpty && $0.column <= column && column < $0.column + $0.columnSpan } }
        }
        guard !used.isEmpty else { return nil }
        let trimmed = rows.map { row in
            row.compactMap { cell -> TableCell? in
                let covered = used.filter { cell.column <= $0 && $0 < cell.column + cell.columnSpan }
                guard let start = covered.first, let index = used.firstIndex(of: start) else { return nil }
                var cell = cell
                (cell.column, cell.columnSpan) = (index, covered.count)
                return cell
            }
        }
        let rest = TableBlock(rows: trimmed, headerRows: max(0, table.headerRows - 1), columnCount: used.count,
                              box: PageBox.union(trimmed.flatMap { $0.compactMap(\.box) }) ?? table.box,
                              continuesPreviousPage: table.continuesPreviousPage)
        return (TextBlock(text: words.joined(separator: " "), box: box), rest)
    }

    /// `block` cut before a line other than its first that starts a caption with its number set
    /// off (`Table 6.5: ...`) after a line that ends a sentence: the paragraph before, the
    /// caption from there on.
    private func splitAtCaption(_ block: TextBlock) -> (before: (order: Int, text: TextBlock), caption: (order: Int, text: TextBlock))? {
        let lines = lines(in: block.box)
        guard lines.count >= 2,
              let cut = lines.indices.dropFirst().first(where: { index in
                  // Not where a sentence runs on over the line break ("... to look like" /
                  // "Listing 13-19. This still ...").
                  let words = lines[index].words.map(\.text)
                  return lines[index - 1].words.last?.text.last.map { ".:;!?)".contains($0) } == true
                      && words.count >= 3 && Self.isCaptionLabel(words[0]) && Self.captionNumber(words[1]) == true
              }) else { return nil }
        let before = Array(lines[..<cut]), caption = Array(lines[cut...])
        return ((before[0].order, ParagraphRoles.textBlock(before)), (caption[0].order, ParagraphRoles.textBlock(caption)))
    }

    /// Whether `token` is a caption's number set off by what follows it: `2`, `3.1`, `4-1`, `A`,
    /// `A1`, `S2`, `ES-1`, `IV`, `12b` give false, any of them followed by `:`, `.`, `)` or a dash true;
    /// nil for anything else.
    static func captionNumber(_ token: String) -> Bool? {
        var core = Substring(token)
        var setOff = false
        if let last = core.last, ":.)-–—".contains(last) {
            core = core.dropLast()
            setOff = true
        }
        guard !core.isEmpty, core.count <= 8 else { return nil }
        let roman: Set<Character> = ["I", "V", "X", "L", "C"]
        let isRoman = core.count <= 6 && core.allSatisfy { roman.contains($0) }
        let isLetter = core.count == 1 && core.first!.isUppercase
        // Digits with separators, led by up to three capitals (A1, S2, ES-1) and ended by at most
        // one small letter (12b).
        var digits = core
        let prefix = digits.prefix(while: \.isUppercase)
        if prefix.count <= 3 { digits = digits.dropFirst(prefix.count) }
        if !prefix.isEmpty, digits.first == "-" { digits = digits.dropFirst() }
        if digits.last?.isLowercase == true { digits = digits.dropLast() }
        let isNumber = digits.first?.isASCIIDigit == true && digits.last?.isASCIIDigit == true
            && digits.allSatisfy { $0.isASCIIDigit || ".-–".contains($0) }
        return isRoman || isLetter || isNumber ? setOff : nil
    }

    /// Whether `box` stands right above or below one of the tables or pictures, across from it.
    func isBeside(_ box: PageBox) -> Bool {
        let reach = Self.reach * page.bodyHeight
        return targets.contains { target in
            let across = min(box.maxX, target.maxX) - max(box.x, target.x) > 0
            let above = target.y - box.maxY, below = box.y - target.maxY
            return across && (-page.bodyHeight / 2...reach).contains(above) || across && (-page.bodyHeight / 2...reach).contains(below)
        }
    }

    // MARK: Footnotes

    static let noteLabels: Set<String> = ["note", "notes", "source", "sources", "nota", "notas", "fuente", "fuentes", "quelle", "anmerkung"]

    /// Whether `block` is a note: labelled, or marked and small, under a table or at the foot
    /// of the page; or small and going on from the footnote `previous` right above it (a line
    /// apart at most).
    func isFootnote(_ block: TextBlock, after previous: PageBox?) -> Bool {
        guard let first = block.text.split(separator: " ").first.map(String.init) else { return false }
        // Stacked under a note: `Source:` under `Note:`, the second of a table's numbered notes.
        let stacked = previous.map { block.box.y - $0.maxY <= page.bodyHeight * 3 / 2 } ?? false
        if Self.isNoteLabel(first), isUnder(block.box) || stacked || isSmall(block.box) && isAtFoot(block.box) { return true }
        // A note is words: a marker before numbers is a chart's axis read as text.
        let letters = block.text.filter(\.isLetter).count, others = block.text.filter { !$0.isLetter && !$0.isWhitespace }.count
        // A letter as a marker comes before a sentence ("a Excludes ..."), not inside one
        // ("a lot of ...").
        let words = block.text.split(separator: " ")
        let letterMarker = first.count == 1 && first.first!.isLowercase
        let marked = Self.isNoteMarker(first) && letters > others
            && (!letterMarker || words.count >= 2 && words[1].first.map { $0.isUppercase || $0.isNumber } == true)
        // A table's notes are often set as large as its cells, which may be most of the page.
        if marked, isUnder(block.box) || stacked { return true }
        guard isSmall(block.box) else { return false }
        if marked {
            // A running footer led by its page number stands out left of the body's text.
            return isAtFoot(block.box) && block.box.x >= bodyLeft - page.bodyHeight
        }
        guard let previous else { return false }
        return block.box.y - previous.maxY <= page.bodyHeight && isAtFoot(block.box)
    }

    /// The notes of a footnote paragraph: a new one at each line that starts with a marker or a
    /// label where the first line starts (Tesseract reads the notes at a page's foot as one paragraph).
    private func notes(in block: TextBlock, order: Int) -> [(order: Int, note: TextBlock)] {
        let lines = lines(in: block.box)
        guard let first = lines.first else { return [(order, block)] }
        var groups: [[PageLine]] = []
        for line in lines {
            let starts = Self.isNoteMarker(line.words[0].text) || Self.isNoteLabel(line.words[0].text)
            if groups.isEmpty || abs(line.box.x - first.box.x) <= page.bodyHeight / 2 && starts {
                groups.append([line])
            } else {
                groups[groups.count - 1].append(line)
            }
        }
        return groups.count == 1 ? [(order, block)] : groups.map { ($0[0].order, ParagraphRoles.textBlock($0)) }
    }

    /// `Note:`, `Sources.`, `NOTE:`: a note's label, set off.
    static func isNoteLabel(_ token: String) -> Bool {
        guard let last = token.last, ":.".contains(last) else { return false }
        return noteLabels.contains(token.dropLast().lowercased())
    }

    /// `1`, `12`, `*`, `**`, `†`, `‡`, `§`, `a`, `(2)`, `[3]`, `1.`, `a)`, or a marker run into
    /// the note's first word (`1See`, `*Excludes`, `¹Data`, `2A`). Tesseract reads a small
    /// raised `1` as `‘`, `'` or `™`, and a raised `3` as `°`: those are markers too.
    static func isNoteMarker(_ token: String) -> Bool {
        let symbols: Set<Character> = ["*", "†", "‡", "§", "¶", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁰", "‘", "'", "™", "°"]
        var core = Substring(token)
        if core.first == "(" && core.last == ")" || core.first == "[" && core.last == "]" {
            core = core.dropFirst().dropLast()
        } else if let last = core.last, ".):".contains(last) {
            core = core.dropLast()
        }
        guard !core.isEmpty else { return false }
        if core.count <= 3, core.allSatisfy(\.isASCIIDigit) { return true }
        if core.count <= 3, core.allSatisfy(symbols.contains) { return true }
        if core.count == 1, core.first!.isLowercase { return true }
        // Run into its word: digits or symbols, then a capital and a small letter.
        let marker = core.prefix { $0.isASCIIDigit || symbols.contains($0) }
        let rest = core.dropFirst(marker.count)
        guard (1...2).contains(marker.count), let initial = rest.first, initial.isUppercase else { return false }
        return rest.count == 1 ? "AI".contains(initial) : rest.dropFirst().first!.isLowercase
    }

    /// Where the page's body text starts: the left edge of its lines of three words or more
    /// (the tenth from the left, so that a stray line does not move it).
    private var bodyLeft: Int {
        let starts = page.lines.filter { $0.words.count >= 3 && !excludedLines.contains($0.order) }.map(\.box.x).sorted()
        return starts.isEmpty ? 0 : starts[starts.count / 10]
    }

    /// Whether the lines in `box` are set smaller than the page's body.
    func isSmall(_ box: PageBox) -> Bool {
        let sizes = lines(in: box).map(\.typeSize)
        guard let size = PageLines.median(sizes) else { return false }
        return Double(size) <= Self.smallTypeRatio * Double(page.bodyTypeSize)
    }

    /// Whether no line of body text (three words or more, not set small) stands below `box`
    /// across from it.
    func isAtFoot(_ box: PageBox) -> Bool {
        !page.lines.contains { line in
            !excludedLines.contains(line.order) && line.words.count >= 3 && line.box.y >= box.maxY - page.bodyHeight / 2
                && min(line.box.maxX, box.maxX) > max(line.box.x, box.x)
                && Double(line.typeSize) > Self.smallTypeRatio * Double(page.bodyTypeSize)
        }
    }

    /// Whether `box` starts right under a table or picture, across from it.
    func isUnder(_ box: PageBox) -> Bool {
        targets.contains { target in
            min(box.maxX, target.maxX) > max(box.x, target.x)
                && (-page.bodyHeight / 2...Self.reach * page.bodyHeight).contains(box.y - target.maxY)
        }
    }

    /// The page's lines whose middle is inside `box`.
    private func lines(in box: PageBox) -> [PageLine] {
        page.lines.filter { !excludedLines.contains($0.order) && box.contains(x: $0.box.midX, y: $0.box.midY) }
    }
}
