import OCRWire

/// `DocumentFormat.txt`: Tesseract 5's text renderer. Each page is its `GetUTF8Text`: every line
/// ends with `\n`, and paragraphs are separated by one empty line (none after the last one).
/// Tesseract 5.3 writes its `page_separator` (a form feed) before every page but the first, and
/// nothing after the last page: `tesseract two-pages.tif - txt` gives `page1\fpage2`.
enum TextRenderer {
    static func render(_ document: Document) -> String {
        var out = ""
        for (position, page) in document.pages.enumerated() {
            if position > 0 { out += "\u{0C}" }
            if let result = page.result { out += pageText(result) }
        }
        return out
    }

    /// The page text the engine sent (`PageResult.text`, Tesseract's own `GetUTF8Text`), or, when
    /// it is empty, the same layout rebuilt from the block hierarchy.
    static func pageText(_ page: PageResult) -> String {
        page.text.isEmpty ? rebuiltText(page) : page.text
    }

    /// `GetUTF8Text` rebuilt from the hierarchy: words joined by one space, `\n` after every line,
    /// one more `\n` between paragraphs (within and across blocks).
    static func rebuiltText(_ page: PageResult) -> String {
        let paragraphs = page.nonEmptyBlocks.flatMap(\.nonEmptyParagraphs)
        return paragraphs.map { paragraph in
            paragraph.nonEmptyLines.map { line in
                line.words.map(\.text).joined(separator: " ") + "\n"
            }.joined()
        }.joined(separator: "\n")
    }
}
