import OCRBasics

/// Captions: a label and a number, set off, in capitals, or titled beside a table or picture.
extension NoteRoles {
    /// Words that name what a caption is of, lower-cased, any trailing full stop dropped.
    static let captionLabels: Set<String> = [
        "table", "figure", "fig", "chart", "exhibit", "graph", "map", "plate", "scheme", "diagram", "illustration",
        "listing", "box", "tabla", "figura", "cuadro", "gráfico", "grafico", "tableau", "graphique", "tabelle", "abbildung", "abb",
    ]

    /// `Table`, `FIGURE`, `Fig.`: one of ``captionLabels`` in any case.
    static func isCaptionLabel(_ word: String) -> Bool {
        captionLabels.contains((word.hasSuffix(".") ? String(word.dropLast()) : word).lowercased())
    }

    /// Whether `block` is a caption: a label and a number, set off, in capitals, alone, or
    /// titled and beside a table or picture.
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
    /// caption's next lines when it runs on (`continuation`) and the columns only the caption
    /// was in go with it. Nil when the first row is no caption or the table would keep fewer
    /// than two rows.
    static func captionRow(of table: TableBlock) -> (caption: TextBlock, rest: TableBlock)? {
        guard table.rows.count >= 3, let first = table.rows.first else { return nil }
        var words = first.map(\.text).filter { !$0.isEmpty }.joined(separator: " ").split(separator: " ").map(String.init)
        guard words.count >= 2, isCaptionLabel(words[0]), captionNumber(words[1]) == true || words[0].allSatisfy(\.isUppercase),
              first.allSatisfy({ $0.rowSpan == 1 }), var box = PageBox.union(first.compactMap(\.box)) else { return nil }
        var taken = 1
        while taken < 4, table.rows.count - taken >= 3, let next = continuation(of: box, words: words, in: table.rows[taken]) {
            words += next.map(\.text).filter { !$0.isEmpty }.joined(separator: " ").split(separator: " ").map(String.init)
            box = box.union(PageBox.union(next.compactMap(\.box))!)
            taken += 1
        }
        let rows = Array(table.rows.dropFirst(taken))
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

    /// `row` when it holds the next lines of a caption (`box`, `words` so far) that runs on: the
    /// caption ends without a stop, and each line of the row stands as close under the one
    /// above as a paragraph's lines stand, not left of the caption, its words spaced as a
    /// sentence's (no gap as wide as the line is high). A row of cells of two lines (the
    /// caption's last line and a units line under it, `[In thousands]`) goes whole.
    static func continuation(of box: PageBox, words: [String], in row: [TableCell]) -> [TableCell]? {
        let cells = row.filter { !$0.text.isEmpty && $0.box != nil }
        guard let last = words.last?.last, !".:;!?".contains(last), !cells.isEmpty, row.allSatisfy({ $0.rowSpan == 1 }),
              let height = cells.compactMap(\.box?.height).min() else { return nil }
        // The row's lines, top to bottom: cells whose tops are within half a line of each other.
        var lines: [[TableCell]] = []
        for cell in cells.sorted(by: { $0.box!.y < $1.box!.y }) {
            guard cell.box!.height < height * 3 / 2 else { return nil }  // a cell over two lines: not a caption's
            if let top = lines.last?.first?.box?.y, cell.box!.y - top < height / 2 {
                lines[lines.count - 1].append(cell)
            } else {
                lines.append([cell])
            }
        }
        var above = box
        for index in lines.indices {
            lines[index].sort { $0.box!.x < $1.box!.x }
            let boxes = lines[index].map { $0.box! }
            let extent = PageBox.union(boxes)!
            guard extent.y - above.maxY < extent.height / 2, extent.x >= box.x - height / 2,
                  zip(boxes, boxes.dropFirst()).allSatisfy({ $1.x - $0.maxX < height }) else { return nil }
            above = extent
        }
        return lines.flatMap { $0 }
    }

    /// `block` cut before a line other than its first that starts a caption with its number set
    /// off (`Table 6.5: ...`) after a line that ends a sentence: the paragraph before, the
    /// caption from there on.
    func splitAtCaption(_ block: TextBlock) -> (before: (order: Int, text: TextBlock), caption: (order: Int, text: TextBlock))? {
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
        isUnder(box) || targets.contains { Self.isAcross(box, $0) && isWithinReach($0.y - box.maxY) }
    }
}
