import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import OCRTestSupport
import Testing

/// The document's structure end to end: a report (headings, a nested bullet list, an unruled
/// table with a header row, a numbered list) and a ruled table with spans, laid out by
/// headless Chromium at 300 dpi, read by
/// the real engine through `ocr-submit --local`, comes out as Markdown and HTML with each part
/// in its place. The page is drawn for the test, so it checks the rules, not accuracy figures.
@Suite(.serialized, .enabled(if: commandExists("chromium"), "needs Debian's chromium"))
struct DocumentStructureTests {
    private static func renderedReport(_ name: String = "report") async throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-structure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let html = Binaries.fixtures.appendingPathComponent("structure/\(name).html")
        let png = scratch.appendingPathComponent("\(name).png")
        // 1240 x 1754 CSS pixels at scale 2: an A4 page at 300 dpi.
        let shot = try await runAsync(["timeout", "-s", "KILL", "60", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                       "--no-first-run", "--hide-scrollbars", "--user-data-dir=\(scratch.path)/profile",
                                       "--force-device-scale-factor=2", "--window-size=1240,1754", "--screenshot=\(png.path)",
                                       html.absoluteString])
        try #require(shot.status == 0, "\(shot.stderr.suffix(2000))")
        return png
    }

    @Test func markdownHasTheHeadingsListsAndTable() async throws {
        let png = try await Self.renderedReport()
        let run = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "2", "--quiet", "--format", "markdown", png.path])
        try #require(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        #expect(lines.filter { $0.hasPrefix("#") } == ["# Quarterly Maintenance Report", "## Work Done", "## Parts Used", "## Next Steps"])
        let bullets = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- ") }
        #expect(bullets == ["- Replaced the seals on both feed pumps", "- Cleaned the heat exchangers", "  - East unit, tubes brushed",
                            "  - West unit, tubes flushed", "- Calibrated the flow meters"], "\(run.stdout)")
        #expect(lines.filter { $0.hasPrefix("|") } == [
            "| Part | Quantity | Cost |", "| --- | --- | --- |", "| Pump seal kit | 4 | $1,240.00 |", "| Gasket set | 12 | $318.50 |",
            "| Bearing | 6 | $902.75 |", "| Filter cartridge | 20 | $455.00 |",
        ], "\(run.stdout)")
        #expect(lines.filter { $0.first?.isNumber == true } == ["1. Order spare impellers before March", "2. Train two operators on the new meters",
                                                                "3. Review the alarm limits with the vendor"], "\(run.stdout)")
    }

    @Test func htmlIsWellFormedAndEveryElementPointsAtThePage() async throws {
        let png = try await Self.renderedReport()
        let run = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "2", "--quiet", "--format", "html", png.path])
        try #require(run.status == 0, "\(run.stderr)")
        let document = try XMLDocument(xmlString: run.stdout.replacingOccurrences(of: "<!DOCTYPE html>", with: ""))
        func texts(_ path: String) throws -> [String] { try document.nodes(forXPath: path).map { $0.stringValue ?? "" } }
        #expect(try texts("//h1") == ["Quarterly Maintenance Report"])
        #expect(try texts("//h2") == ["Work Done", "Parts Used", "Next Steps"])
        #expect(try texts("//table/thead/tr/th") == ["Part", "Quantity", "Cost"])
        #expect(try texts("//table/tbody/tr[1]/td") == ["Pump seal kit", "4", "$1,240.00"])
        #expect(try texts("//ul/li/ul/li") == ["East unit, tubes brushed", "West unit, tubes flushed"])
        #expect(try texts("//ol/li").count == 3)
        // Every element inside the page carries its page; all but empty cells their box.
        let elements = try document.nodes(forXPath: "//section//*")
        #expect(!elements.isEmpty)
        for case let element as XMLElement in elements where !["thead", "tbody", "tr"].contains(element.name ?? "") {
            #expect(element.attribute(forName: "data-page")?.stringValue == "1", "\(element.xmlString)")
            let box = element.attribute(forName: "data-bbox")?.stringValue?.split(separator: " ").compactMap { Int($0) } ?? []
            #expect(box.count == 4 && box[2] > 0 && box[3] > 0 && box[0] + box[2] <= 2480 && box[1] + box[3] <= 3508, "\(element.xmlString)")
        }
    }

    /// A table's caption above it and its source under it, and two footnotes in small type at
    /// the foot of the page under a short rule: the caption is the table's `caption` in HTML
    /// and in italics in Markdown, the notes are footnotes, the prose naming the table is not.
    @Test func captionsAndFootnotesAreSetApart() async throws {
        let png = try await Self.renderedReport("notes")
        let html = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "html", png.path])
        try #require(html.status == 0, "\(html.stderr)")
        let document = try XMLDocument(xmlString: html.stdout.replacingOccurrences(of: "<!DOCTYPE html>", with: ""))
        func texts(_ path: String) throws -> [String] { try document.nodes(forXPath: path).map { $0.stringValue ?? "" } }
        #expect(try texts("//table/caption") == ["Table 2: Water drawn by source, in megalitres"], "\(html.stdout)")
        #expect(try texts("//aside[@role='doc-footnote']") == [
            "Source: plant meter readings, checked monthly.", "1 The intake was rebuilt in 2019 after the flood of that spring.",
            "2 The study is due to report in the second half of next year.",
        ], "\(html.stdout)")
        #expect(try texts("//p").first?.hasPrefix("Table 2 sets out the water") == true, "\(html.stdout)")
        let markdown = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "markdown", png.path])
        try #require(markdown.status == 0, "\(markdown.stderr)")
        #expect(markdown.stdout.contains("\n*Table 2: Water drawn by source, in megalitres*\n"), "\(markdown.stdout)")
    }

    /// The worker finds what the page shows on its own as the last step of its recognition
    /// (`PageResult.layout`, its cost among the page's steps), and the client's structure from it
    /// has the report's headings.
    @Test func theWorkerFindsThePagesOwnStructure() async throws {
        let png = try await Self.renderedReport()
        let run = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "json", png.path])
        try #require(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let pages = try #require(document["pages"] as? [[String: Any]])
        try #require(pages.count == 1)
        let result = try #require(pages[0]["result"] as? [String: Any])
        let steps = try #require((result["timings"] as? [String: Any])?["steps"] as? [[String: Any]])
        #expect(steps.last?["step"] as? String == "structure", "\(steps)")
        let elements = try #require(pages[0]["structure"] as? [[String: Any]])
        #expect(elements.filter { $0["type"] as? String == "heading" }.count == 4, "\(elements)")
    }

    /// A table drawn with borders, its header spanning two rows and two columns: the worker's
    /// ruling lines give the grid, and the spans come from the rules that are not there.
    @Test func aRuledTableKeepsItsSpans() async throws {
        let png = try await Self.renderedReport("ruled")
        let run = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "markdown", png.path])
        try #require(run.status == 0, "\(run.stderr)")
        let table = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("<table>") }, "\(run.stdout)")
        #expect(table == "<table><thead><tr><th rowspan=\"2\">Gauge</th><th colspan=\"2\">Level (m)</th></tr><tr><th>April</th><th>May</th></tr></thead>"
                + "<tbody><tr><td>Millbrook</td><td>2.45</td><td>2.61</td></tr><tr><td>Stone Bridge</td><td>1.98</td><td>2.07</td></tr>"
                + "<tr><td>Weir Lane</td><td>3.12</td><td>3.30</td></tr></tbody></table>")
    }
}
