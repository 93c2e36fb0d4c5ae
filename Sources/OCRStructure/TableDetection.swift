/// Tables found from the alignment of word boxes across lines: a table is a run of visual rows
/// (lines side by side at one height, whatever blocks Tesseract put them in) that split at wide
/// gaps into short cells whose columns line up. Rules drawn on the page are not needed (a ruled
/// table's words line up too) and not read.
struct TableDetection {
    /// A table and the lines (by reading order) it took from the page.
    struct Found {
        var table: TableBlock
        var lineOrders: Set<Int>
        /// Where it goes in reading order: its first line's.
        var order: Int
    }

    /// Words of one line between wide gaps.
    struct Segment {
        var words: [LineWord]
        var box: PageBox
        var text: String { words.map(\.text).joined(separator: " ") }
    }

    /// Lines at one height, cut into segments, left to right.
    struct VisualRow {
        var lineOrders: [Int]
        var segments: [Segment]
        var box: PageBox
    }

    let page: PageLines

    /// A gap at least this wide separates cells: several spaces and more than a line's height,
    /// wider than any space of justified prose.
    var cellGap: Int { max(3 * page.wordGap, page.bodyHeight * 6 / 5) }

    func tables(excluding excluded: Set<Int>) -> [Found] {
        let rows = visualRows(excluding: excluded)
        var found: [Found] = []
        var start = 0
        while start < rows.count {
            guard rows[start].segments.count >= 2 else { start += 1; continue }
            // Extend over rows of two or more cells, letting one single-cell row at a time in
            // (a wrapped cell, a section label) when a multi-cell row follows.
            var end = start + 1
            while end < rows.count, rows[end].box.y - rows[end - 1].box.maxY <= 3 * page.bodyHeight {
                if rows[end].segments.count >= 2 {
                    end += 1
                } else if end + 1 < rows.count, rows[end + 1].segments.count >= 2,
                          rows[end + 1].box.y - rows[end].box.maxY <= 3 * page.bodyHeight {
                    end += 2
                } else {
                    break
                }
            }
            if let table = table(from: Array(rows[start..<end])) {
                found.append(table)
            }
            start = end
        }
        return found
    }

    /// Lines grouped by height (overlapping by half the shorter), top to bottom, each cut at
    /// wide gaps.
    func visualRows(excluding excluded: Set<Int>) -> [VisualRow] {
        let lines = page.lines.filter { !excluded.contains($0.order) }.sorted { $0.box.midY < $1.box.midY }
        var rows: [VisualRow] = []
        for line in lines {
            let segments = split(line)
            if var last = rows.last,
               last.box.verticalOverlap(line.box) * 2 >= min(last.box.height, line.box.height) {
                last.lineOrders.append(line.order)
                last.segments = (last.segments + segments).sorted { $0.box.x < $1.box.x }
                last.box = last.box.union(line.box)
                rows[rows.count - 1] = last
            } else {
                rows.append(VisualRow(lineOrders: [line.order], segments: segments, box: line.box))
            }
        }
        return rows
    }

    func split(_ line: PageLine) -> [Segment] {
        var segments: [Segment] = []
        for word in line.words {
            if let last = segments.last, word.box.x - last.box.maxX < cellGap {
                segments[segments.count - 1].words.append(word)
                segments[segments.count - 1].box = last.box.union(word.box)
            } else {
                segments.append(Segment(words: [word], box: word.box))
            }
        }
        return segments
    }

