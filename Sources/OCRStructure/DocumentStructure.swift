import OCRWire

/// The structure of a recognised document: each page's headings, paragraphs, lists and tables
/// in reading order, with running headers and footers set apart.
///
/// Per page it works from the words' boxes alone (tables from their alignment, headings from
/// their size, numbering or capitals, list items from their markers and indentation): the
/// worker does that part where the page is (`PageResult.layout`), and a page from an older
/// worker is analysed here. Across pages it finds what repeats at the top and bottom of the
/// job's pages, which no single page shows, ranks heading sizes over the whole document, and
/// joins tables continued across a page break. Pure: the same pages give the same structure.
public enum DocumentStructure {
    /// The structure of `pages` (a job's recognised pages, any order; a page without words
    /// gives no elements).
    public static func analyze(_ pages: [Ocr_V1_PageResult]) -> [PageStructure] {
        // Every rule holds on the page as it reads: a page the worker turned is analysed upright.
        let frames = Dictionary(pages.map { (Int($0.pageIndex), UprightFrame($0)) }, uniquingKeysWith: { a, _ in a })
        let upright = pages.map { frames[Int($0.pageIndex)]!.upright($0) }
        let parts = zip(pages, upright).map { page, turned in
            let frame = frames[Int(page.pageIndex)]!
            return page.layout.flatMap { PageParts(wire: $0, pageIndex: Int(page.pageIndex), frame: frame) } ?? PageParts.analyze(turned)
        }
        let running = RunningText.find(in: parts.map(\.bands))
        var pending: [(pageIndex: Int, elements: [ParagraphRoles.Element], data: [DetectedData])] = []
        for (page, found) in zip(upright, parts) {
            let repeated = running[found.pageIndex] ?? RunningText.PageRunning()
            var elements = found.elements
            if !repeated.boxes.isEmpty {
                elements = found.elements(without: repeated.boxes) ?? PageParts.analyze(page, running: repeated.boxes).elements
            }
            if let header = repeated.header { elements.insert(.done(.pageHeader(header)), at: 0) }
            if let footer = repeated.footer { elements.append(.done(.pageFooter(footer))) }
            pending.append((found.pageIndex, elements, found.detectedData))
        }
        let levels = HeadingLevels(pending.flatMap { $0.elements.compactMap { if case .heading(let h) = $0 { h } else { nil } } })
        let structures = pending.map { page in
            PageStructure(pageIndex: page.pageIndex, elements: page.elements.map { element in
                switch element {
                case .done(let element): element
                case .heading(let candidate): .heading(Heading(level: levels.level(of: candidate), text: candidate.text, box: candidate.box))
                }
            }, detectedData: page.data)
        }
        let widths = Dictionary(upright.map { (Int($0.pageIndex), Int($0.width)) }, uniquingKeysWith: { a, _ in a })
        return ContinuedTables.marked(structures, widths: widths).map { frames[$0.pageIndex]!.original($0) }
    }

    /// What `page` shows of its structure on its own, for `PageResult.layout`: nil for a page
    /// without words.
    package static func layout(of page: Ocr_V1_PageResult) -> Ocr_V1_PageLayout? {
        let frame = UprightFrame(page)
        let parts = PageParts.analyze(frame.upright(page))
        guard !parts.elements.isEmpty else { return nil }
        return parts.wire(frame: frame)
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
