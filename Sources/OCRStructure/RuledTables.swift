/// Tables drawn with rules: grids of the page's ruling lines (`PageResult.rules`, found by the
/// worker), the cells between them, a cell spanning where the rule between two cells is
/// missing, and each line's words put in the cell their centres fall in.
struct RuledTables {
    let page: PageLines

    /// Rules closer than this are one (a double rule, a rule drawn in two strokes).
    var tolerance: Int { max(4, page.bodyHeight / 3) }

    func tables() -> [TableDetection.Found] {
        var found: [TableDetection.Found] = []
        for group in pageGrids() {
            if let table = table(group.horizontal, group.vertical), !found.contains(where: { $0.lineOrders.isDisjoint(with: table.lineOrders) == false }) {
                found.append(table)
            }
        }
        return found
    }

    /// Where the page's ruled grids are (a grid's rules' union), for cutting the lines
    /// Tesseract ran across their edges (`PageLines.cut(at:)`).
    func gridRegions() -> [PageBox] {
        pageGrids().compactMap { PageBox.union($0.horizontal + $0.vertical) }
    }

    /// The page's rules grouped into grids (`grids`).
    func pageGrids() -> [(horizontal: [PageBox], vertical: [PageBox])] {
        // A page's tables have hundreds of rules at most; thousands are hatching or a peer's
        // nonsense, and the crossings are counted pair by pair.
        guard page.rules.count <= 2000 else { return [] }
        return grids(page.rules.filter { $0.width > $0.height }, page.rules.filter { $0.height >= $0.width })
    }

