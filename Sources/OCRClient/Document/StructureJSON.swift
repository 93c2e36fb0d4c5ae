import OCRBasics
import OCRStructure

/// A page's structure in `DocumentFormat.json` (each recognised page's `"structure"`): its
/// elements in reading order, each `{"type": ..., "box": {x, y, width, height}, ...}` with
/// `type` one of `heading` (`level`, `text`), `paragraph`, `pageHeader`, `pageFooter`, `caption`, `footnote` (`text`),
/// `list` (`ordered`, `items`: `{marker, text, level, box}`), `table` (`columns`, `headerRows`,
/// `continuesPreviousPage`, `rows`: arrays of `{text, column, columnSpan, rowSpan, box}`, `box`
/// null for an empty cell).
enum StructureJSON {
    static func json(_ page: PageStructure) -> JSON {
        .array(page.elements.map(json))
    }

    static func json(_ element: StructureElement) -> JSON {
        switch element {
        case .heading(let heading):
            .object([("type", .string("heading")), ("level", .int(heading.level)), ("text", .string(heading.text)), ("box", json(heading.box))])
        case .paragraph(let block):
            text("paragraph", block)
        case .pageHeader(let block):
            text("pageHeader", block)
        case .pageFooter(let block):
            text("pageFooter", block)
        case .caption(let block):
            text("caption", block)
        case .footnote(let block):
            text("footnote", block)
        case .list(let list):
            .object([("type", .string("list")), ("ordered", .bool(list.isOrdered)), ("box", json(list.box)),
                     ("items", .array(list.items.map { item in
                         .object([("marker", .string(item.marker)), ("text", .string(item.text)), ("level", .int(item.level)), ("box", json(item.box))])
                     }))])
        case .table(let table):
            .object([("type", .string("table")), ("box", json(table.box)), ("columns", .int(table.columnCount)),
                     ("headerRows", .int(table.headerRows)), ("continuesPreviousPage", .bool(table.continuesPreviousPage)),
                     ("rows", .array(table.rows.map { row in
                         .array(row.map { cell in
                             .object([("text", .string(cell.text)), ("column", .int(cell.column)), ("columnSpan", .int(cell.columnSpan)),
                                      ("rowSpan", .int(cell.rowSpan)), ("box", cell.box.map(json) ?? .null)])
                         })
                     }))])
        }
    }

    /// `{"kind": "date"|"money"|"phoneNumber"|"emailAddress"|"link", "text", "box"}`.
    static func json(_ data: DetectedData) -> JSON {
        .object([("kind", .string(data.kind.rawValue)), ("text", .string(data.text)), ("box", json(data.box))])
    }

    private static func text(_ type: String, _ block: TextBlock) -> JSON {
        .object([("type", .string(type)), ("text", .string(block.text)), ("box", json(block.box))])
    }

    private static func json(_ box: PageBox) -> JSON {
        .object([("x", .int(box.x)), ("y", .int(box.y)), ("width", .int(box.width)), ("height", .int(box.height))])
    }
}