    /// The table these rows make, or nil when they do not look like one (too few rows with
    /// several cells, prose-long cells, columns that do not line up).
    func table(from rows: [VisualRow]) -> Found? {
        let multi = rows.filter { $0.segments.count >= 2 }
        guard multi.count >= 3 else { return nil }
        // Columns from the rows with the usual number of cells: their segments' x-ranges merged
        // where they overlap.
        let counts = Dictionary(grouping: multi, by: \.segments.count)
        let usual = counts.max { ($0.value.count, $0.key) < ($1.value.count, $1.key) }!.key
        guard counts[usual]!.count * 2 >= multi.count else { return nil }
        var columns: [(x: Int, maxX: Int)] = []
        for segment in counts[usual]!.flatMap(\.segments).sorted(by: { $0.box.x < $1.box.x }) {
            if let last = columns.last, segment.box.x <= last.maxX {
                columns[columns.count - 1].maxX = max(last.maxX, segment.box.maxX)
            } else {
                columns.append((segment.box.x, segment.box.maxX))
            }
        }
        guard columns.count >= 2 else { return nil }
        let cellWords = multi.flatMap(\.segments).map(\.words.count)
        guard PageLines.median(cellWords)! <= 5 else { return nil }  // prose in columns, not cells

        var grid: [[TableCell]] = []
        var lineOrders = Set<Int>()
        var previous: VisualRow?
        for row in rows {
            lineOrders.formUnion(row.lineOrders)
            var cells: [TableCell] = []
            for segment in row.segments {
                let covered = columns.indices.filter { columns[$0].maxX > segment.box.x && columns[$0].x < segment.box.maxX }
                let first = covered.first ?? nearestColumn(to: segment.box, in: columns)
                let span = max(1, (covered.last ?? first) - first + 1)
                if let index = cells.lastIndex(where: { $0.column + $0.columnSpan > first }) {
                    // Two segments in one column (a gap inside a cell): one cell.
                    cells[index].text += " " + segment.text
                    cells[index].box = cells[index].box.map { $0.union(segment.box) } ?? segment.box
                } else {
                    cells.append(TableCell(text: segment.text, column: first, columnSpan: span, box: segment.box))
                }
            }
            // A row closer to the last than half a line, without a first cell, continues the
            // last row's cells (a cell's text wrapped onto a second line).
            if let previous, !grid.isEmpty, cells.first?.column ?? 0 > 0,
               row.box.y - previous.box.maxY < page.bodyHeight / 2,
               cells.allSatisfy({ cell in grid[grid.count - 1].contains { $0.column == cell.column && $0.columnSpan == cell.columnSpan } }) {
                for cell in cells {
                    let index = grid[grid.count - 1].firstIndex { $0.column == cell.column }!
                    grid[grid.count - 1][index].text += " " + cell.text
                    grid[grid.count - 1][index].box = grid[grid.count - 1][index].box.map { $0.union(cell.box!) } ?? cell.box
                }
            } else {
                grid.append(filled(cells, columns: columns.count))
            }
            previous = row
        }
        let box = PageBox.union(rows.map(\.box))!
        let table = TableBlock(rows: grid, headerRows: Self.headerRows(grid), columnCount: columns.count, box: box)
        return Found(table: table, lineOrders: lineOrders, order: lineOrders.min()!)
    }

    private func nearestColumn(to box: PageBox, in columns: [(x: Int, maxX: Int)]) -> Int {
        let center = box.x + box.width / 2
        return columns.indices.min { abs((columns[$0].x + columns[$0].maxX) / 2 - center) < abs((columns[$1].x + columns[$1].maxX) / 2 - center) }!
    }

    /// `cells` with an empty cell in every column none covers.
    private func filled(_ cells: [TableCell], columns: Int) -> [TableCell] {
        var row: [TableCell] = []
        var column = 0
        for cell in cells.sorted(by: { $0.column < $1.column }) {
            while column < cell.column {
                row.append(TableCell(text: "", column: column, box: nil))
                column += 1
            }
            row.append(cell)
            column = cell.column + cell.columnSpan
        }
        while column < columns {
            row.append(TableCell(text: "", column: column, box: nil))
            column += 1
        }
        return row
    }

    /// The first row is a header when none of its cells is a number while some column below
    /// it is mostly numbers, or when it spans columns (then the row under it too, if it holds
    /// no numbers either).
    static func headerRows(_ grid: [[TableCell]]) -> Int {
        guard grid.count >= 2 else { return 0 }
        let first = grid[0]
        let wordsOnly = { (row: [TableCell]) in !row.contains { isNumeric($0.text) } }
        guard wordsOnly(first) else { return 0 }
        if first.contains(where: { $0.columnSpan > 1 }) {
            return grid.count >= 3 && wordsOnly(grid[1]) ? 2 : 1
        }
        let body = grid.dropFirst()
        let columns = first.map(\.column)
        let numericColumn = columns.contains { column in
            let cells = body.compactMap { $0.first { $0.column == column && !$0.text.isEmpty } }
            return !cells.isEmpty && cells.filter { isNumeric($0.text) }.count * 2 >= cells.count
        }
        return numericColumn ? 1 : 0
    }

    /// An amount, a count, a percentage: digits with at most currency signs, separators,
    /// signs and parentheses around them.
    static func isNumeric(_ text: String) -> Bool {
        var digits = 0
        for character in text {
            if character.isNumber { digits += 1; continue }
            if "$€£¥%()+-−–,. ".contains(character) { continue }
            return false
        }
        return digits > 0
    }
}
