import OCRWire
import OCRTestSupport
import Testing
@testable import OCRClient

@Suite(.blocking) struct TSVTests {
    /// Rows as columns; `conf` compared as a number with `tolerance`, everything else exactly.
    static func expectSameRows(_ ours: String, _ theirs: String, tolerance: Double = 1e-3,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let a = ours.split(separator: "\n", omittingEmptySubsequences: false)
        let b = theirs.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        #expect(a.first == b.first, "header", sourceLocation: sourceLocation)
        for (x, y) in zip(a.dropFirst(), b.dropFirst()) {
            let fx = x.split(separator: "\t", omittingEmptySubsequences: false)
            let fy = y.split(separator: "\t", omittingEmptySubsequences: false)
            guard fx.count == 12, fy.count == 12 else {
                #expect(x == y, sourceLocation: sourceLocation)
                continue
            }
            #expect(Array(fx[0..<10]) == Array(fy[0..<10]), "\(x) vs \(y)", sourceLocation: sourceLocation)
            #expect(fx[11] == fy[11], sourceLocation: sourceLocation)
            if fy[10] == "-1" {
                #expect(fx[10] == "-1", sourceLocation: sourceLocation)
            } else {
                let cx = Double(fx[10]) ?? .nan, cy = Double(fy[10]) ?? .nan
                #expect(abs(cx - cy) <= tolerance, "\(x) vs \(y)", sourceLocation: sourceLocation)
                #expect(fx[10].split(separator: ".").last?.count == 6, "six decimals", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func headerAndRowsMatchTesseract() throws {
        let run = try TesseractRun.shared.get()
        #expect(TSVRenderer.header == String(run.tsv.prefix { $0 != "\n" }) + "\n")
        let rendered = try DocumentFormat.tsv.render(Document(results: try TSVParser.pages(run.tsv)))
        Self.expectSameRows(rendered, run.tsv)
    }

    @Test func twoPagesMatchTesseract() throws {
        let run = try TesseractRun.shared.get()
        let twoPageTSV = try #require(run.twoPageTSV, "ImageMagick's convert is needed to make the two-page TIFF")
        var pages = try TSVParser.pages(run.tsv)
        pages.append(pages[0])
        pages[1].pageIndex = 1
        Self.expectSameRows(try DocumentFormat.tsv.render(Document(results: pages.reversed())), twoPageTSV)
    }

    @Test func handBuiltPageNumbering() throws {
        let document = Document(results: [Fixtures.page(2), Fixtures.page(0)], failures: [Fixtures.failure(1)])
        let rows = try DocumentFormat.tsv.render(document).split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        // The failed page 2 has no rows; page numbers are 1-based page indexes.
        #expect(Set(rows.map { $0[1] }) == ["1", "3"])
        let page1 = rows.filter { $0[1] == "1" }
        #expect(page1.map { $0[0] } == ["1", "2", "3", "4", "5", "5", "3", "4", "5", "5", "5", "4", "5", "5"])
        // The image block has no words and no row; paragraph 2 of block 1 restarts line numbers.
        #expect(page1[0] == ["1", "1", "0", "0", "0", "0", "0", "0", "800", "600", "-1", ""])
        #expect(page1[6][0...5] == ["3", "1", "1", "2", "0", "0"])
        #expect(page1[7][0...5] == ["4", "1", "1", "2", "1", "0"])
        #expect(page1[8] == ["5", "1", "1", "2", "1", "1", "100", "200", "60", "20", "80.000000", "Grüße,"])
        #expect(page1[9][11] == "<a&b>")
        #expect(page1[13][10] == "29.000000")
        #expect(page1.filter { $0[0] != "5" }.allSatisfy { $0[10] == "-1" && $0[11].isEmpty })
    }

    @Test func tabsAndNewlinesInWordsCannotBreakColumns() throws {
        var page = Fixtures.page(0)
        page.blocks[0].paragraphs[0].lines[0].words[0].text = "a\tb\nc"
        let rows = try DocumentFormat.tsv.render(Document(results: [page])).split(separator: "\n")
        #expect(rows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 12 })
        #expect(rows.contains { $0.hasSuffix("\ta b c") })
    }
}
