import OCRStructure

extension Document {
    /// The document's structure, page by page (recognised pages only, in page order):
    /// headings, paragraphs, lists and tables in reading order, running headers and footers set
    /// apart. Computed from the pages' words and boxes each time it is asked for.
    public var structure: [PageStructure] {
        DocumentStructure.analyze(recognizedPages)
    }
}
