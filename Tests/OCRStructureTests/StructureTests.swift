import OCRStructure
import OCRTestSupport
import OCRWire
import Testing

/// Structure from word boxes, on pages drawn for the purpose (rules, not figures: those are
/// measured on real documents, BENCHMARKS.md).
@Suite struct StructureTests {
    private let body = [
        "The committee met on Tuesday to review the annual figures and the",
        "plans for the coming year, which are set out in the sections below.",
    ]

    /// The element at `index` when it is a table.
    private func tableElement(at index: Int, in found: [StructureElement]) -> TableBlock? {
        guard found.indices.contains(index), case .table(let table) = found[index] else { return nil }
        return table
    }

    @Test func largerTypeIsAHeadingAndRunningTextAParagraph() throws {
        let found = PageBuilder.elements { page in
            page.paragraph(["Annual Report"], y: 300, height: 90)
            page.paragraph(["Finances"], y: 500, height: 60)
            page.paragraph(body, y: 620)
        }
        try #require(found.count == 3)
        #expect(found[0] == .heading(Heading(level: 1, text: "Annual Report", box: found[0].box)))
        #expect(found[1] == .heading(Heading(level: 2, text: "Finances", box: found[1].box)))
        #expect(found[2] == .paragraph(TextBlock(text: body.joined(separator: " "), box: found[2].box)))
    }

    @Test func numberedAndCapitalisedLinesOfBodySizeAreHeadings() {
        let found = PageBuilder.elements { page in
            page.paragraph(["1 Introduction"], y: 300)
            page.paragraph(body, y: 380)
            page.paragraph(["1.2 Scope of the work"], y: 560)
            page.paragraph(body, y: 640)
            page.paragraph(["SUMMARY"], y: 820)
            page.paragraph(body, y: 900)
        }
        let headings = found.compactMap { if case .heading(let h) = $0 { (h.level, h.text) } else { nil } }
        #expect(headings.map(\.1) == ["1 Introduction", "1.2 Scope of the work", "SUMMARY"])
        #expect(headings.map(\.0) == [1, 2, 1])
    }

