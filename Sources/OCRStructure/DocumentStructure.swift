import OCRWire

/// The structure of a recognised document: each page's headings, paragraphs, lists and tables
/// in reading order, with running headers and footers set apart.
///
/// Per page it works from the words' boxes alone (tables from their alignment, headings from
/// their size, numbering or capitals, list items from their markers and indentation); across
/// pages it finds what repeats at the top and bottom of the job's pages, which no single page
/// shows, and ranks heading sizes over the whole document. Pure: the same pages give the same
/// structure.
public enum DocumentStructure {
    /// The structure of `pages` (a job's recognised pages, any order; a page without words
    /// gives no elements).
    public static func analyze(_ pages: [Ocr_V1_PageResult]) -> [PageStructure] {
        // Every rule holds on the page as it reads: a page the worker turned is analysed upright.
        let frames = Dictionary(pages.map { (Int($0.pageIndex), UprightFrame($0)) }, uniquingKeysWith: { a, _ in a })
        let pages = pages.map { frames[Int($0.pageIndex)]!.upright($0) }
        // Lines Tesseract ran from a column of prose into a ruled table beside it are cut at
        // the table's edge first, so that the table and the prose each get their own words.
        let measured = pages.map { page in
            let lines = PageLines(page)
            return lines.cut(at: RuledTables(page: lines).gridRegions())
        }
        let running = RunningText.find(in: measured)
        var pending: [(pageIndex: Int, elements: [(order: Int, element: ParagraphRoles.Element)], data: [DetectedData])] = []
        for (page, lines) in zip(pages, measured) {
            let repeated = running[Int(page.pageIndex)] ?? RunningText.PageRunning()
            let taken = repeated.headerLines.union(repeated.footerLines)
            // Tables drawn with rules first; then tables of aligned cells among the other lines.
            var tables = RuledTables(page: lines).tables().filter { $0.lineOrders.isDisjoint(with: taken) }
            let ruled = tables.reduce(into: taken) { $0.formUnion($1.lineOrders) }
            tables += TableDetection(page: lines).tables(excluding: ruled)
            let inTables = tables.reduce(into: taken) { $0.formUnion($1.lineOrders) }
            var elements = ParagraphRoles(page: lines).elements(excluding: inTables)
            elements += tables.map { ($0.order, .done(.table($0.table))) }
            elements.sort { $0.order < $1.order }
            elements = NoteRoles(page: lines, targets: tables.map(\.table.box) + lines.figures, excludedLines: taken).relabeled(elements)
            if let header = repeated.header(in: lines) { elements.insert((-1, .done(.pageHeader(header))), at: 0) }
            if let footer = repeated.footer(in: lines) { elements.append((Int.max, .done(.pageFooter(footer)))) }
            pending.append((Int(page.pageIndex), elements, DataDetection.find(in: lines)))
        }
        let levels = HeadingLevels(pending.flatMap { $0.elements.compactMap { if case .heading(let h) = $0.element { h } else { nil } } })
        let structures = pending.map { page in
            PageStructure(pageIndex: page.pageIndex, elements: page.elements.map { entry in
                switch entry.element {
                case .done(let element): element
                case .heading(let candidate): .heading(Heading(level: levels.level(of: candidate), text: candidate.text, box: candidate.box))
                }
            }, detectedData: page.data)
        }
        let widths = Dictionary(measured.map { ($0.pageIndex, $0.pageWidth) }, uniquingKeysWith: { a, _ in a })
        return ContinuedTables.marked(structures, widths: widths).map { frames[$0.pageIndex]!.original($0) }
    }
}

/// Heading levels over a document: the larger the type, the higher the heading (sizes within
/// 12% of each other are one level); headings of body size (numbered or in capitals) come
/// below every larger one, deeper by their section number's depth.
struct HeadingLevels {
    private let tiers: [Double]

    init(_ candidates: [ParagraphRoles.HeadingCandidate]) {
        var tiers: [Double] = []
        for ratio in candidates.map(\.sizeRatio).filter({ $0 > 1 }).sorted(by: >) {
            if let last = tiers.last, ratio >= last / 1.12 { continue }
            tiers.append(ratio)
        }
        self.tiers = tiers
    }

    func level(of candidate: ParagraphRoles.HeadingCandidate) -> Int {
        if candidate.sizeRatio > 1 {
            let tier = tiers.firstIndex { candidate.sizeRatio >= $0 / 1.12 } ?? tiers.count - 1
            return min(6, tier + 1)
        }
        return min(6, tiers.count + (candidate.numberingDepth ?? 1))
    }
}

/// Tables that go on across a page break: the last thing on a page (its running footer aside) is
/// a table, the first thing on the next page (its running header aside) is one with as many
/// columns, at the same place across the page (edges within a twentieth of the page's width).
enum ContinuedTables {
    static func marked(_ pages: [PageStructure], widths: [Int: Int]) -> [PageStructure] {
        var pages = pages
        let byIndex = Dictionary(pages.indices.map { (pages[$0].pageIndex, $0) }, uniquingKeysWith: { a, _ in a })
        for position in pages.indices {
            guard let next = byIndex[pages[position].pageIndex + 1],
                  case .table(let last)? = pages[position].elements.last(where: { !isRunning($0) }),
                  let firstIndex = pages[next].elements.firstIndex(where: { !isRunning($0) }),
                  case .table(var first) = pages[next].elements[firstIndex],
                  first.columnCount == last.columnCount else { continue }
            let tolerance = max(1, widths[pages[next].pageIndex] ?? 0) / 20
            guard abs(first.box.x - last.box.x) <= tolerance, abs(first.box.maxX - last.box.maxX) <= tolerance else { continue }
            first.continuesPreviousPage = true
            pages[next].elements[firstIndex] = .table(first)
        }
        return pages
    }

    private static func isRunning(_ element: StructureElement) -> Bool {
        switch element {
        case .pageHeader, .pageFooter: true
        default: false
        }
    }
}