    /// Rules that touch each other, grouped (union-find over crossings): a grid needs two
    /// horizontal and two vertical rules at least.
    func grids(_ horizontal: [PageBox], _ vertical: [PageBox]) -> [(horizontal: [PageBox], vertical: [PageBox])] {
        let all = horizontal + vertical
        var parent = Array(all.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        let t = tolerance
        for (hi, h) in horizontal.enumerated() {
            for (vi, v) in vertical.enumerated()
            where v.x - t <= h.maxX && h.x - t <= v.maxX && h.y - t <= v.maxY && v.y - t <= h.maxY {
                parent[root(hi)] = root(horizontal.count + vi)
            }
        }
        var groups: [Int: (horizontal: [PageBox], vertical: [PageBox])] = [:]
        for index in all.indices {
            let key = root(index)
            if index < horizontal.count {
                groups[key, default: ([], [])].horizontal.append(all[index])
            } else {
                groups[key, default: ([], [])].vertical.append(all[index])
            }
        }
        // Top to bottom, then left to right: two grids side by side under one top rule must not
        // come in the dictionary's order, which changes from process to process (the first
        // grid takes the lines both could hold).
        func corner(_ group: (horizontal: [PageBox], vertical: [PageBox])) -> (Int, Int) {
            let box = PageBox.union(group.horizontal + group.vertical)
            return (box?.y ?? 0, box?.x ?? 0)
        }
        return groups.sorted { $0.key < $1.key }.map(\.value)
            .filter { $0.horizontal.count >= 2 && $0.vertical.count >= 2 }
            .sorted { corner($0) < corner($1) }
    }

    /// Positions closer than the tolerance merged (their mean).
    func boundaries(_ positions: [Int]) -> [Int] {
        var clusters: [[Int]] = []
        for position in positions.sorted() {
            if let last = clusters.last?.last, position - last <= tolerance {
                clusters[clusters.count - 1].append(position)
            } else {
                clusters.append([position])
            }
        }
        return clusters.map { $0.reduce(0, +) / $0.count }
    }

    /// The visual rows (`TableDetection.visualRows`) of these lines, rules read as `|` left out.
    func visualRows(of lines: [PageLine]) -> [TableDetection.VisualRow] {
        let detection = TableDetection(page: page)
        let others = Set(page.lines.map(\.order)).subtracting(lines.map(\.order))
        return detection.visualRows(excluding: others).map(detection.withoutRules)
    }

    /// Row boundaries without rules: between the visual rows of a ruled row that holds
    /// several, in a table where no more ruled rows hold one line than hold several (rules above
    /// and under a table's body only), when every one of them has words in the first column and
    /// in more than half of the columns (a header's lines, wrapped in several cells at once,
    /// leave its first column empty; a row's cells wrapped onto a second line leave most of its
    /// columns empty there).
    func unruledRows(of rows: [TableDetection.VisualRow], between ruled: [Int], columns xs: [Int]) -> [Int] {
        let bands = zip(ruled, ruled.dropFirst()).map { top, bottom in rows.filter { $0.box.midY > top && $0.box.midY < bottom } }
        // Where the rules do part most rows, a ruled row of several lines is one row.
        guard bands.filter({ $0.count == 1 }).count <= bands.filter({ $0.count >= 2 }).count else { return [] }
        var boundaries: [Int] = []
        for band in bands {
            guard band.count >= 2 else { continue }
            let rowLike = band.allSatisfy { row in
                let columns = columnsHolding(row, xs)
                return columns.contains(0) && columns.count >= 2 && columns.count * 2 > xs.count - 1
            }
            if rowLike {
                boundaries += zip(band, band.dropFirst()).map { ($0.box.maxY + $1.box.y) / 2 }
            }
        }
        return boundaries
    }

    /// Which of the columns between the boundaries `xs` the row's words are in.
    func columnsHolding(_ row: TableDetection.VisualRow, _ xs: [Int]) -> Set<Int> {
        Set(row.segments.flatMap(\.words).map { word in xs.lastIndex { $0 <= word.box.midX } ?? 0 })
    }

    /// The rows right under a grid's last rule that keep its columns (boundaries `xs`), with
    /// words in more than half of them and none across them, each within a line of the one
    /// above: a total under a double rule with no rule below it, not a note under the table.
    func rowsBelow(_ region: PageBox, columns xs: [Int]) -> [TableDetection.VisualRow] {
        let candidates = visualRows(of: page.lines.filter { $0.box.midY > region.maxY && region.x <= $0.box.midX && $0.box.midX <= region.maxX })
        var rows: [TableDetection.VisualRow] = []
        for row in candidates.sorted(by: { $0.box.y < $1.box.y }) {
            let columns = columnsHolding(row, xs)
            let crosses = row.segments.flatMap(\.words).contains { word in xs.dropFirst().dropLast().contains { word.box.x < $0 && word.box.maxX > $0 } }
            guard row.box.y - (rows.last?.box.maxY ?? region.maxY) <= page.bodyHeight, row.segments.count >= 2, columns.count >= 2,
                  columns.count * 2 > xs.count - 1, !crosses else { break }
            rows.append(row)
        }
        return rows
    }

    /// Column boundaries without rules: the middles of the rivers the words of these lines
    /// leave (an unruled table's rivers, `TableDetection.columns`, which a header may cross),
    /// each taken inside the ruled column it lies in and kept where it is wider than a line is
    /// high (a space between words never is) and most of the rows with words in that column
    /// have words on both sides of it (the empty end of a ruled cell, or a header over its
    /// cell, makes no column).
    func unruledBoundaries(of rows: [TableDetection.VisualRow], between ruled: [Int]) -> [Int] {
        guard rows.count >= 2 else { return [] }
        let detection = TableDetection(page: page)
        let columns = detection.columns(of: rows, crossings: max(1, rows.count / 5))
        let centres = rows.map { $0.segments.flatMap(\.words).map(\.box.midX) }
        var boundaries: [Int] = []
        for (left, right) in zip(columns, columns.dropFirst()) {
            for (low, high) in zip(ruled, ruled.dropFirst()) where left.maxX < high && right.x > low {
                let (start, end) = (max(left.maxX, low), min(right.x, high))
                let middle = (start + end) / 2
                let inColumn = centres.filter { $0.contains { $0 > low && $0 < high } }
                let split = inColumn.filter { $0.contains { $0 > low && $0 < middle } && $0.contains { $0 > middle && $0 < high } }
                if end - start >= page.bodyHeight, split.count >= 2, split.count * 2 >= inColumn.count {
                    boundaries.append(middle)
                }
            }
        }
        return boundaries
    }

    func table(_ horizontal: [PageBox], _ vertical: [PageBox]) -> TableDetection.Found? {
        var region = PageBox.union(horizontal + vertical)!
        // Row and column boundaries: the rules' centres, and the region's edges (a table often
        // has no outer vertical rules).
        var ruledYs = boundaries(horizontal.map(\.midY) + [region.y, region.maxY])
        let ruledXs = boundaries(vertical.map { $0.x + $0.width / 2 } + [region.x, region.maxX])
        guard ruledYs.count >= 2, ruledXs.count >= 3 || ruledYs.count >= 3 else { return nil }

        // Which cell each of the table's lines' words goes in: lines whose centre is inside.
        var lines = page.lines.filter { line in
            let cx = line.box.x + line.box.width / 2, cy = line.box.midY
            return cx >= region.x && cx <= region.maxX && cy >= region.y && cy <= region.maxY
        }
        guard !lines.isEmpty else { return nil }
        let t = tolerance
        // Columns the rules leave out (a frame with rules between the rows only, or some
        // columns ruled and others not) are where the words leave rivers: boundaries without
        // a rule, which a cell spans only where a word crosses them.
        var visualRows = visualRows(of: lines)
        let unruled = unruledBoundaries(of: visualRows, between: ruledXs)
        let xs = (ruledXs + unruled).sorted()
        let ruledBottom = region.maxY
        let below = rowsBelow(region, columns: xs)
        if let bottom = below.last?.box.maxY {
            visualRows += below
            lines += page.lines.filter { line in below.contains { $0.lineOrders.contains(line.order) } }
            region = region.union(PageBox(x: region.x, y: region.maxY, width: region.width, height: bottom - region.maxY))
            ruledYs.append(bottom)
        }
        let unruledYs = unruledRows(of: visualRows, between: ruledYs, columns: xs)
        let ys = (ruledYs + unruledYs).sorted()
        let rowCount = ys.count - 1, columnCount = xs.count - 1
        // More rows or columns than a page can hold is hatching or a peer's nonsense, not a grid.
        guard rowCount >= 1, columnCount >= 1, rowCount * columnCount >= 4, rowCount <= 300, columnCount <= 100 else { return nil }
        func index(_ value: Int, in bounds: [Int]) -> Int {
            let i = (bounds.lastIndex { $0 <= value } ?? 0)
            return min(max(0, i), bounds.count - 2)
        }
        // Spans: a boundary between two neighbouring cells without a rule along it joins them.
        var owner = Array(0..<(rowCount * columnCount))
        func find(_ i: Int) -> Int {
            var i = i
            while owner[i] != i { i = owner[i] }
            return i
        }
        func ruled(at x: Int, from top: Int, to bottom: Int) -> Bool {
            vertical.contains { abs(($0.x + $0.width / 2) - x) <= t && $0.y <= top + t * 2 && $0.maxY >= bottom - t * 2 }
        }
        // A boundary ruled in most rows is a grid line: a row where its rule is missing has a
        // cell spanning it. One ruled in few rows (rules between the header's cells only) or in
        // none (a river) divides every row, except where a word crosses it.
        let gridLines = Set(xs.dropFirst().dropLast().filter { x in
            (0..<rowCount).filter { ruled(at: x, from: ys[$0], to: ys[$0 + 1]) }.count * 2 >= rowCount
        })
        func vertRule(at x: Int, from top: Int, to bottom: Int) -> Bool {
            // (rows under the rules are divided as unruled ones are)
            if gridLines.contains(x), bottom <= ruledBottom { return ruled(at: x, from: top, to: bottom) }
            return !lines.contains { line in
                line.words.contains { $0.box.midY >= top && $0.box.midY < bottom && $0.box.x < x && $0.box.maxX > x && $0.text != "|" }
            }
        }
        func horizRule(at y: Int, from left: Int, to right: Int) -> Bool {
            unruledYs.contains(y) || horizontal.contains { abs($0.midY - y) <= t && $0.x <= left + t * 2 && $0.maxX >= right - t * 2 }
        }
        for r in 0..<rowCount {
            for c in 0..<columnCount {
                if c + 1 < columnCount, !vertRule(at: xs[c + 1], from: ys[r], to: ys[r + 1]) {
                    owner[find(r * columnCount + c + 1)] = find(r * columnCount + c)
                }
                if r + 1 < rowCount, !horizRule(at: ys[r + 1], from: xs[c], to: xs[c + 1]) {
                    owner[find((r + 1) * columnCount + c)] = find(r * columnCount + c)
                }
            }
        }
        // Each merged group's rectangle; a group that is not a rectangle is left as its cells.
        var members: [Int: [(r: Int, c: Int)]] = [:]
        for r in 0..<rowCount {
            for c in 0..<columnCount { members[find(r * columnCount + c), default: []].append((r, c)) }
        }
        var anchor: [Int: (r: Int, c: Int, rows: Int, columns: Int)] = [:]  // by cell index
        var covered = Set<Int>()
        for cells in members.values {
            let r0 = cells.map(\.r).min()!, r1 = cells.map(\.r).max()!, c0 = cells.map(\.c).min()!, c1 = cells.map(\.c).max()!
            if cells.count == (r1 - r0 + 1) * (c1 - c0 + 1) {
                anchor[r0 * columnCount + c0] = (r0, c0, r1 - r0 + 1, c1 - c0 + 1)
                for cell in cells where !(cell.r == r0 && cell.c == c0) { covered.insert(cell.r * columnCount + cell.c) }
            } else {
                for cell in cells { anchor[cell.r * columnCount + cell.c] = (cell.r, cell.c, 1, 1) }
            }
        }
        // Words into the anchor of the cell their centre is in.
        var words: [Int: [(y: Int, x: Int, text: String, box: PageBox)]] = [:]
        var linesIn: [Int: Set<Int>] = [:]  // which lines each cell's words come from
        for line in lines {
            for word in line.words {
                var r = index(word.box.midY, in: ys), c = index(word.box.x + word.box.width / 2, in: xs)
                let cell = r * columnCount + c
                if covered.contains(cell) {
                    let owner = anchor.values.first { r >= $0.r && r < $0.r + $0.rows && c >= $0.c && c < $0.c + $0.columns }!
                    (r, c) = (owner.r, owner.c)
                }
                let text = String(word.text.drop { $0 == "|" }.reversed().drop { $0 == "|" }.reversed())  // a rule read as a bar
                if !text.isEmpty {
                    words[r * columnCount + c, default: []].append((line.box.midY, word.box.x, text, word.box))
                    linesIn[r * columnCount + c, default: []].insert(line.order)
                }
            }
        }
        // Rules that frame blocks of text (a box around a page's parts, a form's sections, the
        // rules under a header above an unruled body) are not a table's grid: in a table most
        // of the text sits in cells of a line or two.
        let inTallCells = linesIn.values.filter { $0.count >= 3 }.reduce(0) { $0 + $1.count }
        let total = linesIn.values.reduce(0) { $0 + $1.count }
        guard linesIn.count >= 4, inTallCells * 2 < total else { return nil }
        var grid: [[TableCell]] = []
        for r in 0..<rowCount {
            var row: [TableCell] = []
            for c in 0..<columnCount {
                guard let a = anchor[r * columnCount + c] else { continue }
                let inCell = (words[r * columnCount + c] ?? []).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
                let text = inCell.map(\.text).joined(separator: " ")
                row.append(TableCell(text: text, column: c, columnSpan: a.columns, rowSpan: a.rows, box: PageBox.union(inCell.map(\.box))))
            }
            grid.append(row)
        }
        // Rows with no text at all and no span across them (between a double rule) go.
        let spanned = Set(covered.map { $0 / columnCount })
        let kept = grid.indices.filter { r in grid[r].contains { !$0.text.isEmpty || $0.rowSpan > 1 } || spanned.contains(r) }.map { grid[$0] }
        guard kept.count >= 2 else { return nil }
        let orders = Set(lines.map(\.order))
        let table = TableBlock(rows: kept, headerRows: TableDetection.headerRows(kept), columnCount: columnCount, box: region)
        return TableDetection.Found(table: table, lineOrders: orders, order: orders.min()!)
    }
}
