import Foundation
import OCRStructure
import OCRWire
import Testing

/// The same page gives the same structure in every process. Swift seeds its hashing afresh in
/// each process, so a result that follows a dictionary's or a set's order changes from run to
/// run while every run in one process agrees: the analysis runs here and in child processes,
/// and all must agree.
@Suite struct DeterminismTests {
    /// Two ruled grids side by side under one top line, each row one line of Tesseract's across
    /// both (as on a real two-table statistics page where the order once changed per process).
    static var sideBySideGrids: Ocr_V1_PageResult {
        var page = PageBuilder()
        page.paragraph(["Tables of the year, by region and by kind"], y: 150)
        let rows = [("Region", "Jobs", "Kind", "Jobs"), ("North", "153", "Treaty", "91"), ("South", "88", "Statute", "47"),
                    ("East", "61", "Order", "30"), ("Total", "302", "Total", "168")]
        for (index, row) in rows.enumerated() {
            page.row([(row.0, 200), (row.1, 900), (row.2, 1320), (row.3, 2000)], y: 315 + index * 70)
        }
        for (left, right) in [(180, 1180), (1300, 2300)] {
            for y in stride(from: 300, through: 300 + 70 * rows.count, by: 70) {
                page.rule(x: left, y: y, length: right - left, horizontal: true)
            }
            for x in [left, left + 680, right] { page.rule(x: x, y: 300, length: 70 * rows.count, horizontal: false) }
        }
        page.paragraph(["Counts are of jobs opened in the year and still open at its end."], y: 700)
        return page.page
    }

    static func digest() -> String {
        String(describing: DocumentStructure.analyze([sideBySideGrids]))
    }

    @Test func sideBySideGridsComeOutLeftFirst() throws {
        let tables = DocumentStructure.analyze([Self.sideBySideGrids])[0].elements.compactMap { element -> TableBlock? in
            if case .table(let table) = element { return table }
            return nil
        }
        let first = try #require(tables.first)
        #expect(first.rows.first?.first?.text == "Region", "\(tables)")
    }

    @Test func everyProcessFindsTheSameStructure() async throws {
        let here = Self.digest()
        for _ in 0..<6 {
            let child = try #require(await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                FileHandle.standardOutput.write(Data(DeterminismTests.digest().utf8))
            })
            let same = String(decoding: child.standardOutputContent, as: UTF8.self) == here
            #expect(same, "a child process found another structure than this one: \(here)")
        }
    }
}