    /// A line a little larger than the body (46 px over 40: 12.5 pt over 11) is a heading when
    /// it is in title case, as bold section headings are; a short sentence of that size is not.
    @Test func aSlightlyLargerTitleCaseLineIsAHeading() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.paragraph(["Mutable References"], y: 560, height: 46)
            page.paragraph(body, y: 640)
            page.paragraph(["Here is the error"], y: 1000, height: 46)
            page.paragraph(body, y: 1080)
        }
        let headings = found.compactMap { if case .heading(let h) = $0 { h.text } else { nil } }
        #expect(headings == ["Mutable References"])
    }

    /// A line of body size that is a paragraph of its own, in title case (small words and code
    /// left in lower case: "Creating a New Thread with spawn"), is a heading set in bold; a
    /// one-line sentence of body size is not, nor a title-case line inside a paragraph.
    @Test func aBodySizeTitleCaseParagraphOfItsOwnIsAHeading() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.paragraph(["Creating a New Thread with spawn"], y: 560)
            page.paragraph(body, y: 640)
            page.paragraph(["Here is what the compiler says about it"], y: 1000)
            page.paragraph(["The first line of a paragraph", "Goes On in Title Case Here", "and ends as sentences do."], y: 1100)
        }
        let headings = found.compactMap { if case .heading(let h) = $0 { h.text } else { nil } }
        #expect(headings == ["Creating a New Thread with spawn"])
    }

    /// A heading Tesseract put in one paragraph with the text under it: the first line, larger
    /// by a tenth or more, is a group (and a heading) of its own.
    @Test func aLargerFirstLineIsAHeadingOfItsOwn() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.paragraph(["The Rules of References"] + body, y: 560, firstHeight: 46)
        }
        let headings = found.compactMap { if case .heading(let h) = $0 { h.text } else { nil } }
        #expect(headings == ["The Rules of References"])
    }

    /// A box holds its left and top edges, not its right and bottom ones; a footer's text is a
    /// page number as RunningText counts them.
    @Test func boxesContainPointsAndFootersKnowPageNumbers() {
        let box = PageBox(x: 10, y: 20, width: 30, height: 40)
        #expect(box.contains(x: 10, y: 20) && box.contains(x: 39, y: 59))
        #expect(!box.contains(x: 40, y: 30) && !box.contains(x: 20, y: 60) && !box.contains(x: 9, y: 30))
        #expect(TextBlock(text: "- 7 -", box: box).isPageNumber && TextBlock(text: "Page 7 of 12", box: box).isPageNumber)
        #expect(!TextBlock(text: "ACME Corporation", box: box).isPageNumber)
    }

    /// Tesseract reads the same bullet differently line by line ("e«" once, "e" after): a line
    /// set where the list's other items start, with a bullet misreading first, is an item too.
    @Test func aBulletReadDifferentlyAtTheListsIndentIsAnItem() throws {
        let found = PageBuilder.elements { page in
            page.paragraph(["Our project will combine a number of the concepts you have learned so far:"], y: 200)
            page.paragraph(["e« Organizing code", "e Using vectors and strings", "e Handling errors"], x: 280, y: 300)
            page.paragraph(["e« is how the reading of this sentence begins, set at the body's margin."], y: 600)
        }
        let list = try #require(found.compactMap { if case .list(let l) = $0 { l } else { nil } }.first)
        #expect(list.items.map(\.text) == ["Organizing code", "Using vectors and strings", "Handling errors"])
        #expect(list.items.map(\.marker) == ["e«", "e", "e"])
        #expect(found.last.map { if case .paragraph = $0 { true } else { false } } == true)
    }

    @Test func markedLinesAreListItemsNestedByIndentation() {
        let found = PageBuilder.elements { page in
            page.paragraph(["Before the list comes a sentence of ordinary text."], y: 200)
            page.paragraph(["• Apples from the orchard", "• Pears"], y: 300)
            page.paragraph(["◦ Conference pears", "◦ Williams pears"], x: 300, y: 420)
            page.paragraph(["• Plums, which ripen late in the", "season"], y: 540)
        }
        #expect(found.count == 2)
        guard found.count == 2, case .list(let list) = found[1] else {
            Issue.record("no list in \(found)")
            return
        }
        #expect(!list.isOrdered)
        #expect(list.items.map(\.text) == ["Apples from the orchard", "Pears", "Conference pears", "Williams pears", "Plums, which ripen late in the season"])
        #expect(list.items.map(\.level) == [0, 0, 1, 1, 0])
    }

    @Test func enumeratedLinesAreAnOrderedListButInitialsAreNot() {
        let found = PageBuilder.elements { page in
            page.paragraph(["1. Open the valve", "2. Wait ten minutes", "3. Close the valve"], y: 300)
            page.paragraph(["A. Smith wrote the report on the valves last year."], y: 600)
        }
        #expect(found.count == 2)
        guard case .list(let list)? = found.first else {
            Issue.record("no list in \(found)")
            return
        }
        #expect(list.isOrdered)
        #expect(list.items.map(\.marker) == ["1.", "2.", "3."])
        #expect(found.last.map { if case .paragraph = $0 { true } else { false } } == true)
    }

    @Test func alignedShortCellsAreATableWithAHeaderRow() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.row([("Item", 200), ("Quantity", 900), ("Price", 1500)], y: 400)
            page.row([("Bolts", 200), ("120", 900), ("$4.20", 1500)], y: 470)
            page.row([("Nuts", 200), ("80", 900), ("$2.10", 1500)], y: 540)
            page.row([("Washers, steel", 200), ("300", 900), ("$1.05", 1500)], y: 610)
            page.paragraph(body, y: 800)
        }
        #expect(found.count == 3)
        guard found.count == 3, case .table(let table) = found[1] else {
            Issue.record("no table in \(found)")
            return
        }
        #expect(table.columnCount == 3)
        #expect(table.headerRows == 1)
        #expect(table.rows.map { $0.map(\.text) } == [["Item", "Quantity", "Price"], ["Bolts", "120", "$4.20"],
                                                      ["Nuts", "80", "$2.10"], ["Washers, steel", "300", "$1.05"]])
    }

    @Test func aCellLeftEmptyStaysInItsColumn() {
        let found = PageBuilder.elements { page in
            page.row([("Region", 200), ("2024", 900), ("2025", 1500)], y: 400)
            page.row([("North", 200), ("12", 900), ("15", 1500)], y: 470)
            page.row([("South", 200), ("17", 1500)], y: 540)
            page.row([("East", 200), ("9", 900), ("11", 1500)], y: 610)
        }
        guard case .table(let table)? = found.first else {
            Issue.record("no table in \(found)")
            return
        }
        #expect(table.rows[2].map(\.text) == ["South", "", "17"])
    }

    @Test func aCellsWrappedLinesStayInTheirCellHoweverManyInARow() throws {
        // Rows stand 30 px apart; a number and a section label each wrap onto a second line 8 px
        // under the first, so three lines of one cell follow each other: one table, not three.
        let found = PageBuilder.elements { page in
            page.row([("Group", 200), ("Early", 900), ("Late", 1500)], y: 400)
            page.row([("Manual-based", 200), ("1.38", 900), ("1.15", 1500)], y: 470)
            page.row([("(4.79)", 900)], y: 518)
            page.row([("Number of couples per", 200)], y: 588)
            page.row([("facilitator: Mean (SD)", 200)], y: 636)
            page.row([("Web-based", 200), ("0.53", 900), ("0.25", 1500)], y: 706)
            page.row([("Overall", 200), ("0.95", 900), ("0.70", 1500)], y: 776)
        }
        let tables = found.compactMap { if case .table(let table) = $0 { table } else { nil } }
        #expect(tables.count == 1)
        let table = try #require(tables.first)
        #expect(table.rows.map { $0.map(\.text) } == [["Group", "Early", "Late"], ["Manual-based", "1.38 (4.79)", "1.15"],
                                                      ["Number of couples per facilitator: Mean (SD)", "", ""],
                                                      ["Web-based", "0.53", "0.25"], ["Overall", "0.95", "0.70"]])
    }

    @Test func aRowWrappedInSeveralCellsAtOnceIsOneRow() throws {
        // Rows stand 30 px apart; one row's label and its number both wrap onto a line 8 px
        // under it ("Immune" / "response", "4,539E-" / "07"): one row. A total row set as close
        // under the last row, short only of its second cell, is a row of its own.
        let found = PageBuilder.elements { page in
            page.row([("Process", 200), ("Pathway", 600), ("P", 1000), ("Genes", 1300), ("Total", 1600)], y: 400)
            page.row([("Cell cycle", 200), ("Role of APC", 600), ("1,040E-09", 1000), ("15", 1300), ("32", 1600)], y: 470)
            page.row([("Immune", 200), ("Alternative", 600), ("4,539E-", 1000), ("12", 1300), ("30", 1600)], y: 540)
            page.row([("response", 200), ("07", 1000)], y: 588)
            page.row([("Oxidative", 200), ("ROS production", 600), ("8,932E-04", 1000), ("7", 1300), ("23", 1600)], y: 658)
            page.row([("Total", 200), ("2,000E-01", 1000), ("34", 1300), ("85", 1600)], y: 706)
        }
        let table = try #require(found.compactMap { if case .table(let table) = $0 { table } else { nil } }.first)
        #expect(table.rows.map { $0.map(\.text) } == [["Process", "Pathway", "P", "Genes", "Total"],
                                                      ["Cell cycle", "Role of APC", "1,040E-09", "15", "32"],
                                                      ["Immune response", "Alternative", "4,539E- 07", "12", "30"],
                                                      ["Oxidative", "ROS production", "8,932E-04", "7", "23"],
                                                      ["Total", "", "2,000E-01", "34", "85"]])
    }

    @Test func tablesSetSideBySideAreTablesOfTheirOwn() throws {
        // A list snaked into two columns to fill the page, each under its own header: one wide
        // table to the eye of the alignment, two tables to a reader; the second is shorter.
        let found = PageBuilder.elements { page in
            page.row([("Age", 200), ("Population", 500), ("Age", 1000), ("Population", 1300)], y: 400)
            page.row([("1 year", 200), ("3,533", 500), ("40 years", 1000), ("2,468", 1300)], y: 470)
            page.row([("2 years", 200), ("3,269", 500), ("41 years", 1000), ("2,375", 1300)], y: 540)
            page.row([("3 years", 200), ("3,223", 500)], y: 610)
        }
        let tables = found.compactMap { if case .table(let table) = $0 { table } else { nil } }
        #expect(tables.map { $0.rows.map { $0.map(\.text) } } == [
            [["Age", "Population"], ["1 year", "3,533"], ["2 years", "3,269"], ["3 years", "3,223"]],
            [["Age", "Population"], ["40 years", "2,468"], ["41 years", "2,375"]],
        ])
        #expect(tables.map(\.columnCount) == [2, 2])
        #expect(tables.count == 2 && tables[0].box.maxX < tables[1].box.x)
        // A header whose groups differ ("Population", "Households") is one table.
        let one = PageBuilder.elements { page in
            page.row([("Age", 200), ("Population", 500), ("Age", 1000), ("Households", 1300)], y: 400)
            page.row([("1 year", 200), ("3,533", 500), ("40 years", 1000), ("2,468", 1300)], y: 470)
            page.row([("2 years", 200), ("3,269", 500), ("41 years", 1000), ("2,375", 1300)], y: 540)
            page.row([("3 years", 200), ("3,223", 500), ("42 years", 1000), ("2,301", 1300)], y: 610)
        }
        #expect(one.compactMap { if case .table(let table) = $0 { table.columnCount } else { nil } } == [4])
    }

    @Test func rowsSetCloseTogetherAreNotTakenForWrappedLines() throws {
        // No padding between rows: a label row as close to the row above as any row is stays a
        // row of its own.
        let found = PageBuilder.elements { page in
            page.row([("Region", 200), ("Early", 900), ("Late", 1500)], y: 400)
            page.row([("North", 200), ("12", 900), ("15", 1500)], y: 448)
            page.row([("Islands", 200)], y: 496)
            page.row([("East", 200), ("9", 900), ("11", 1500)], y: 544)
            page.row([("West", 200), ("4", 900), ("7", 1500)], y: 592)
        }
        let table = try #require(found.compactMap { if case .table(let table) = $0 { table } else { nil } }.first)
        #expect(table.rows.map { $0.map(\.text) } == [["Region", "Early", "Late"], ["North", "12", "15"], ["Islands", "", ""],
                                                      ["East", "9", "11"], ["West", "4", "7"]])
    }

    @Test func aBulletedListRightAboveATableDoesNotHideIt() throws {
        // Each item's bullet stands a wide gap from its text, so the list's first lines look
        // like rows of two cells, and the run of such rows reaches the table under it.
        let found = PageBuilder.elements { page in
            page.row([("•", 200), ("higher correlation levels for the countries which show higher risk levels such as Greece,", 300)], y: 300)
            page.row([("Portugal and Spain over the whole period; lower levels for the countries in the north;", 300)], y: 360)
            page.row([("•", 200), ("lower correlation levels for all the countries considered in 2009 in comparison to", 300)], y: 420)
            page.row([("the whole period levels, as well as for the fourth quarter of 2009 and the first of 2010.", 300)], y: 480)
            page.row([("Differences", 200), ("Portugal", 900), ("Greece", 1300), ("Spain", 1700)], y: 560)
            page.row([("Q4 2009", 200), ("0.17", 900), ("0.70", 1300), ("0.26", 1700)], y: 620)
            page.row([("Q1 2010", 200), ("0.64", 900), ("0.72", 1300), ("0.56", 1700)], y: 680)
        }
        let table = try #require(found.compactMap { if case .table(let table) = $0 { table } else { nil } }.first)
        #expect(table.rows.map { $0.map(\.text) } == [["Differences", "Portugal", "Greece", "Spain"], ["Q4 2009", "0.17", "0.70", "0.26"],
                                                      ["Q1 2010", "0.64", "0.72", "0.56"]])
    }

    @Test func aLineRunFromProseIntoARuledTableBesideItIsCutAtTheTable() throws {
        // Tesseract reads a row of the table (x 1270-2070) and the prose line beside it as one
        // line; the table takes its cells' words and the prose keeps its own, in one paragraph.
        let prose = ["Although a recovery in the", "population of eagles has", "resulted in a status upgrade", "from endangered to threatened"]
        let cells = [("Species", "Range"), ("Kingfisher", "29%"), ("Eagle", "34%"), ("Osprey", "20%")]
        let found = PageBuilder.elements { page in
            page.paragraph(of: zip(prose, cells).enumerated().map { index, texts in
                let y = 400 + index * 70
                var line = PageBuilder.line(texts.0, x: 200, y: y, height: 40)
                line.words += PageBuilder.line(texts.1.0, x: 1300, y: y, height: 40).words
                line.words += PageBuilder.line(texts.1.1, x: 1750, y: y, height: 40).words
                return line
            })
            for y in [380, 450, 520, 590, 660] { page.rule(x: 1270, y: y, length: 800, horizontal: true) }
            for x in [1270, 1700, 2070] { page.rule(x: x, y: 380, length: 280, horizontal: false) }
        }
        try #require(found.count == 2)
        #expect(found[0] == .paragraph(TextBlock(text: prose.joined(separator: " "), box: found[0].box)))
        let table = try #require(tableElement(at: 1, in: found))
        #expect(table.rows.map { $0.map(\.text) } == cells.map { [$0.0, $0.1] })
    }

    @Test func rulesAroundTheBodyOnlyLeaveItsRowsToTheLinesAndATotalUnderThemIsTheTables() throws {
        // Rules above the header, under it and under the body; one rule between the first
        // column and the others, down to the last body row. "Fraction lost" wraps in its
        // header cell; the total under the last rule has no rule below it, and the note under
        // the total is no row.
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.row([("Freq.", 800), ("Mean", 1200), ("Fraction", 1600)], y: 390)
            page.row([("lost", 1600)], y: 440)
            page.row([("Kept the assets", 200), ("344", 800), ("12196", 1200), ("17.4%", 1600)], y: 510)
            page.row([("Sold some", 200), ("53", 800), ("23518", 1200), ("22.5%", 1600)], y: 560)
            page.row([("Sold all", 200), ("61", 800), ("9187", 1200), ("22.5%", 1600)], y: 610)
            page.row([("Total", 200), ("458", 800), ("13153", 1200), ("18.7%", 1600)], y: 680)
            page.row([("Source: the 2009 survey, weighted.", 200)], y: 740)
            for y in [380, 495, 665] { page.rule(x: 180, y: y, length: 1700, horizontal: true) }
            page.rule(x: 700, y: 380, length: 285, horizontal: false)
            page.paragraph(body, y: 900)
        }
        try #require(found.count == 4)
        let table = try #require(tableElement(at: 1, in: found))
        #expect(table.rows.map { $0.map(\.text) } == [["", "Freq.", "Mean", "Fraction lost"], ["Kept the assets", "344", "12196", "17.4%"],
                                                      ["Sold some", "53", "23518", "22.5%"], ["Sold all", "61", "9187", "22.5%"],
                                                      ["Total", "458", "13153", "18.7%"]])
    }

    /// A statistical table as NCES sets them: a caption over two lines, then three header rows
    /// over a body of numbers: a group's heading set over two columns ("Current dollars") with
    /// a heading under it in each, and a heading over right-aligned numbers whose words stand
    /// apart ("Fall  enrollment") and leave a river no body row crosses.
    @Test func aHeadersPhrasesAreCellsAndTheCaptionsSecondLineIsTheCaptions() throws {
        let found = PageBuilder.elements { page in
            page.row([("Table 18.", 200), ("Actual and projected numbers for current expenditures", 460)], y: 200)
            page.row([("public elementary and secondary education", 460)], y: 245)
            page.row([("Current dollars", 1500)], y: 320)
            page.row([("Fall", 700), ("enrollment", 820), ("Total", 1320), ("Per pupil", 1840)], y: 390)
            page.row([("School year", 200), ("(in thousands)", 820), ("(in billions)", 1160), ("in fall enrollment", 1680)], y: 440)
            for index in 0..<20 {  // a river may be crossed by one row in ten: the caption's two
                page.row([("\(1996 + index)-\(97 + index)", 200), ("45,6\(index % 10)1", 900), ("$375.\(index % 10)", 1300),
                          ("$8,24\(index % 10)", 1900)], y: 520 + index * 60)
            }
        }
        let caption = try #require(found.first.flatMap { if case .caption(let c) = $0 { c } else { nil } }, "\(found)")
        #expect(caption.text == "Table 18. Actual and projected numbers for current expenditures public elementary and secondary education")
        let table = try #require(found.compactMap { if case .table(let t) = $0 { t } else { nil } }.first, "\(found)")
        #expect(table.columnCount == 4)
        #expect(table.rows.prefix(3).map { $0.map(\.text) } == [["", "", "Current dollars"], ["", "Fall enrollment", "Total", "Per pupil"],
                                                              ["School year", "(in thousands)", "(in billions)", "in fall enrollment"]])
        #expect(table.rows[0].last?.columnSpan == 2)
        #expect(table.rows.count == 23)
    }

    @Test func aRuledGridIsATableAndAMissingRuleMakesASpan() {
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.ruledSitesTable(top: 380)
            page.paragraph(body, y: 800)
        }
        #expect(found.count == 3)
        guard found.count == 3, case .table(let table) = found[1] else {
            Issue.record("no table in \(found)")
            return
        }
        #expect(table.columnCount == 3)
        #expect(table.rows.map { $0.map(\.text) } == [["Site", "Measured"], ["North", "12.5", "13.1"], ["South", "9.8", "10.4"], ["East", "11.0", "11.7"]])
        #expect(table.rows[0].map(\.columnSpan) == [1, 2])
        #expect(table.headerRows == 1)
    }

    @Test func rulesBetweenRowsOnlyTakeTheirColumnsFromTheWords() throws {
        // A frame (x 180-1900) with a rule under every row and none between the columns, as
        // statistical reports set them; "Sampled" is a header over the last two columns.
        let found = PageBuilder.elements { page in
            page.paragraph(body, y: 200)
            page.row([("Country", 200), ("Sampled", 1350)], y: 395)
            page.row([("Austria", 200), ("92.9", 800), ("7.1", 1200), ("5,821", 1600)], y: 465)
            page.row([("Belgium", 200), ("0", 800), ("100.0", 1200), ("5,906", 1600)], y: 535)
            page.row([("Cyprus", 200), ("100.0", 800), ("0", 1200), ("17", 1600)], y: 605)
            page.row([("Denmark", 200), ("10.0", 800), ("12.1", 1200), ("3,868", 1600)], y: 675)
            for y in [380, 450, 520, 590, 660, 730] { page.rule(x: 180, y: y, length: 1720, horizontal: true) }
            page.rule(x: 180, y: 380, length: 350, horizontal: false)
            page.rule(x: 1900, y: 380, length: 350, horizontal: false)
            page.paragraph(body, y: 900)
        }
        try #require(found.count == 3)
        let table = try #require(tableElement(at: 1, in: found))
        #expect(table.columnCount == 4)
        #expect(table.rows.map { $0.map(\.text) } == [["Country", "", "Sampled"], ["Austria", "92.9", "7.1", "5,821"],
                                                      ["Belgium", "0", "100.0", "5,906"], ["Cyprus", "100.0", "0", "17"],
                                                      ["Denmark", "10.0", "12.1", "3,868"]])
        #expect(table.rows[0].map(\.columnSpan) == [1, 1, 2])
    }

    @Test func twoColumnsOfProseAreNotATable() {
        let left = ["Tesseract reads each column of this page", "as a block of its own, one after the", "other, which is the order a reader wants", "and the order this page should keep too."]
        let right = ["The right column starts at the same height", "as the left one does and goes on for", "just as many lines of ordinary running", "text, set in the same type as its neighbour."]
        let found = PageBuilder.elements { page in
            page.paragraph(left, x: 150, y: 300)
            page.paragraph(right, x: 1300, y: 300)
        }
        #expect(found.count == 2)
        #expect(found.allSatisfy { if case .paragraph = $0 { true } else { false } })
    }

    @Test func textRepeatedAtTheTopAndPageNumbersAtTheBottomAreRunning() throws {
        let pages = (0..<3).map { index -> Ocr_V1_PageResult in
            var page = PageBuilder()
            page.pageIndex = index
            page.paragraph(["ACME Corporation Annual Report \(2020 + index)"], y: 100)
            page.paragraph(body, y: 600)
            page.paragraph(["\(index + 1)"], x: 1200, y: 3300)
            return page.page
        }
        let structure = DocumentStructure.analyze(pages)
        for (index, page) in structure.enumerated() {
            try #require(page.elements.count == 3)
            #expect(page.elements[0] == .pageHeader(TextBlock(text: "ACME Corporation Annual Report \(2020 + index)", box: page.elements[0].box)))
            #expect(page.elements[2] == .pageFooter(TextBlock(text: "\(index + 1)", box: page.elements[2].box)))
        }
    }

    @Test func aWordHyphenatedAtALineEndIsJoinedAgain() {
        let found = PageBuilder.elements { page in
            page.paragraph(["The results were encour-", "aging, and the Anglo-", "Saxon method held."], y: 300)
        }
        #expect(found == [.paragraph(TextBlock(text: "The results were encouraging, and the Anglo-Saxon method held.", box: found[0].box))])
    }
}

