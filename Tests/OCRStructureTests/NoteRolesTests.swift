@testable import OCRStructure
import OCRTestSupport
import OCRWire
import Testing

/// Captions and footnotes on pages drawn for the purpose (rules, not figures: those are measured
/// on real documents, BENCHMARKS.md).
@Suite struct NoteRolesTests {
    private let body = [
        "The committee met on Tuesday to review the annual figures and the",
        "plans for the coming year, which are set out in the sections below.",
    ]

    /// Each element's role and text, to compare in one expectation.
    private func roles(_ found: [StructureElement]) -> [String] {
        found.map { element in
            switch element {
            case .heading(let h): "heading: " + h.text
            case .paragraph(let p): "paragraph: " + p.text
            case .caption(let p): "caption: " + p.text
            case .footnote(let p): "footnote: " + p.text
            case .pageHeader(let p): "header: " + p.text
            case .pageFooter(let p): "footer: " + p.text
            case .list(let l): "list: " + l.items.map(\.text).joined(separator: " / ")
            case .table(let t): "table: \(t.rows.count)x\(t.columnCount)"
            }
        }
    }

    @Test func aTablesCaptionAboveAndItsSourceBelowAreSetApartFromProseNamingIt() {
        let found = PageBuilder.elements { page in
            page.paragraph(["Table 2 shows the figures for each region of the company."], y: 200)
            page.paragraph(["Table 2: Sales by region"], y: 330)
            page.row([("Region", 200), ("2024", 900), ("2025", 1500)], y: 420)
            page.row([("North", 200), ("120", 900), ("130", 1500)], y: 490)
            page.row([("South", 200), ("80", 900), ("95", 1500)], y: 560)
            page.row([("East", 200), ("60", 900), ("75", 1500)], y: 630)
            page.paragraph(["Source: Company Accounts, 2025"], y: 720)
            page.paragraph(body, y: 900)
        }
        #expect(roles(found) == [
            "paragraph: Table 2 shows the figures for each region of the company.",
            "caption: Table 2: Sales by region", "table: 4x3", "footnote: Source: Company Accounts, 2025",
            "paragraph: " + body.joined(separator: " "),
        ])
    }

    /// A statistical table's key and source as Eurostat sets them, under the table: a key led by
    /// `(:)` with the source run on in one paragraph (two notes), a legend line with the source
    /// run on (prose, then a note), and a source under a key of four lines (a note however far
    /// the key pushed it); a `Source:` under a heading is not the table's.
    @Test func aTablesKeyAndSourceRunTogetherAreCutIntoNotes() {
        func table(_ page: inout PageBuilder, top: Int) {
            page.row([("Region", 200), ("2024", 900), ("2025", 1500)], y: top)
            page.row([("North", 200), ("120", 900), ("130", 1500)], y: top + 70)
            page.row([("South", 200), ("80", 900), ("95", 1500)], y: top + 140)
            page.row([("East", 200), ("60", 900), ("75", 1500)], y: top + 210)
        }
        let keyed = PageBuilder.elements { page in
            table(&page, top: 200)
            page.paragraph(["(:) Not available. NB: rates are shares of the labour force.", "Source: Eurostat, Labour Force Survey, 2006."], y: 500)
            page.paragraph(body, y: 800)
        }
        #expect(roles(keyed) == [
            "table: 4x3", "footnote: (:) Not available. NB: rates are shares of the labour force.",
            "footnote: Source: Eurostat, Labour Force Survey, 2006.", "paragraph: " + body.joined(separator: " "),
        ])
        let legend = PageBuilder.elements { page in
            table(&page, top: 200)
            page.paragraph(["GDP gross domestic product forecast", "Source: Eurostat, national accounts, 2005."], y: 500)
        }
        #expect(roles(legend) == ["table: 4x3", "paragraph: GDP gross domestic product forecast", "footnote: Source: Eurostat, national accounts, 2005."])
        let farBelow = PageBuilder.elements { page in
            table(&page, top: 200)
            page.paragraph(["These figures are shares of the national turnover of each kind", "of outlet, for the outlets the survey counted"], y: 500)
            page.paragraph(["as shops of the kind in every member state", "in the year of the survey"], y: 640)
            page.paragraph(["Source: Retail Pocket Book, 1998."], y: 780)
        }
        #expect(roles(farBelow).last == "footnote: Source: Retail Pocket Book, 1998.")
        let underAHeading = PageBuilder.elements { page in
            table(&page, top: 200)
            page.paragraph(["Results"], y: 520, height: 70)
            page.paragraph(body, y: 640)
            page.paragraph(["Source: our own survey of the committee's members and the staff"], y: 780)
        }
        #expect(!roles(underAHeading).contains { $0.hasPrefix("footnote") }, "\(roles(underAHeading))")
        let noteInProse = PageBuilder.elements { page in
            table(&page, top: 200)
            page.paragraph(body, y: 500)
            page.paragraph(["Note: the committee meets again in the spring to review them."], y: 680)
        }
        #expect(!roles(noteInProse).contains { $0.hasPrefix("footnote") }, "\(roles(noteInProse))")
    }

    /// (A caption-like line away from any table or picture stays what it was: here a heading.)
    @Test func aCaptionRunOnFromTheParagraphAboveIsCutOffButASentenceIsNot() {
        let found = PageBuilder.elements { page in
            page.paragraph(["The figures are set out below for each of the three", "regions, North and South.",
                            "Table 6.5: Sales by region"], y: 200)
            page.paragraph(["The new signature of the function looks like", "Listing 13-19. This still does not compile, because",
                            "the body has not been changed yet."], y: 600)
        }
        #expect(roles(found) == [
            "paragraph: The figures are set out below for each of the three regions, North and South.", "caption: Table 6.5: Sales by region",
            "paragraph: The new signature of the function looks like Listing 13-19. This still does not compile, because the body has not been changed yet.",
        ])
    }

    @Test func aCaptionReadAsATablesFirstRowIsTakenOutOfIt() throws {
        let table = TableBlock(rows: [
            [TableCell(text: "Table 14.", column: 0, box: PageBox(x: 200, y: 100, width: 200, height: 40)),
             TableCell(text: "Graduates", column: 1, box: PageBox(x: 600, y: 100, width: 200, height: 40)),
             TableCell(text: "", column: 2, box: nil),
             TableCell(text: "by region", column: 3, box: PageBox(x: 1400, y: 100, width: 180, height: 40))],
            [TableCell(text: "Region", column: 0, box: PageBox(x: 200, y: 200, width: 120, height: 40)),
             TableCell(text: "2024", column: 1, box: PageBox(x: 600, y: 200, width: 80, height: 40)),
             TableCell(text: "2025", column: 2, box: PageBox(x: 1000, y: 200, width: 80, height: 40)),
             TableCell(text: "", column: 3, box: nil)],
            [TableCell(text: "North", column: 0, box: PageBox(x: 200, y: 270, width: 100, height: 40)),
             TableCell(text: "120", column: 1, box: PageBox(x: 600, y: 270, width: 60, height: 40)),
             TableCell(text: "130", column: 2, box: PageBox(x: 1000, y: 270, width: 60, height: 40)),
             TableCell(text: "", column: 3, box: nil)],
        ], headerRows: 2, columnCount: 4, box: PageBox(x: 200, y: 100, width: 1380, height: 210))
        let (caption, rest) = try #require(NoteRoles.captionRow(of: table))
        #expect(caption == TextBlock(text: "Table 14. Graduates by region", box: PageBox(x: 200, y: 100, width: 1380, height: 40)))
        #expect(rest.columnCount == 3)
        #expect(rest.headerRows == 1)
        #expect(rest.rows.map { $0.map(\.text) } == [["Region", "2024", "2025"], ["North", "120", "130"]])
        #expect(rest.box == PageBox(x: 200, y: 200, width: 880, height: 110))
        var plain = table
        plain.rows[0][0].text = "Table"
        #expect(NoteRoles.captionRow(of: plain) == nil)
    }

    @Test func aCaptionThatDoesNotSetItsNumberOffMustStandByATableOrPicture() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.paragraph(["Figure 3 Average Rainfall"], y: 400)
            page.paragraph(body, y: 600)
            page.picture(x: 200, y: 900, width: 1400, height: 600)
            page.paragraph(["Figure 4 Average Rainfall by Month"], y: 1540)
            page.paragraph(["Figure 5 shows the months in the middle of the year."], y: 1700)
            page.paragraph(["EXHIBIT 2 Regional Offices"], y: 1900)
            page.paragraph(["Exhibit B"], y: 2100)
        }
        #expect(roles(found) == [
            "paragraph: " + body.joined(separator: " "), "heading: Figure 3 Average Rainfall",
            "paragraph: " + body.joined(separator: " "), "caption: Figure 4 Average Rainfall by Month",
            "paragraph: Figure 5 shows the months in the middle of the year.",
            "caption: EXHIBIT 2 Regional Offices", "caption: Exhibit B",
        ])
    }

    @Test func smallMarkedNotesAtTheFootOfThePageAreFootnotesAndGoOnTogether() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.paragraph(["3 This small line stands above the body text and is no note."], y: 400, height: 30)
            page.paragraph(body + body + body, y: 600)
            page.paragraph(["1 See the annual report for 2024 for the figures.", "They are the same."], y: 3000, height: 30, gap: 12)
            page.paragraph(["2 Figures are rounded to the nearest thousand."], y: 3100, height: 30)
            page.paragraph(["and so are the totals beside them."], y: 3150, height: 30)
            page.paragraph(["a lot of small print stands here, a line below the notes."], y: 3300, height: 30)
            page.paragraph(["12 annual report of the committee"], x: 40, y: 3420, height: 30)
        }
        #expect(roles(found) == [
            "paragraph: " + body.joined(separator: " "),
            "paragraph: 3 This small line stands above the body text and is no note.",
            "paragraph: " + (body + body + body).joined(separator: " "),
            "footnote: 1 See the annual report for 2024 for the figures. They are the same.",
            "footnote: 2 Figures are rounded to the nearest thousand.", "footnote: and so are the totals beside them.",
            "paragraph: a lot of small print stands here, a line below the notes.",
            "paragraph: 12 annual report of the committee",
        ])
    }

    @Test func notesOfBodySizeOrAwayFromTheFootAreNotFootnotes() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.paragraph(["Note: the figures below are provisional and may change."], y: 400)
            page.paragraph(body, y: 600)
            page.paragraph(["* Marked items are estimates made by the committee."], y: 3000)
        }
        #expect(roles(found) == [
            "paragraph: " + body.joined(separator: " "), "paragraph: Note: the figures below are provisional and may change.",
            "paragraph: " + body.joined(separator: " "), "list: Marked items are estimates made by the committee.",
        ])
    }

    @Test(arguments: [
        ("2", false), ("3.1", false), ("4-1", false), ("A", false), ("A1", false), ("ES-1", false), ("IV", false), ("12b", false),
        ("2:", true), ("6.10.", true), ("SA3.", true), ("1)", true),
    ])
    func captionNumbers(token: String, setOff: Bool) {
        #expect(NoteRoles.captionNumber(token) == setOff)
    }

    @Test(arguments: ["shows", "x2", "", "Ab12", "1.2.3.4.5.6", "ABCD-1"])
    func notCaptionNumbers(token: String) {
        #expect(NoteRoles.captionNumber(token) == nil)
    }

    @Test(arguments: [("1", true), ("12", true), ("*", true), ("†", true), ("(2)", true), ("[3]", true), ("a", true), ("1See", true), ("2A", true), ("™In", true), ("3AB", false),
                      ("¹Data", true), ("1234", false), ("The", false), ("A", false), ("3D", false), ("2x", false),
                      ("(:)", true), ("(-)", true), ("(p)", true), ("(A)", false), ("()", false)])
    func noteMarkers(token: String, isMarker: Bool) {
        #expect(NoteRoles.isNoteMarker(token) == isMarker)
    }
}
