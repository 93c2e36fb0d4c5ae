import OCRWire

/// One page's structure as the page alone shows it: its elements in reading order (headings
/// still to be levelled), where its running lines would be, and the data in its text. Found
/// where the page is (the worker sends it as `PageResult.layout`) or, for a page without it,
/// by the client; `DocumentStructure` puts the job's pages together.
struct PageParts: Equatable {
    var pageIndex: Int
    /// Headings, paragraphs, lists, tables, captions and footnotes in reading order; a running
    /// header's or footer's lines are still among them.
    var elements: [ParagraphRoles.Element]
    var bands: RunningText.Bands
    var detectedData: [DetectedData]

    /// The parts of `page` (turned upright), with the lines whose middles are inside
    /// `running` (the job's running headers and footers on it) taken out first.
    static func analyze(_ page: Ocr_V1_PageResult, running: [PageBox] = []) -> PageParts {
        // Lines Tesseract ran from a column of prose into a ruled table beside it are cut at
        // the table's edge first, so that the table and the prose each get their own words.
        let whole = PageLines(page)
        let lines = whole.cut(at: RuledTables(page: whole).gridRegions())
        let bands = RunningText.Bands(lines)
        let taken = Set(lines.lines.filter { line in running.contains { $0.contains(x: line.box.midX, y: line.box.midY) } }.map(\.order))
        // Tables drawn with rules first; then tables of aligned cells among the other lines.
        var tables = RuledTables(page: lines).tables().filter { $0.lineOrders.isDisjoint(with: taken) }
        let ruled = tables.reduce(into: taken) { $0.formUnion($1.lineOrders) }
        tables += TableDetection(page: lines).tables(excluding: ruled)
        tables = tables.flatMap(SideBySideTables.split)
        let inTables = tables.reduce(into: taken) { $0.formUnion($1.lineOrders) }
        var elements = ParagraphRoles(page: lines).elements(excluding: inTables)
        elements += tables.map { ($0.order, .done(.table($0.table))) }
        // (stable: tables set side by side share their order, and keep theirs left to right)
        elements = elements.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
        // What may be a running line is no body text under a footnote, whatever the job says,
        // so that a page's notes are the same found alone or in its job.
        let bandLines = lines.lines.filter { line in (bands.top + bands.bottom).contains { $0.box == line.box } }
        elements = NoteRoles(page: lines, targets: tables.map(\.table.box) + lines.figures, bodyExcluded: Set(bandLines.map(\.order)))
            .relabeled(elements)
        return PageParts(pageIndex: lines.pageIndex, elements: elements.map(\.element), bands: bands,
                         detectedData: DataDetection.find(in: lines))
    }

    /// The elements with those that are nothing but running lines (boxes in `running`) left
    /// out; nil when a running line is part of a larger element (a paragraph or table that
    /// took it in), which only analysing the page without it sets right.
    func elements(without running: [PageBox]) -> [ParagraphRoles.Element]? {
        var kept: [ParagraphRoles.Element] = []
        for element in elements {
            let box = element.box
            let inside = running.filter { box.contains(x: $0.midX, y: $0.midY) }
            if inside.isEmpty {
                kept.append(element)
            } else if let lines = PageBox.union(inside), lines.x <= box.x, lines.y <= box.y, lines.maxX >= box.maxX, lines.maxY >= box.maxY {
                continue
            } else {
                return nil
            }
        }
        return kept
    }

    /// These parts with every box moved by `map`.
    func mappingBoxes(_ map: (PageBox) -> PageBox) -> PageParts {
        var parts = self
        parts.elements = elements.map { $0.mappingBoxes(map) }
        parts.bands.top = bands.top.map { $0.mappingBox(map) }
        parts.bands.bottom = bands.bottom.map { $0.mappingBox(map) }
        parts.detectedData = detectedData.map { $0.mappingBox(map) }
        return parts
    }
}