/// Whatever the engine sends, structure analysis returns: random pages (words anywhere, of any
/// size, overlapping, empty, bullets and numbers among them, rules anywhere) never trap, and every line's words
/// come out somewhere.
@Suite struct StructureRobustnessTests {
    @Test func randomPagesNeverTrapAndKeepTheirWords() {
        var random = SplitMix64(seed: 20261203)
        let tokens = ["•", "-", "1.", "2)", "(a)", "iv.", "|", "$1,240.00", "Total", "INTRODUCTION", "2.1", "the", "of", "e", "o", "¢", "Page", "7", "", " "]
        for _ in 0..<400 {
            var page = PageBuilder()
            page.width = Int.random(in: 0...3000, using: &random)
            page.height = Int.random(in: 0...4000, using: &random)
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let words = (0..<Int.random(in: 1...8, using: &random)).map { _ in tokens.randomElement(using: &random)! }
                let cells = words.map { ($0, Int.random(in: -50...3000, using: &random)) }
                page.row(cells, y: Int.random(in: -20...4000, using: &random), height: Int.random(in: 1...200, using: &random))
            }
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                page.rule(x: Int.random(in: -10...2600, using: &random), y: Int.random(in: -10...3600, using: &random),
                          length: Int.random(in: 0...2000, using: &random), horizontal: Bool.random(using: &random))
            }
            let structure = DocumentStructure.analyze([page.page])
            #expect(structure.count == 1)
            let words = page.page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).filter { !$0.text.allSatisfy(\.isWhitespace) }
            let text = structure[0].elements.map(Self.text).joined(separator: " ")
            for word in words {
                let visible = String(word.text.drop { $0 == "|" }.reversed().drop { $0 == "|" }.reversed())
                #expect(visible.isEmpty || text.contains(visible), "\(word.text) lost")
            }
        }
    }

    /// A peer's nonsense costs no more than a page: a word four billion pixels wide and
    /// thousands of rules are bounded, not allocated or crossed pair by pair.
    @Test func absurdBoxesAndRulesAreBounded() {
        var page = PageBuilder()
        for y in stride(from: 100, to: 900, by: 70) { page.row([("a", 100), ("b", 900), ("c", 1700)], y: y) }
        var huge = page.page
        huge.blocks[0].paragraphs[0].lines[0].words[0].box!.width = UInt32.max
        for index in 0..<5000 {
            huge.rules.append(Ocr_V1_BoundingBox.with { $0.x = Int32(index); $0.y = 0; $0.width = 2; $0.height = 4000 })
        }
        let structure = DocumentStructure.analyze([huge])
        #expect(structure.count == 1)
        #expect(!structure[0].elements.isEmpty)
    }

    private static func text(_ element: StructureElement) -> String {
        switch element {
        case .heading(let h): h.text
        case .paragraph(let p), .pageHeader(let p), .pageFooter(let p), .caption(let p), .footnote(let p): p.text
        case .list(let l): l.items.map { $0.marker + " " + $0.text }.joined(separator: " ")
        case .table(let t): t.rows.flatMap { $0.map(\.text) }.joined(separator: " ")
        }
    }
}
