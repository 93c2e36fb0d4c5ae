/// Tables found from the alignment of word boxes across lines: a table is a run of visual rows
/// (lines side by side at one height, whatever blocks Tesseract put them in) that split at wide
/// gaps into short cells whose columns line up. It reads no rules (grids drawn with rules are
/// `RuledTables`'; it sees the lines those left).
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
            // Extend over rows of two or more cells, letting single-cell rows in when a
            // multi-cell row follows them: up to two at a time (a section and a subsection
            // label), and, once two rows of cells have shown how far apart rows stand, any
            // number of a cell's wrapped lines (`wrapsOn`; a caption's first line, "Table 3.
            // Actual and...", is a row of two cells whose second wraps).
            var end = start + 1
            func near(_ index: Int) -> Bool { rows[index].box.y - rows[index - 1].box.maxY <= 3 * page.bodyHeight }
            var probe = end, loose = 0
            var rowGaps: [Int] = []  // between rows of cells one right under the other
            while probe < rows.count, near(probe) {
                if rows[probe].segments.count >= 2 {
                    if rows[probe - 1].segments.count >= 2 { rowGaps.append(rows[probe].box.y - rows[probe - 1].box.maxY) }
                    probe += 1
                    (end, loose) = (probe, 0)
                    continue
                }
                if !wrapsOn(rows[probe], after: rows[probe - 1], under: rows[end - 1], rowGap: PageLines.median(rowGaps),
                            width: PageBox.union(rows[start..<probe].map(\.box))!.width) {
                    loose += 1
                    if loose > 2 { break }
                }
                probe += 1
            }
            if let table = table(from: Array(rows[start..<end])) {
                found.append(table)
                start = end
            } else {
                // Not a table as a whole (a bulleted list run into the table under it): try again
                // from the next row of cells after a row of one.
                start = (start + 1..<end).first { rows[$0 - 1].segments.count < 2 && rows[$0].segments.count >= 2 } ?? end
            }
        }
        return found
    }

    /// Whether a single-cell row goes on a cell of the row above: closer to it than half a
    /// line and than three fifths of the gap between the table's rows of cells (`rowGap`; a
    /// table set without space between its rows tells no wrapped line from a note under it),
    /// narrower than half the rows above it, and under at most one cell of the last row of
    /// cells (`cells`): a table's wrapped cell stays in its column; a note under the table
    /// runs across several.
    func wrapsOn(_ row: VisualRow, after previous: VisualRow, under cells: VisualRow, rowGap: Int?, width: Int) -> Bool {
        let gap = row.box.y - previous.box.maxY
        return row.segments.count == 1 && gap < page.bodyHeight / 2 && Self.isWrapGap(gap, rowGap: rowGap)
            && row.box.width * 2 < width && cells.segments.filter { $0.box.x < row.box.maxX && row.box.x < $0.box.maxX }.count <= 1
    }

    /// Whether `gap` is much closer than the gap between a table's rows (under three fifths of
    /// `rowGap`): a cell's wrapped line, not a row of its own. Without a row gap, never.
    static func isWrapGap(_ gap: Int, rowGap: Int?) -> Bool {
        rowGap.map { gap * 5 < $0 * 3 } ?? false
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

    /// The line cut at wide gaps and at vertical rules (read as `|`, alone or glued to a word).
    func split(_ line: PageLine) -> [Segment] {
        var segments: [Segment] = []
        var ruleBefore = false
        for word in line.words {
            let ruleAfter = word.text.count > 1 && word.text.last == "|"
            if word.text == "|" {
                ruleBefore = true
                continue
            }
            defer { ruleBefore = ruleAfter }
            if let last = segments.last, !ruleBefore, word.text.first != "|", word.box.x - last.box.maxX < cellGap {
                segments[segments.count - 1].words.append(word)
                segments[segments.count - 1].box = last.box.union(word.box)
            } else {
                segments.append(Segment(words: [word], box: word.box))
            }
        }
        return segments
    }

    /// The table these rows make, or nil when they do not look like one (too few rows with
    /// several cells, prose-long cells, no columns).
    func table(from rows: [VisualRow]) -> Found? {
        guard rows.filter({ $0.segments.count >= 2 }).count >= 3 else { return nil }
        let rows = rows.map(withoutRules)
        let rivers = self.columns(of: rows)
        let columns = Self.withoutHeaderOnlyColumns(rivers, cells: rows.map { self.cells(of: $0, in: rivers) })
        guard columns.count >= 2 else { return nil }

        var grid: [[TableCell]] = []
        var lineOrders = Set<Int>()
        var previous: VisualRow?
        // A header's phrase over several columns ("Current dollars") is one cell spanning them
        // when the header's next row has a heading of its own under it in two of them at least
        // (a group's heading; "Sample Percent" in a typewriter's type is two headings).
        var rowCells = rows.map { self.cells(of: $0, in: columns) }
        for r in (0..<Self.headerRowCount(rowCells)).reversed() where r + 1 < rows.count {
            let joined = cells(of: rows[r], in: columns, joiningPhrases: true)
            let groups = joined.filter { cell in !rowCells[r].contains { $0.column == cell.column && $0.columnSpan == cell.columnSpan } }
            let headed = groups.allSatisfy { group in
                rowCells[r + 1].filter { !$0.text.isEmpty && $0.column >= group.column && $0.column + $0.columnSpan <= group.column + group.columnSpan }.count >= 2
            }
            if headed { rowCells[r] = joined }
        }
        // How far apart the table's rows are: the median gap above a row with a first cell and
        // another (a wrapped cell's next line is closer to its first than rows are).
        let rowGap = PageLines.median(rows.indices.dropFirst().filter { rowCells[$0].count >= 2 && rowCells[$0].first?.column == 0 }
            .map { rows[$0].box.y - rows[$0 - 1].box.maxY })
        for (row, cells) in zip(rows, rowCells) {
            lineOrders.formUnion(row.lineOrders)
            let gap = row.box.y - (previous?.box.maxY ?? row.box.y)
            // A row closer to the last than half a line continues the last row's cells (a cell's
            // text wrapped onto a second line) when it has no first cell, or when it is much
            // closer than the table's rows are to each other and goes on a cell with text
            // (a label in the first column wrapped: the row is that one cell).
            // A row of several cells wraps too when it is that much closer, each of its cells
            // goes on one with text and it leaves two of those or more without a line (a row of
            // cells wrapped at once: "Immune" over "response", "1,040E-" over "09"; a total
            // under the last row, or a row short of its last cell, is no wrap).
            let above = grid.last?.filter { !$0.text.isEmpty } ?? []
            let wrapsWithFirstCell = cells.first?.column == 0 && Self.isWrapGap(gap, rowGap: rowGap)
                && (cells.count == 1 || cells.count + 2 <= above.count)
                && cells.allSatisfy { cell in above.contains { $0.column == cell.column } }
            if !grid.isEmpty, cells.first?.column ?? 0 > 0 || wrapsWithFirstCell,
               gap < page.bodyHeight / 2,
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
        let filledCells = grid.flatMap { $0 }.filter { !$0.text.isEmpty }
        guard grid.filter({ $0.filter { !$0.text.isEmpty }.count >= 2 }).count >= 3,
              PageLines.median(filledCells.map { $0.text.split(separator: " ").count })! <= 5 else { return nil }  // prose, not cells
        let box = PageBox.union(rows.map(\.box))!
        let table = TableBlock(rows: grid, headerRows: Self.headerRows(grid), columnCount: columns.count, box: box)
        return Found(table: table, lineOrders: lineOrders, order: lineOrders.min()!)
    }

    /// The row without the table's rules read as characters: Tesseract reads a vertical rule
    /// as `|` (alone, or glued to a cell's first or last word), and a rule is not text.
    func withoutRules(_ row: VisualRow) -> VisualRow {
        var row = row
        row.segments = row.segments.compactMap { segment in
            var segment = segment
            segment.words = segment.words.compactMap { word in
                var word = word
                word.text = String(word.text.drop { $0 == "|" }.reversed().drop { $0 == "|" }.reversed())
                return word.text.isEmpty ? nil : word
            }
            guard let box = PageBox.union(segment.words.map(\.box)) else { return nil }
            segment.box = box
            return segment
        }
        return row
    }

    /// The table's columns: the x-ranges between its rivers. A river is a strip wider than any
    /// space between words that the words of nearly every row leave empty (a title or a
    /// spanning header may cross it: one row in ten); over four rows or more it may be as narrow
    /// as one and a half spaces (dense listings set their columns close, and a space inside a
    /// cell does not line up with the next row's).
    /// `crossings`: how many rows may cross a river (by default one in ten).
    func columns(of rows: [VisualRow], crossings: Int? = nil) -> [(x: Int, maxX: Int)] {
        let words = rows.flatMap { $0.segments.flatMap(\.words) }
        guard let left = words.map(\.box.x).min(), let farthest = words.map(\.box.maxX).max(), farthest > left else { return [] }
        // A page is at most a few thousand pixels wide; boxes past 64k (a peer's nonsense) are cut.
        let right = min(farthest, left + 1 << 16)
        var crossing = [Int](repeating: 0, count: right - left)
        for row in rows {
            var covered = [Bool](repeating: false, count: right - left)
            for word in row.segments.flatMap(\.words) where word.box.x < right {
                for x in (word.box.x - left)..<(min(word.box.maxX, right) - left) { covered[x] = true }
            }
            for x in covered.indices where covered[x] { crossing[x] += 1 }
        }
        let allowed = crossings ?? rows.count / 10
        let wide = max(2 * page.wordGap, page.bodyHeight / 2)
        let narrow = rows.count >= 4 ? max(page.wordGap * 3 / 2, page.bodyHeight / 4) : wide
        var columns: [(x: Int, maxX: Int)] = []
        var columnStart = 0
        var x = 0
        while x < crossing.count {
            guard crossing[x] <= allowed else { x += 1; continue }
            let start = x
            while x < crossing.count, crossing[x] <= allowed { x += 1 }
            if x - start >= narrow, x < crossing.count {
                if start > columnStart { columns.append((left + columnStart, left + start)) }
                columnStart = x
            }
        }
        columns.append((left + columnStart, right))
        return columns
    }

    /// How many rows of a table's cells (by rows) its header has at most: those above the first
    /// row with two numbers, at most half the rows (one when no row has two numbers).
    static func headerRowCount(_ cells: [[TableCell]]) -> Int {
        let firstNumbers = cells.firstIndex { row in row.filter { isNumeric($0.text) }.count >= 2 } ?? 1
        return min(firstNumbers, cells.count / 2)
    }

    /// `columns` with each column that only the header's rows have words in (`headerRowCount`,
    /// of a table of six rows or more) joined to the nearer of its neighbours: a header's words
    /// set over a column of right-aligned numbers ("Fall enrollment", "(in thousands)") leave
    /// rivers between them that no row of the body crosses, and are one heading, not columns.
    static func withoutHeaderOnlyColumns(_ columns: [(x: Int, maxX: Int)], cells: [[TableCell]]) -> [(x: Int, maxX: Int)] {
        guard cells.count >= 6, columns.count >= 3 else { return columns }
        let header = headerRowCount(cells)
        func isHeaderOnly(_ column: Int) -> Bool {
            let rows = cells.indices.filter { r in cells[r].contains { $0.column == column && !$0.text.isEmpty } }
            return !rows.isEmpty && rows.allSatisfy { $0 < header }
        }
        var merged = columns
        var kept = Array(columns.indices)  // the original column each merged one started as
        var index = 0
        while index < merged.count, merged.count > 2 {
            guard isHeaderOnly(kept[index]) else { index += 1; continue }
            let left = index > 0 ? merged[index].x - merged[index - 1].maxX : Int.max
            let right = index + 1 < merged.count ? merged[index + 1].x - merged[index].maxX : Int.max
            let other = left <= right ? index - 1 : index + 1
            let (a, b) = (min(index, other), max(index, other))
            merged[a] = (merged[a].x, merged[b].maxX)
            kept[a] = isHeaderOnly(kept[a]) ? kept[b] : kept[a]
            merged.remove(at: b)
            kept.remove(at: b)
            index = a
        }
        return merged
    }

    /// A row's cells: its words left to right, a new cell wherever a word starts past the
    /// columns the cell covers; a word across a river makes its cell span, and so does a word
    /// a space from the last when `joiningPhrases` (a header's phrase over several columns).
    func cells(of row: VisualRow, in columns: [(x: Int, maxX: Int)], joiningPhrases: Bool = false) -> [TableCell] {
        var cells: [TableCell] = []
        for word in row.segments.flatMap(\.words) {
            let covered = columns.indices.filter { columns[$0].maxX > word.box.x && columns[$0].x < word.box.maxX }
            let first = covered.first ?? nearestColumn(to: word.box, in: columns)
            let last = covered.last ?? first
            let sameLine = cells.last?.box.map { $0.verticalOverlap(word.box) * 2 >= min($0.height, word.box.height) } ?? false
            let inPhrase = joiningPhrases && sameLine && (cells.last?.box).map { word.box.x - $0.maxX < 2 * page.wordGap } == true
            if var cell = cells.last, first < cell.column + cell.columnSpan || inPhrase {
                cell.text += " " + word.text
                cell.box = cell.box.map { $0.union(word.box) } ?? word.box
                cell.columnSpan = max(cell.columnSpan, last - cell.column + 1)
                cells[cells.count - 1] = cell
            } else {
                cells.append(TableCell(text: word.text, column: first, columnSpan: last - first + 1, box: word.box))
            }
        }
        return cells
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
