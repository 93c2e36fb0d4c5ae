import OCRClient
import Testing

/// `RecognizeDocumentsRequest`'s values (Vision's `DocumentObservation`) from a recognised
/// page: title, paragraphs with their detected data, tables with cell ranges, regions
/// normalised with a bottom-left origin.
@Suite struct DocumentObservationTests {
    @Test func aPageReadsAsAContainerOfParagraphsAndTables() throws {
        let page = PageResult.with {
            $0.pageIndex = 0
            $0.width = 2000
            $0.height = 1000
            $0.blocks = [
                PageDrawing.block([PageDrawing.line("Meter Readings", x: 100, y: 50, height: 90)]),
                PageDrawing.block([PageDrawing.line("Read on 3 May 2024 by the site team of the northern works.", x: 100, y: 200)]),
                PageDrawing.block([[PageDrawing.word("Meter", 100, 400), PageDrawing.word("Reading", 900, 400)]]),
                PageDrawing.block([[PageDrawing.word("A-1", 100, 470), PageDrawing.word("1204", 900, 470)]]),
                PageDrawing.block([[PageDrawing.word("A-2", 100, 540), PageDrawing.word("877", 900, 540)]]),
                PageDrawing.block([[PageDrawing.word("B-1", 100, 610), PageDrawing.word("3310", 900, 610)]]),
            ]
        }
        let observations = Document(results: [page]).documentObservations
        try #require(observations.count == 1)
        let container = observations[0].document
        #expect(container.title?.transcript == "Meter Readings")
        #expect(container.paragraphs.map(\.transcript) == ["Meter Readings", "Read on 3 May 2024 by the site team of the northern works."])
        #expect(container.paragraphs[1].detectedData.map(\.text) == ["3 May 2024"])
        let table = try #require(container.tables.first)
        #expect(table.rows.map { $0.map { $0.content?.transcript ?? "" } } == [["Meter", "Reading"], ["A-1", "1204"], ["A-2", "877"], ["B-1", "3310"]])
        #expect(table.rows[2][1].rowRange == 2...2 && table.rows[2][1].columnRange == 1...1)
        #expect(table.headerRowCount == 1)
        // The title's box is y 50...140 of 1000: bottom-left origin, y = 1 - 0.14.
        let title = try #require(container.title?.boundingRegion)
        #expect(abs(title.y - 0.86) < 1e-9 && abs(title.height - 0.09) < 1e-9)
    }

    /// A table that goes on over the page break, its header repeated: one Markdown table, the
    /// header once, the next page's marker after it; HTML marks the second part.
    @Test func aTableAcrossAPageBreakIsOneTable() throws {
        func page(_ index: Int, _ rows: [(String, String)], top: Int) -> PageResult {
            PageResult.with {
                $0.pageIndex = UInt32(index)
                $0.width = 2000
                $0.height = 3000
                $0.blocks = rows.enumerated().map { offset, row in PageDrawing.block([[PageDrawing.word(row.0, 100, top + offset * 70), PageDrawing.word(row.1, 900, top + offset * 70)]]) }
            }
        }
        let first = page(0, [("Meter", "Reading"), ("A-1", "1204"), ("A-2", "877"), ("A-3", "3310")], top: 2500)
        let second = page(1, [("Meter", "Reading"), ("B-1", "455"), ("B-2", "1020"), ("B-3", "96")], top: 200)
        let document = Document(results: [first, second])
        let markdown = try DocumentFormat.markdown.render(document)
        #expect(markdown == """
            | Meter | Reading |
            | --- | --- |
            | A-1 | 1204 |
            | A-2 | 877 |
            | A-3 | 3310 |
            | B-1 | 455 |
            | B-2 | 1020 |
            | B-3 | 96 |

            <!-- page 2 -->

            """, "\(markdown)")
        let html = try DocumentFormat.html.render(document)
        #expect(html.components(separatedBy: "data-continues=\"previous-page\"").count == 2)
    }
}
