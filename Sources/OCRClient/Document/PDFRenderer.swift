import Foundation
import OCRPDF
import OCRWire

/// Writes a document as a searchable PDF (`DocumentFormat.pdf`), one page per page in order:
/// - a page of an image file shows its original image (`PageResult.pdf_image`: a JPEG as it
///   was, bilevel as CCITT G4, others Flate) at the size its resolution gives it, turned by the
///   page's /Rotate as it was recognised (`rotation_degrees`: EXIF orientation, auto-rotate);
/// - a page of a PDF that had text and was recognised anyway (--force-ocr) is the image it was
///   recognised from (`pdf_image`), so that its old text does not sit beside ours;
/// - another page of a PDF is that page as it was (content, fonts, boxes, rotation), with the text
///   layer under its content: taken from its file among the originals when given (pages that
///   share an image or a font then share it in the PDF too), else `PageResult.pdf_page`;
/// - a result without either (the job did not ask for `include_pdf_page`) is a page of the
///   image's size with the text layer only;
/// - a failed page from a PDF among the originals is its original page without a text layer;
///   another failed or missing page is a blank page of its neighbour's size; the problems say
///   which.
/// Every recognised page gets an invisible text layer: its words in reading order, each on its
/// box (see `TextLayer`). Pages whose text came from their PDF (`TEXT_SOURCE_PDF`) keep their own.
enum PDFRenderer {
    static func render(_ document: Document, originals: [InputFile] = [], pdfa: Bool = false) throws(OCRError) -> (pdf: [UInt8], problems: [String]) {
        var archival: SearchablePDFWriter.PDFA?
        if pdfa {
            guard GlyphlessFont.program != nil else {
                throw OCRError(.failedPrecondition, "PDF/A needs the text layer's font embedded, and Tesseract's pdf.ttf is not installed "
                               + "(Debian: tesseract-ocr; or set TESSDATA_PREFIX)")
            }
            guard let profile = SRGBProfile.bytes else {
                throw OCRError(.failedPrecondition, "PDF/A needs an sRGB ICC profile for its output intent, and none is installed "
                               + "(Debian: libgs-common or icc-profiles-free)")
            }
            archival = SearchablePDFWriter.PDFA(iccProfile: profile)
        }
        let writer = try SearchablePDFWriter(fontProgram: GlyphlessFont.program)
        var problems: [String] = []
        var lastSize = (width: 612.0, height: 792.0)  // US Letter until a page says otherwise.
        for page in document.pages {
            guard let result = page.result else {
                let why = page.error.map { "\($0)" } ?? "no result"
                if let origin = document.failureOrigins[page.pageIndex],
                   let original = originals.first(where: { $0.name == origin.file && isPDF($0) }),
                   (try? writer.addPDFPage(original.content, file: origin.file, number: origin.filePage,
                                           pixelWidth: 0, pixelHeight: 0, lines: [])) != nil {
                    problems.append("page \(page.pageIndex + 1) is its original page without text in the PDF: \(why)")
                    continue
                }
                problems.append("page \(page.pageIndex + 1) is a blank page in the PDF: \(why)")
                try writer.addBlankPage(width: lastSize.width, height: lastSize.height)
                continue
            }
            let lines = result.textSource == .pdf ? [] : textLines(result)
            let dpi = Double(result.dpi > 0 ? result.dpi : 300)
            let size = (width: Double(result.width) * 72 / dpi, height: Double(result.height) * 72 / dpi)
            do throws(OCRError) {
                if let image = result.pdfImage {
                    // Words are in the image's pixels; the page is turned to show it as
                    // recognised (a JPEG's EXIF orientation, auto_rotate's turn). A PDF page
                    // comes as an image when it was rasterised for --force-ocr.
                    try writer.addImagePage(image, lines: lines, rotate: (360 - Int(result.rotationDegrees) % 360) % 360)
                } else if let original = originals.first(where: { $0.name == result.file && isPDF($0) }) {
                    // The whole file once for all its pages: what they share is written once.
                    try writer.addPDFPage(original.content, file: result.file, number: Int(result.filePage),
                                          pixelWidth: Int(result.width), pixelHeight: Int(result.height), lines: lines)
                } else if !result.pdfPage.isEmpty {
                    try writer.addPDFPage(result.pdfPage, file: "\(result.file) page \(result.filePage)", pixelWidth: Int(result.width),
                                          pixelHeight: Int(result.height), lines: lines)
                } else {
                    try writer.addBlankPage(width: size.width, height: size.height, lines: lines,
                                            pixelWidth: Double(result.width), pixelHeight: Double(result.height))
                }
            } catch {
                // A kept page whose text layer could not be added stays, without it.
                if writer.pageCount > page.pageIndex {
                    problems.append("page \(page.pageIndex + 1) (\(result.file) p\(result.filePage)) has no text layer in the PDF: \(error.message)")
                    continue
                }
                problems.append("page \(page.pageIndex + 1) (\(result.file) p\(result.filePage)) has only its text in the PDF: \(error.message)")
                try writer.addBlankPage(width: size.width, height: size.height, lines: lines,
                                        pixelWidth: Double(result.width), pixelHeight: Double(result.height))
            }
            if result.width > 0, result.height > 0 { lastSize = size }
        }
        if pdfa {
            for page in document.pages {
                guard let result = page.result, !result.pdfPage.isEmpty || originals.contains(where: { $0.name == result.file && isPDF($0) })
                else { continue }
                problems.append("page \(page.pageIndex + 1) is kept from \(result.file) as it was: its own content is not converted to PDF/A")
            }
        }
        return (try writer.write(pdfa: archival), problems)
    }

