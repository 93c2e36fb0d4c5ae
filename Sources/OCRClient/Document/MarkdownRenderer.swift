import Foundation
import OCRStructure

/// `DocumentFormat.markdown`: GitHub-flavoured Markdown of the document's structure, for search
/// and language models: `#` headings, paragraphs, `-` and `1.` lists (nested by two or three
/// spaces), pipe tables (an HTML table where cells span, which GitHub renders too), captions in
/// italics, footnotes as paragraphs where they are on the page (their marker first). Running
/// headers and footers are left out; each page after the first starts with an HTML comment
/// naming it (`<!-- page 2 -->`), and a page that failed or is missing is such a comment too.
/// A table that goes on across a page break is one table (its repeated header once), with the
/// next page's comment after it.
enum MarkdownRenderer {
    static func render(_ document: Document) -> String {
        let structures = Dictionary(document.structure.map { ($0.pageIndex, $0) }, uniquingKeysWith: { first, _ in first })
        var blocks: [String] = []
        var openTable: (block: Int, table: TableBlock)?  // the last block, when it is a pipe table
        for (position, page) in document.pages.enumerated() {
            switch page {
            case .recognized(let result):
                if position > 0 { blocks.append("<!-- page \(page.pageIndex + 1) -->") }
                for element in structures[Int(result.pageIndex)]?.elements ?? [] {
                    if case .table(let table) = element, table.continuesPreviousPage, let open = openTable,
                       !table.hasSpans, table.columnCount == open.table.columnCount {
                        let repeated = Array(open.table.rows.prefix(open.table.headerRows)).map { $0.map(\.text) }
                        let rows = table.rows.map { $0.map(\.text) }.starts(with: repeated) ? table.rows.dropFirst(repeated.count) : table.rows[...]
                        blocks[open.block] += rows.map { "\n" + pipeRow($0) }.joined()
                        continue
                    }
                    guard let block = render(element) else { continue }
                    blocks.append(block)
                    if case .table(let table) = element, !table.hasSpans { openTable = (blocks.count - 1, table) } else { openTable = nil }
                }
            case .failed(let index, let error):
                blocks.append("<!-- page \(index + 1): failed: \(commentSafe(error.description)) -->")
            case .missing(let index):
                blocks.append("<!-- page \(index + 1): missing -->")
            }
        }
        return blocks.isEmpty ? "" : blocks.joined(separator: "\n\n") + "\n"
    }

    static func render(_ element: StructureElement) -> String? {
        switch element {
        case .heading(let heading):
            return String(repeating: "#", count: heading.level) + " " + inline(heading.text)
        case .paragraph(let paragraph), .footnote(let paragraph):
            return escapedLineStart(inline(paragraph.text))
        case .caption(let caption):
            return "*" + inline(caption.text) + "*"
        case .list(let list):
            var number = 0
            return list.items.map { item in
                number += 1
                let indent = String(repeating: " ", count: item.level * (list.isOrdered ? 3 : 2))
                return indent + (list.isOrdered ? "\(number). " : "- ") + inline(item.text)
            }.joined(separator: "\n")
        case .table(let table):
            return table.hasSpans ? HTMLRenderer.table(table, attributes: { _ in "" }) : pipeTable(table)
        case .pageHeader, .pageFooter:
            return nil
        }
    }

    /// A pipe table: the first row is the header row (GitHub's tables need one).
    static func pipeTable(_ table: TableBlock) -> String {
        var lines = [pipeRow(table.rows[0])]
        lines.append("|" + String(repeating: " --- |", count: table.columnCount))
        lines += table.rows.dropFirst().map(pipeRow)
        return lines.joined(separator: "\n")
    }

    static func pipeRow(_ cells: [TableCell]) -> String {
        "| " + cells.map { inline($0.text).replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    /// Text with Markdown's inline marks escaped, so that what was read is what is shown.
    static func inline(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>".contains(character) { out.append("\\") }
            out.append(character == "\n" ? " " : character)
        }
        return out
    }

    /// A paragraph that would read as a heading, a list item, a quote or a rule escaped at its
    /// start.
    static func escapedLineStart(_ text: String) -> String {
        guard let first = text.first else { return text }
        if "#+->|=".contains(first) { return "\\" + text }
        let digits = text.prefix { $0.isNumber }
        if !digits.isEmpty, digits.count <= 9, let next = text.dropFirst(digits.count).first, next == "." || next == ")" {
            return digits + "\\" + text.dropFirst(digits.count)
        }
        return text
    }

    private static func commentSafe(_ text: String) -> String {
        text.replacingOccurrences(of: "--", with: "- -")
    }
}
