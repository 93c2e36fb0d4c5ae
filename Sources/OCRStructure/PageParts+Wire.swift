import OCRWire

/// `PageParts` as `PageResult.layout` carries them: boxes in the original image's pixels on the
/// wire, on the upright page here. What comes from the wire is a peer's word: a layout that does
/// not hold together (a box missing, a cell outside its table's grid, a heading size that is no
/// number) is refused whole, and the client analyses the page's words itself.
extension PageParts {
    /// The largest grid a table from the wire may have: a printed page holds far less.
    static let maximumColumns = 1024
    static let maximumCells = 1 << 20

    /// These parts (found on the page turned upright by `frame`) as the wire carries them.
    func wire(frame: UprightFrame) -> Ocr_V1_PageLayout {
        let parts = mappingBoxes(frame.original)
        var layout = Ocr_V1_PageLayout()
        layout.elements = parts.elements.compactMap(Self.wire)
        layout.topLines = parts.bands.top.map(Self.wireLine)
        layout.bottomLines = parts.bands.bottom.map(Self.wireLine)
        layout.detectedData = parts.detectedData.map { data in
            var out = Ocr_V1_LayoutData()
            out.kind = Self.wireKind(data.kind)
            out.text = data.text
            out.box = Ocr_V1_BoundingBox(data.box)
            return out
        }
        return layout
    }

    /// The parts of page `pageIndex` from its `layout`, turned upright by `frame`; nil for a
    /// layout that does not hold together.
    init?(wire layout: Ocr_V1_PageLayout, pageIndex: Int, frame: UprightFrame) {
        guard layout.topLines.count <= 2, layout.bottomLines.count <= 2 else { return nil }
        var elements: [ParagraphRoles.Element] = []
        for element in layout.elements {
            guard let found = Self.element(element) else { return nil }
            elements.append(found)
        }
        var data: [DetectedData] = []
        for item in layout.detectedData {
            guard let kind = Self.kind(item.kind), let box = item.box else { return nil }
            data.append(DetectedData(kind: kind, text: item.text, box: PageBox(box)))
        }
        guard let top = Self.lines(layout.topLines), let bottom = Self.lines(layout.bottomLines) else { return nil }
        self = PageParts(pageIndex: pageIndex, elements: elements,
                         bands: RunningText.Bands(pageIndex: pageIndex, top: top, bottom: bottom), detectedData: data)
            .mappingBoxes(frame.upright)
    }

    // MARK: to the wire

    private static func wire(_ element: ParagraphRoles.Element) -> Ocr_V1_LayoutElement? {
        var out = Ocr_V1_LayoutElement()
        switch element {
        case .heading(let candidate):
            var heading = Ocr_V1_LayoutHeading()
            heading.text = candidate.text
            heading.box = Ocr_V1_BoundingBox(candidate.box)
            heading.sizeRatio = candidate.sizeRatio
            heading.numberingDepth = UInt32(clamping: candidate.numberingDepth ?? 0)
            out.kind = .heading(heading)
        case .done(.paragraph(let block)): out.kind = .paragraph(wireText(block))
        case .done(.caption(let block)): out.kind = .caption(wireText(block))
        case .done(.footnote(let block)): out.kind = .footnote(wireText(block))
        case .done(.list(let list)):
            var wire = Ocr_V1_LayoutList()
            wire.ordered = list.isOrdered
            wire.box = Ocr_V1_BoundingBox(list.box)
            wire.items = list.items.map { item in
                var out = Ocr_V1_LayoutListItem()
                out.marker = item.marker
                out.text = item.text
                out.level = UInt32(clamping: item.level)
                out.box = Ocr_V1_BoundingBox(item.box)
                return out
            }
            out.kind = .list(wire)
        case .done(.table(let table)):
            var wire = Ocr_V1_LayoutTable()
            wire.headerRows = UInt32(clamping: table.headerRows)
            wire.columnCount = UInt32(clamping: table.columnCount)
            wire.box = Ocr_V1_BoundingBox(table.box)
            wire.rows = table.rows.map { row in
                var out = Ocr_V1_LayoutTableRow()
                out.cells = row.map { cell in
                    var out = Ocr_V1_LayoutTableCell()
                    out.text = cell.text
                    out.column = UInt32(clamping: cell.column)
                    out.columnSpan = UInt32(clamping: cell.columnSpan)
                    out.rowSpan = UInt32(clamping: cell.rowSpan)
                    out.box = cell.box.map(Ocr_V1_BoundingBox.init)
                    return out
                }
                return out
            }
            out.kind = .table(wire)
        case .done(.heading), .done(.pageHeader), .done(.pageFooter):
            return nil  // Levels and running text are the job's, never a page's alone.
        }
        return out
    }

