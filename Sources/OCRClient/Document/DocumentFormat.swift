import Foundation
import OCRBasics
import OCRWire

/// An output format for a `Document`, named like `tesseract`'s output configs.
public enum DocumentFormat: String, Sendable, CaseIterable {
    /// Plain text as `tesseract X out txt` writes it: each page's text as Tesseract's
    /// `GetUTF8Text` gives it (lines end with `\n`, paragraphs separated by an empty line), and a
    /// form feed (`\f`) before every page but the first (Tesseract 5's `page_separator`). A page
    /// that failed or is missing contributes empty text, so splitting on `\f` still yields one
    /// element per page.
    case txt
    /// JSON, documented in `JSONRenderer.swift`: `{"version":1,"pageCount":N,"failedPages":[...],
    /// "pages":[...]}` where each page holds its `PageResult` in protobuf's canonical JSON mapping
    /// (pages -> blocks -> paragraphs -> lines -> words -> symbols) or its failure `Status`.
    case json
    /// hOCR 1.2 (XHTML) as `tesseract X out hocr` writes it: `ocr_page`, `ocr_carea`, `ocr_par`,
    /// `ocr_line` (with `baseline`), `ocrx_word` (with `x_wconf`) and `ocrx_cinfo` per symbol.
    case hocr
    /// ALTO 4.4 XML (`Page`/`PrintSpace`/`ComposedBlock`/`TextBlock`/`TextLine`/`String`/`SP`,
    /// pixel units, `WC` word confidences). Failed pages are `Page` elements with `QUALITY="Missing"`.
    case alto
    /// Tab-separated values, column-compatible with `tesseract X out tsv`: `level page_num
    /// block_num par_num line_num word_num left top width height conf text`.
    case tsv
    /// PAGE XML 2019-07-15 (OCR-D), one `PcGts` document per page (`Document.pageXML()`); as a
    /// single text the documents follow each other separated by a form feed (`\f`), as `txt`
    /// separates pages. `ocr-submit -o FILE` writes one file per page instead.
    case page
    /// A searchable PDF (binary): each page's image, or its original PDF page, with an
    /// invisible text layer of its words on their boxes. Complete only when the job's options
    /// asked for `include_pdf_page` (`ocr-submit --format pdf` does); see
    /// `Document.searchablePDF()` for what each kind of page becomes and for problems.
    case pdf
    /// GitHub-flavoured Markdown of the document's structure (`Document.structure`): headings,
    /// paragraphs, lists, tables; see `MarkdownRenderer.swift`.
    case markdown
    /// Semantic HTML of the document's structure, each element with its page and box; see
    /// `HTMLRenderer.swift`.
    case html

    /// Whether the rendered document is text (every format but `pdf`).
    public var isText: Bool { self != .pdf }

    /// Renders `document` in this format. A PDF is binary: as text it is base64-encoded (as a
    /// JSON API carries it); `renderData` gives its bytes. Only a PDF can fail (qpdf's error,
    /// thrown as `Document.searchablePDF()` throws it); text formats always render.
    public func render(_ document: Document) throws(OCRError) -> String {
        switch self {
        case .txt: TextRenderer.render(document)
        case .json: JSONRenderer.render(document)
        case .hocr: HOCRRenderer.render(document)
        case .alto: ALTORenderer.render(document)
        case .tsv: TSVRenderer.render(document)
        case .page: PAGERenderer.render(document).joined(separator: "\u{0C}")
        case .pdf: try renderData(document).base64EncodedString()
        case .markdown: MarkdownRenderer.render(document)
        case .html: HTMLRenderer.render(document)
        }
    }

    /// Renders `document` in this format: UTF-8 text, or the PDF's bytes. Throws what
    /// `Document.searchablePDF()` throws (which also lists the problems of single pages).
    public func renderData(_ document: Document) throws(OCRError) -> Data {
        guard self == .pdf else { return Data(try render(document).utf8) }
        return try document.searchablePDF().data
    }

    /// The file name extension `tesseract` uses for this format (`alto` is `xml`).
    public var fileExtension: String {
        switch self {
        case .txt: "txt"
        case .json: "json"
        case .hocr: "hocr"
        case .alto: "xml"
        case .tsv: "tsv"
        case .page: "xml"
        case .pdf: "pdf"
        case .markdown: "md"
        case .html: "html"
        }
    }

    /// The media type of the rendered bytes.
    public var mediaType: String {
        switch self {
        case .txt: "text/plain; charset=utf-8"
        case .json: "application/json"
        case .hocr: "application/xhtml+xml"
        case .alto: "application/xml"
        case .tsv: "text/tab-separated-values; charset=utf-8"
        case .page: "application/xml"
        case .pdf: "application/pdf"
        case .markdown: "text/markdown; charset=utf-8"
        case .html: "text/html; charset=utf-8"
        }
    }
}

extension Document {
    /// The document rendered in `format` (throws only for a PDF qpdf cannot write).
    public func rendered(as format: DocumentFormat) throws(OCRError) -> String {
        try format.render(self)
    }

    /// The document as a searchable PDF (`DocumentFormat.pdf`), with what went wrong on the way.
    /// A page that failed is its original page without a text layer when it came from a PDF
    /// among `originals` (the submitted files), else a blank page, as is a missing page; a page
    /// whose PDF page or image could not be used has only its text. `problems` names each.
    ///
    /// With `pdfa`, the file also carries the PDF/A-2b identification and what it requires of
    /// the file itself: XMP metadata, an sRGB output intent (the system's ICC profile), the text
    /// layer's font embedded (`FAILED_PRECONDITION` when the profile or Tesseract's `pdf.ttf` is
    /// not installed). Pages kept from input PDFs are not converted: a problem says so for each.
    /// No PDF/A validator has checked this output (docs/usage.md).
    public func searchablePDF(originals: [InputFile] = [], pdfa: Bool = false) throws(OCRError) -> (data: Data, problems: [String]) {
        let (pdf, problems) = try PDFRenderer.render(self, originals: originals, pdfa: pdfa)
        return (Data(pdf), problems)
    }

    /// `searchablePDF(originals:pdfa:)` on a thread of its own, so writing a long document does
    /// not hold one of Swift's cooperative threads (there are only as many as cores).
    public func writingSearchablePDF(originals: [InputFile] = [], pdfa: Bool = false) async throws(OCRError) -> (data: Data, problems: [String]) {
        let result: Result<(data: Data, problems: [String]), OCRError> = await onThreadOfItsOwn {
            Result { () throws(OCRError) in try searchablePDF(originals: originals, pdfa: pdfa) }
        }
        return try result.get()
    }

    /// The plain text of the document (`DocumentFormat.txt`).
    public var text: String {
        TextRenderer.render(self)
    }
}
