import OCRWire

/// A box in the page image's pixels, top-left origin (as `BoundingBox`), in Swift's integers.
public struct PageBox: Sendable, Equatable, Hashable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A box from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The wire's box.
    public init(_ box: Ocr_V1_BoundingBox) {
        self.init(x: Int(box.x), y: Int(box.y), width: Int(box.width), height: Int(box.height))
    }

    /// Right edge (exclusive).
    public var maxX: Int { x + width }
    /// Bottom edge (exclusive).
    public var maxY: Int { y + height }
    /// Vertical centre.
    public var midY: Int { y + height / 2 }
    /// Horizontal centre.
    var midX: Int { x + width / 2 }

    /// Whether the point is inside the box (right and bottom edges exclusive).
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// The smallest box holding both.
    public func union(_ other: PageBox) -> PageBox {
        let minX = min(x, other.x), minY = min(y, other.y)
        return PageBox(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }

    /// The smallest box holding every one of `boxes`; nil for none.
    public static func union(_ boxes: some Sequence<PageBox>) -> PageBox? {
        boxes.reduce(nil) { $0?.union($1) ?? $1 }
    }

    /// Pixels of overlap along y (0 when apart).
    func verticalOverlap(_ other: PageBox) -> Int { max(0, min(maxY, other.maxY) - max(y, other.y)) }
}

/// One page's structure: its elements in reading order.
public struct PageStructure: Sendable, Equatable {
    /// Zero-based index of the page in its job.
    public var pageIndex: Int
    /// Headings, paragraphs, lists, tables, and the page's running header and footer, in
    /// reading order (a running header first, a footer last).
    public var elements: [StructureElement]
    /// Dates, amounts, phone numbers, e-mail addresses and links in the page's text, line by
    /// line in reading order.
    public var detectedData: [DetectedData]

    /// A page's structure.
    public init(pageIndex: Int, elements: [StructureElement], detectedData: [DetectedData] = []) {
        self.pageIndex = pageIndex
        self.elements = elements
        self.detectedData = detectedData
    }
}

/// A part of a page with a role.
public enum StructureElement: Sendable, Equatable {
    /// A title or section heading; level 1 is the largest.
    case heading(Heading)
    /// Running text.
    case paragraph(TextBlock)
    /// Consecutive list items (bullets or enumerators), nested by indentation.
    case list(ListBlock)
    /// Rows and columns of cells.
    case table(TableBlock)
    /// Text repeated at the top of the job's pages (or a page number there).
    case pageHeader(TextBlock)
    /// Text repeated at the bottom of the job's pages (or a page number there).
    case pageFooter(TextBlock)
    /// A table's or figure's caption (`Table 2: ...`, `Figure 3. ...`), next to what it names.
    case caption(TextBlock)
    /// A note at the foot of the page or under a table (`1 See ...`, `* ...`, `Source: ...`),
    /// its marker kept at the start of its text.
    case footnote(TextBlock)

    /// Where it is on its page.
    public var box: PageBox {
        switch self {
        case .heading(let h): h.box
        case .paragraph(let p), .pageHeader(let p), .pageFooter(let p), .caption(let p), .footnote(let p): p.box
        case .list(let l): l.box
        case .table(let t): t.box
        }
    }
}

/// Text with the box of its lines.
public struct TextBlock: Sendable, Equatable {
    /// The lines joined with spaces (a word hyphenated across a line break joined again).
    public var text: String
    /// Where its lines are.
    public var box: PageBox

    /// Text and its box.
    public init(text: String, box: PageBox) {
        self.text = text
        self.box = box
    }

    /// Whether the text is a page number (`7`, `- 7 -`, `Page 7`, `7 of 12`, `vii`).
    public var isPageNumber: Bool { RunningText.isPageNumber(text) }
}

/// A heading and its level (1 = the largest type on the document).
public struct Heading: Sendable, Equatable {
    /// 1 (the largest type) to 6.
    public var level: Int
    /// The heading as read.
    public var text: String
    /// Where it is.
    public var box: PageBox

    /// A heading of `level`.
    public init(level: Int, text: String, box: PageBox) {
        self.level = level
        self.text = text
        self.box = box
    }
}

/// A list: items in order, each with its nesting level.
public struct ListBlock: Sendable, Equatable {
    /// Whether its items are enumerated (`1.`, `a)`, `iv.`) rather than bulleted.
    public var isOrdered: Bool
    /// The items in reading order.
    public var items: [ListItem]
    /// Where the list is.
    public var box: PageBox

    /// A list of `items`.
    public init(isOrdered: Bool, items: [ListItem], box: PageBox) {
        self.isOrdered = isOrdered
        self.items = items
        self.box = box
    }
}

/// One list item.
public struct ListItem: Sendable, Equatable {
    /// The marker as read (`•`, `-`, `3.`, `(b)`; a bullet Tesseract misread as `e` or `«` keeps that reading).
    public var marker: String
    /// The item's text without its marker.
    public var text: String
    /// Nesting depth from 0, by the marker's indentation.
    public var level: Int
    /// Where the item's lines are.
    public var box: PageBox

    /// One item.
    public init(marker: String, text: String, level: Int, box: PageBox) {
        self.marker = marker
        self.text = text
        self.level = level
        self.box = box
    }
}

/// A table: a grid of cells, some spanning columns.
public struct TableBlock: Sendable, Equatable {
    /// Rows from the top; each row's cells from the left, spans included once.
    public var rows: [[TableCell]]
    /// How many of the first rows are header rows.
    public var headerRows: Int
    /// Columns of the grid.
    public var columnCount: Int
    /// Where the table is.
    public var box: PageBox
    /// Whether it goes on from the table that ends the previous page (the same columns, the
    /// first thing on this page): one table across the page break.
    public var continuesPreviousPage: Bool

    /// A table of `rows`.
    public init(rows: [[TableCell]], headerRows: Int, columnCount: Int, box: PageBox, continuesPreviousPage: Bool = false) {
        self.rows = rows
        self.headerRows = headerRows
        self.columnCount = columnCount
        self.box = box
        self.continuesPreviousPage = continuesPreviousPage
    }

    /// Whether any cell spans more than one row or column.
    public var hasSpans: Bool { rows.contains { $0.contains { $0.columnSpan > 1 || $0.rowSpan > 1 } } }
}

/// One cell of a table.
public struct TableCell: Sendable, Equatable {
    /// The cell's words, joined with spaces ("" for an empty cell).
    public var text: String
    /// The first column it covers (from 0) and how many.
    public var column: Int
    /// Columns it covers (1 unless it spans).
    public var columnSpan: Int
    /// Rows it covers (1 unless it spans).
    public var rowSpan: Int
    /// Its words' box; nil for an empty cell.
    public var box: PageBox?

    /// A cell at `column`.
    public init(text: String, column: Int, columnSpan: Int = 1, rowSpan: Int = 1, box: PageBox?) {
        self.text = text
        self.column = column
        self.columnSpan = columnSpan
        self.rowSpan = rowSpan
        self.box = box
    }
}