    private static func wireText(_ block: TextBlock) -> Ocr_V1_LayoutText {
        var out = Ocr_V1_LayoutText()
        out.text = block.text
        out.box = Ocr_V1_BoundingBox(block.box)
        return out
    }

    private static func wireLine(_ line: TextBlock) -> Ocr_V1_LayoutLine {
        var out = Ocr_V1_LayoutLine()
        out.text = line.text
        out.box = Ocr_V1_BoundingBox(line.box)
        return out
    }

    /// Each kind of detected data and the wire's name for it.
    private static let kinds: [(DetectedData.Kind, Ocr_V1_DetectedDataKind)] = [
        (.date, .date), (.money, .money), (.phoneNumber, .phoneNumber), (.emailAddress, .emailAddress), (.link, .link),
    ]

    private static func wireKind(_ kind: DetectedData.Kind) -> Ocr_V1_DetectedDataKind {
        kinds.first { $0.0 == kind }!.1
    }

    // MARK: from the wire

    private static func element(_ element: Ocr_V1_LayoutElement) -> ParagraphRoles.Element? {
        switch element.kind {
        case .heading(let heading)?:
            guard let box = heading.box, heading.sizeRatio.isFinite, heading.sizeRatio > 0, heading.sizeRatio <= 1000,
                  heading.numberingDepth <= 64 else { return nil }
            return .heading(ParagraphRoles.HeadingCandidate(text: heading.text, box: PageBox(box), sizeRatio: heading.sizeRatio,
                                                            numberingDepth: heading.numberingDepth == 0 ? nil : Int(heading.numberingDepth)))
        case .paragraph(let text)?: return self.text(text).map { .done(.paragraph($0)) }
        case .caption(let text)?: return self.text(text).map { .done(.caption($0)) }
        case .footnote(let text)?: return self.text(text).map { .done(.footnote($0)) }
        case .list(let list)?:
            guard let box = list.box, !list.items.isEmpty else { return nil }
            var items: [ListItem] = []
            for item in list.items {
                guard let itemBox = item.box, item.level <= 5 else { return nil }
                items.append(ListItem(marker: item.marker, text: item.text, level: Int(item.level), box: PageBox(itemBox)))
            }
            return .done(.list(ListBlock(isOrdered: list.ordered, items: items, box: PageBox(box))))
        case .table(let table)?: return self.table(table).map { .done(.table($0)) }
        case nil: return nil
        }
    }

    private static func text(_ text: Ocr_V1_LayoutText) -> TextBlock? {
        text.box.map { TextBlock(text: text.text, box: PageBox($0)) }
    }

    private static func lines(_ lines: [Ocr_V1_LayoutLine]) -> [TextBlock]? {
        var out: [TextBlock] = []
        for line in lines {
            guard let box = line.box else { return nil }
            out.append(TextBlock(text: line.text, box: PageBox(box)))
        }
        return out
    }

    /// A table whose cells tile no more than its grid: each cell inside it, none over another.
    private static func table(_ table: Ocr_V1_LayoutTable) -> TableBlock? {
        let columns = Int(table.columnCount), rowCount = table.rows.count
        guard let box = table.box, (1...maximumColumns).contains(columns), rowCount > 0, rowCount * columns <= maximumCells,
              table.headerRows <= rowCount else { return nil }
        var taken = Set<Int>()  // row * columns + column of every grid position a cell covers
        var rows: [[TableCell]] = []
        for (rowIndex, row) in table.rows.enumerated() {
            var cells: [TableCell] = []
            for cell in row.cells {
                let column = Int(cell.column), columnSpan = max(1, Int(cell.columnSpan)), rowSpan = max(1, Int(cell.rowSpan))
                guard column + columnSpan <= columns, rowIndex + rowSpan <= rowCount else { return nil }
                for r in rowIndex..<(rowIndex + rowSpan) {
                    for c in column..<(column + columnSpan) where !taken.insert(r * columns + c).inserted { return nil }
                }
                cells.append(TableCell(text: cell.text, column: column, columnSpan: columnSpan, rowSpan: rowSpan, box: cell.box.map(PageBox.init)))
            }
            rows.append(cells)
        }
        return TableBlock(rows: rows, headerRows: Int(table.headerRows), columnCount: columns, box: PageBox(box))
    }

    private static func kind(_ kind: Ocr_V1_DetectedDataKind) -> DetectedData.Kind? {
        kinds.first { $0.1 == kind }?.0
    }
}

extension Ocr_V1_BoundingBox {
    /// The wire's box of `box`.
    init(_ box: PageBox) {
        self.init()
        (x, y, width, height) = (Int32(clamping: box.x), Int32(clamping: box.y), UInt32(clamping: box.width), UInt32(clamping: box.height))
    }
}