    private static func isPDF(_ file: InputFile) -> Bool {
        file.format == .pdf || file.content.starts(with: Array("%PDF-".utf8))
    }

    /// The page's words line by line in reading order, with their boxes.
    static func textLines(_ result: PageResult) -> [[PDFTextWord]] {
        result.nonEmptyBlocks.flatMap(\.nonEmptyParagraphs).flatMap(\.nonEmptyLines).map { line in
            line.words.compactMap { word -> PDFTextWord? in
                let box = word.pixelBox
                // Whitespace "words" (Tesseract's rules and separators) have nothing to find.
                guard !word.text.allSatisfy(\.isWhitespace), box.width > 0, box.height > 0 else { return nil }
                return PDFTextWord(text: word.text, x: Double(box.left), y: Double(box.top),
                                   width: Double(box.width), height: Double(box.height))
            }
        }
    }
}

/// Tesseract's glyphless TrueType font (`pdf.ttf`, installed with its language data), embedded
/// so that the text layer's font is in the file as PDF/A wants; nil when it is not installed
/// here, and the font is then referenced without a program (the text is invisible either way).
enum GlyphlessFont {
    static let program: [UInt8]? = {
        var candidates: [String] = []
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] {
            candidates += [prefix + "/pdf.ttf", prefix + "/tessdata/pdf.ttf"]
        }
        candidates += ["/usr/share/tesseract-ocr/5/tessdata/pdf.ttf", "/usr/share/tesseract-ocr/4.00/tessdata/pdf.ttf",
                       "/usr/local/share/tessdata/pdf.ttf"]
        return firstFile(candidates)
    }()
}

/// The sRGB ICC profile for a PDF/A output intent, from the system (Ghostscript's, or Debian's
/// free profiles); nil when none is installed.
enum SRGBProfile {
    static let bytes: [UInt8]? = {
        firstFile(["/usr/share/color/icc/ghostscript/srgb.icc", "/usr/share/color/icc/sRGB.icc",
                   "/usr/share/color/icc/colord/sRGB.icc", "/usr/share/color/icc/free/sRGB.icc"])
    }()
}

/// The bytes of the first of `paths` that exists and is not empty.
private func firstFile(_ paths: [String]) -> [UInt8]? {
    paths.lazy.compactMap { FileManager.default.contents(atPath: $0) }.first { !$0.isEmpty }.map { [UInt8]($0) }
}
