import Foundation
import OCRStructure

/// `DocumentFormat.html`: the document's structure as semantic HTML5 (also well-formed XML):
/// one `section` per page, `header` and `footer` for its running text, `h1`-`h6`, `p`, `ul` and
/// `ol` (nested lists inside their parent item), `table` with `thead`, `th`, `td`, `colspan`,
/// a table's caption as its `caption`, other captions as a `figure`'s `figcaption`, footnotes
/// as `aside role="doc-footnote"`.
/// Every element carries its page (`data-page`, from 1) and its box in the page image's pixels
/// (`data-bbox="x y width height"`, top-left origin), so a reader can point back at the scan.
/// A failed or missing page is an empty `section` with `data-status` naming why.
enum HTMLRenderer {
    static func render(_ document: Document) -> String {
        let structure = document.structure
        let structures = Dictionary(structure.map { ($0.pageIndex, $0) }, uniquingKeysWith: { first, _ in first })
        let language = RecognizeTextRequest.languageTag(ofTesseractCode: document.languages.first ?? "eng") ?? "und"
        var out = """
        <!DOCTYPE html>
        <html lang="\(xmlEscaped(language))">
        <head>
        <meta charset="utf-8"/>
        <meta name="generator" content="\(xmlEscaped(document.software))"/>
        <title>\(xmlEscaped(title(document, structure)))</title>
        </head>
        <body>

        """
        for page in document.pages {
            let number = page.pageIndex + 1
            switch page {
            case .recognized(let result):
                out += "<section class=\"page\" data-page=\"\(number)\" data-file=\"\(xmlEscaped(result.file))\" data-file-page=\"\(result.filePage)\""
                out += " data-width=\"\(result.width)\" data-height=\"\(result.height)\">\n"
                let elements = structures[Int(result.pageIndex)]?.elements ?? []
                let captions = tableCaptions(elements)
                let inTables = Set(captions.values.map(\.index))
                for (index, element) in elements.enumerated() where !inTables.contains(index) {
                    if case .table(let table) = element, let caption = captions[index] {
                        out += self.table(table, caption: caption, attributes: { attributes(number, $0) }) + "\n"
                    } else {
                        out += render(element, page: number) + "\n"
                    }
                }
                out += "</section>\n"
            case .failed(_, let error):
                out += "<section class=\"page\" data-page=\"\(number)\" data-status=\"\(xmlEscaped(error.description))\"></section>\n"
            case .missing:
                out += "<section class=\"page\" data-page=\"\(number)\" data-status=\"missing\"></section>\n"
            }
        }
        return out + "</body>\n</html>\n"
    }

    static func render(_ element: StructureElement, page: Int) -> String {
        let at = { (box: PageBox?) in attributes(page, box) }
        switch element {
        case .heading(let heading):
            return "<h\(heading.level)\(at(heading.box))>\(xmlEscaped(heading.text, attribute: false))</h\(heading.level)>"
        case .paragraph(let paragraph):
            return "<p\(at(paragraph.box))>\(xmlEscaped(paragraph.text, attribute: false))</p>"
        case .pageHeader(let header):
            return "<header\(at(header.box))>\(xmlEscaped(header.text, attribute: false))</header>"
        case .pageFooter(let footer):
            return "<footer\(at(footer.box))>\(xmlEscaped(footer.text, attribute: false))</footer>"
        case .caption(let caption):
            return "<figure\(at(caption.box))><figcaption>\(xmlEscaped(caption.text, attribute: false))</figcaption></figure>"
        case .footnote(let note):
            return "<aside role=\"doc-footnote\"\(at(note.box))>\(xmlEscaped(note.text, attribute: false))</aside>"
        case .list(let list):
            return self.list(list, at: at)
        case .table(let table):
            return self.table(table, attributes: at)
        }
    }

    /// Nested lists: items deeper than the one before go in a list inside that item, which
    /// carries the box of what it holds.
    static func list(_ list: ListBlock, at: (PageBox?) -> String) -> String {
        let tag = list.isOrdered ? "ol" : "ul"
        func render(_ items: ArraySlice<ListItem>, box: PageBox?) -> String {
            var out = "<\(tag)\(at(box))>"
            var index = items.startIndex
            while index < items.endIndex {
                let item = items[index]
                let children = items[(index + 1)...].prefix { $0.level > item.level }
                out += "<li\(at(item.box))>\(xmlEscaped(item.text, attribute: false))"
                if !children.isEmpty { out += render(children, box: PageBox.union(children.map(\.box))) }
                out += "</li>"
                index = children.endIndex
            }
            return out + "</\(tag)>"
        }
        return render(list.items[...], box: list.box)
    }

    /// The caption each table has, by the table's position in `elements`: the caption right
    /// before it in reading order and above it, else the one right after it and below it.
    static func tableCaptions(_ elements: [StructureElement]) -> [Int: (index: Int, text: TextBlock, below: Bool)] {
        var captions: [Int: (index: Int, text: TextBlock, below: Bool)] = [:]
        var taken: Set<Int> = []
        for (index, element) in elements.enumerated() {
            guard case .table(let table) = element else { continue }
            if index > 0, !taken.contains(index - 1), case .caption(let caption) = elements[index - 1], caption.box.midY < table.box.y {
                captions[index] = (index - 1, caption, false)
                taken.insert(index - 1)
            } else if index + 1 < elements.count, case .caption(let caption) = elements[index + 1], caption.box.midY > table.box.maxY {
                captions[index] = (index + 1, caption, true)
                taken.insert(index + 1)
            }
        }
        return captions
    }

    /// A `table`, with its caption first (shown below the table when it is below on the page).
    static func table(_ table: TableBlock, caption: (index: Int, text: TextBlock, below: Bool)? = nil,
                      attributes at: (PageBox?) -> String) -> String {
        var out = "<table\(at(table.box))\(table.continuesPreviousPage ? " data-continues=\"previous-page\"" : "")>"
        if let caption {
            let side = caption.below ? " style=\"caption-side: bottom\"" : ""
            out += "<caption\(side)\(at(caption.text.box))>\(xmlEscaped(caption.text.text, attribute: false))</caption>"
        }
        for (index, row) in table.rows.enumerated() {
            let header = index < table.headerRows
            if index == 0 { out += header ? "<thead>" : "<tbody>" }
            if index == table.headerRows, index > 0 { out += "</thead><tbody>" }
            out += "<tr>"
            for cell in row {
                let tag = header ? "th" : "td"
                var spans = ""
                if cell.columnSpan > 1 { spans += " colspan=\"\(cell.columnSpan)\"" }
                if cell.rowSpan > 1 { spans += " rowspan=\"\(cell.rowSpan)\"" }
                out += "<\(tag)\(spans)\(at(cell.box))>\(xmlEscaped(cell.text, attribute: false))</\(tag)>"
            }
            out += "</tr>"
        }
        out += table.headerRows >= table.rows.count ? "</thead>" : "</tbody>"
        return out + "</table>"
    }

    private static func attributes(_ page: Int, _ box: PageBox?) -> String {
        guard let box else { return " data-page=\"\(page)\"" }
        return " data-page=\"\(page)\" data-bbox=\"\(box.x) \(box.y) \(box.width) \(box.height)\""
    }

    /// The first heading, else the first page's file.
    private static func title(_ document: Document, _ structure: [PageStructure]) -> String {
        for page in structure {
            for case .heading(let heading) in page.elements { return heading.text }
        }
        return document.recognizedPages.first.map { $0.file } ?? "document"
    }
}
