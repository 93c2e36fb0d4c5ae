@testable import OCRStructure
import OCRTestSupport
import OCRWire
import Testing

/// The worker finds what a page shows of its structure on its own (`PageResult.layout`); the
/// client puts the job together from it. Either way the structure is the one the words give:
/// a client that analyses every page itself finds the same, and a layout that does not hold
/// together is refused and the words analysed instead.
@Suite struct PageLayoutTests {
    private static let body = [
        "The committee met on Tuesday to review the annual figures and the",
        "plans for the coming year, which are set out in the sections below.",
        "Each section names the people who will carry the work forward.",
    ]

    /// `pages` as a worker sends them: each with its layout.
    private static func withLayouts(_ pages: [Ocr_V1_PageResult]) throws -> [Ocr_V1_PageResult] {
        try pages.map { page in
            var page = page
            page.layout = try #require(DocumentStructure.layout(of: page))
            return page
        }
    }

    /// A report of three pages: a running header, a heading, a list, a ruled table, footnotes
    /// and a page number, the last page's list running down to its page number.
    private static var report: [Ocr_V1_PageResult] {
        (0..<3).map { index in
            var page = PageBuilder()
            page.pageIndex = index
            page.paragraph(["ACME Corporation Annual Report 2014"], y: 100)
            page.paragraph(["Section \(index + 1)"], y: 400, height: 80)
            page.paragraph(body, y: 560)
            page.ruledSitesTable(top: 900)
            page.paragraph(body, y: 1400)
            if index == 2 {
                page.paragraph(["• Apples from the orchard", "• Pears from the south wall"], y: 3100)
            } else {
                page.paragraph(["1 The figures are unaudited."], y: 3180, height: 30)
            }
            page.paragraph(["\(index + 1)"], x: 1200, y: 3300)
            return page.page
        }
    }

    @Test func theJobFromItsWorkersLayoutsIsTheJobFromItsWords() throws {
        let local = DocumentStructure.analyze(Self.report)
        // Not vacuous: running text on every page, and the last page's page number is taken
        // out of the list that ran on into it.
        for page in local {
            guard case .pageHeader? = page.elements.first, case .pageFooter? = page.elements.last else {
                Issue.record("page \(page.pageIndex): no running header and footer in \(page.elements)")
                continue
            }
        }
        guard case .list(let list)? = local[2].elements.dropLast().last else {
            Issue.record("the last page ends in \(local[2].elements)")
            return
        }
        #expect(list.items.map(\.text) == ["Apples from the orchard", "Pears from the south wall"])
        #expect(local[2].elements.contains { if case .table = $0 { true } else { false } })
        #expect(DocumentStructure.analyze(try Self.withLayouts(Self.report)) == local)
    }

    @Test func aLayoutOfTheLastPageHoldsTheRunningLinesItDoesNotKnowAbout() throws {
        let layout = try #require(DocumentStructure.layout(of: Self.report[2]))
        // The page alone: its page number is where the list ends, and its header a paragraph.
        guard case .list(let list)? = layout.elements.last?.kind else {
            Issue.record("\(layout.elements.last.map { "\($0)" } ?? "nothing") ends the page")
            return
        }
        #expect(list.items.last?.text == "Pears from the south wall 3")
        #expect(layout.topLines.map(\.text) == ["ACME Corporation Annual Report 2014"])
        #expect(layout.bottomLines.map(\.text) == ["3", "• Pears from the south wall"])
    }

