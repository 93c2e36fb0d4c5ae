/// Tables set side by side (a long list "snaked" into columns to fill the page: ages 0-39, then
/// 40-79, then 80 and over, each under its own "Age | Total population") line up row by row,
/// so the analysis finds them as one wide table whose header repeats. They are as many tables
/// as the header repeats: a reader, a spreadsheet or a search index wants each one's rows.
enum SideBySideTables {
    /// `found` as the tables it sets side by side, left to right; itself when its first row
    /// does not repeat one group of two or more headings across all its columns, or a cell
    /// spans from one group into the next. The first part keeps the lines the whole took.
    static func split(_ found: TableDetection.Found) -> [TableDetection.Found] {
        let table = found.table
        guard let header = table.rows.first, let width = repeatedGroupWidth(header, columns: table.columnCount),
              !table.rows.joined().contains(where: { $0.column / width != ($0.column + $0.columnSpan - 1) / width }) else { return [found] }
        var parts: [TableDetection.Found] = []
        for group in 0..<(table.columnCount / width) {
            let columns = group * width..<(group + 1) * width
            var rows = table.rows.map { row in
                row.filter { columns.contains($0.column) }.map { cell in
                    var cell = cell
                    cell.column -= columns.lowerBound
                    return cell
                }
            }
            // The last group is often shorter: its rows under the end of its list are empty and
            // go (only those: a row inside a part, empty there, may be under a cell's row span).
            while let last = rows.last, !last.contains(where: { !$0.text.isEmpty }) { rows.removeLast() }
            guard rows.count >= 2, let box = PageBox.union(rows.joined().compactMap(\.box)) else { continue }
            let part = TableBlock(rows: rows, headerRows: min(table.headerRows, rows.count), columnCount: width, box: box,
                                  continuesPreviousPage: group == 0 && table.continuesPreviousPage)
            parts.append(TableDetection.Found(table: part, lineOrders: parts.isEmpty ? found.lineOrders : [], order: found.order))
        }
        return parts.count >= 2 ? parts : [found]
    }

    /// The width of the group of headings `header` repeats across its `columns` (two groups
    /// at least, two headings each at least, every heading there and alone in its column), or
    /// nil.
    static func repeatedGroupWidth(_ header: [TableCell], columns: Int) -> Int? {
        guard header.count == columns, header.allSatisfy({ $0.columnSpan == 1 && $0.rowSpan == 1 && !$0.text.isEmpty }) else { return nil }
        let texts = header.sorted { $0.column < $1.column }.map { $0.text.lowercased().split(separator: " ").joined(separator: " ") }
        return (2...max(2, columns / 2)).first { width in
            columns % width == 0 && columns / width >= 2 && texts.indices.allSatisfy { texts[$0] == texts[$0 % width] }
        }
    }
}