    @Test(arguments: [90, 180, 270])
    func aTurnedPagesLayoutIsInTheOriginalPixels(degrees: Int) throws {
        let stored = TurnedPageTests.stored(TurnedPageTests.upright.page, turnedBy: degrees)
        let local = DocumentStructure.analyze([stored])
        try #require(local[0].elements.count == 5)
        let layout = try #require(DocumentStructure.layout(of: stored))
        // The same boxes as the structure's, which are in the original image.
        #expect(layout.elements.compactMap(\.table?.box).map(PageBox.init) == local[0].elements.compactMap {
            if case .table(let table) = $0 { table.box } else { nil }
        })
        #expect(DocumentStructure.analyze(try Self.withLayouts([stored])) == local)
    }

    /// Layouts a worker should never send, each broken one way.
    private static var brokenLayouts: [(String, (inout Ocr_V1_PageLayout) -> Void)] {
        func table(_ change: @escaping (inout Ocr_V1_LayoutTable) -> Void) -> (inout Ocr_V1_PageLayout) -> Void {
            { layout in
                let index = layout.elements.firstIndex { $0.table != nil }!
                var table = layout.elements[index].table!
                change(&table)
                layout.elements[index].kind = .table(table)
            }
        }
        return [
            ("a cell beyond the grid", table { $0.rows[0].cells[0].column = $0.columnCount }),
            ("a cell spanning below the table", table { $0.rows[0].cells[0].rowSpan = UInt32($0.rows.count + 1) }),
            ("two cells on one place", table { $0.rows[1].cells[1] = $0.rows[1].cells[0] }),
            ("a million columns", table { $0.columnCount = 1_000_000 }),
            ("more header rows than rows", table { $0.headerRows = 99 }),
            ("a table without a box", table { $0.box = nil }),
            ("a heading size that is no number", { layout in
                layout.elements.insert(Ocr_V1_LayoutElement.with {
                    $0.kind = .heading(Ocr_V1_LayoutHeading.with { $0.text = "Huge"; $0.box = Ocr_V1_BoundingBox(); $0.sizeRatio = .nan })
                }, at: 0)
            }),
            ("an element of no kind", { $0.elements.append(Ocr_V1_LayoutElement()) }),
            ("a list item nested ten deep", { layout in
                layout.elements.append(Ocr_V1_LayoutElement.with {
                    $0.kind = .list(Ocr_V1_LayoutList.with {
                        $0.box = Ocr_V1_BoundingBox()
                        $0.items = [Ocr_V1_LayoutListItem.with { $0.text = "deep"; $0.level = 10; $0.box = Ocr_V1_BoundingBox() }]
                    })
                })
            }),
            ("five running-line candidates", { $0.topLines += Array(repeating: Ocr_V1_LayoutLine.with { $0.box = Ocr_V1_BoundingBox() }, count: 3) }),
            ("data of no kind", { $0.detectedData.append(Ocr_V1_LayoutData.with { $0.text = "x"; $0.box = Ocr_V1_BoundingBox() }) }),
        ]
    }

    @Test func aLayoutThatDoesNotHoldTogetherIsRefusedAndTheWordsAnalysed() throws {
        let pages = Self.report
        let local = DocumentStructure.analyze(pages)
        for (name, breakIt) in Self.brokenLayouts {
            var sent = try Self.withLayouts(pages)
            var layout = sent[1].layout!
            breakIt(&layout)
            sent[1].layout = layout
            #expect(PageParts(wire: layout, pageIndex: 1, frame: UprightFrame(sent[1])) == nil, "\(name) was taken")
            #expect(DocumentStructure.analyze(sent) == local, "\(name)")
        }
    }

    /// Whatever a worker sends as a page's layout, the client never traps: random tables (grids
    /// of any size, cells anywhere, spans of any length), lists, headings and bands either come
    /// through as a grid whose every cell is inside it, or the page's words are analysed.
    @Test func randomLayoutsNeverTrapAndOnlyWholeGridsComeThrough() {
        var random = SplitMix64(seed: 20261205)
        let page = Self.report[0]
        func box() -> Ocr_V1_BoundingBox? {
            Int.random(in: 0..<20, using: &random) == 0 ? nil : Ocr_V1_BoundingBox.with {
                $0.x = Int32.random(in: -5000...5000, using: &random); $0.y = Int32.random(in: -5000...5000, using: &random)
                $0.width = UInt32.random(in: 0...4000, using: &random); $0.height = UInt32.random(in: 0...4000, using: &random)
            }
        }
        func small() -> UInt32 { [0, 1, 2, 3, 7, 1024, 1025, UInt32.max].randomElement(using: &random)! }
        for _ in 0..<500 {
            var layout = Ocr_V1_PageLayout()
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                var element = Ocr_V1_LayoutElement()
                switch Int.random(in: 0...5, using: &random) {
                case 0:
                    element.kind = .table(Ocr_V1_LayoutTable.with { table in
                        table.columnCount = small()
                        table.headerRows = small()
                        table.box = box()
                        table.rows = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                            Ocr_V1_LayoutTableRow.with { row in
                                row.cells = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                                    Ocr_V1_LayoutTableCell.with {
                                        $0.text = "c"; $0.column = small(); $0.columnSpan = small(); $0.rowSpan = small(); $0.box = box()
                                    }
                                }
                            }
                        }
                    })
                case 1:
                    element.kind = .list(Ocr_V1_LayoutList.with { list in
                        list.box = box()
                        list.items = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                            Ocr_V1_LayoutListItem.with { $0.marker = "•"; $0.text = "item"; $0.level = small(); $0.box = box() }
                        }
                    })
                case 2:
                    element.kind = .heading(Ocr_V1_LayoutHeading.with {
                        $0.text = "Heading"; $0.box = box(); $0.numberingDepth = small()
                        $0.sizeRatio = [0, -1, 1, 2.5, .infinity, .nan, 1e300].randomElement(using: &random)!
                    })
                case 3: element.kind = .paragraph(Ocr_V1_LayoutText.with { $0.text = "text"; $0.box = box() })
                case 4: element.kind = .footnote(Ocr_V1_LayoutText.with { $0.text = "1 note"; $0.box = box() })
                default: break
                }
                layout.elements.append(element)
            }
            layout.bottomLines = (0..<Int.random(in: 0...3, using: &random)).map { _ in Ocr_V1_LayoutLine.with { $0.text = "7"; $0.box = box() } }
            var sent = page
            sent.layout = layout
            let structure = DocumentStructure.analyze([sent])
            #expect(structure.count == 1)
            for case .table(let table) in structure.first?.elements ?? [] {
                for (index, row) in table.rows.enumerated() {
                    #expect(row.allSatisfy { $0.column + $0.columnSpan <= table.columnCount && index + $0.rowSpan <= table.rows.count })
                }
                #expect(table.headerRows <= table.rows.count && table.columnCount <= PageParts.maximumColumns)
            }
        }
    }
}
