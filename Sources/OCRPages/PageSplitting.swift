import Foundation
import OCRWire

/// One page of an input, cheap to make and to send: the page's own encoded bytes plus its number
/// in the original file. Nothing is decoded until a worker calls ``PageDecoder/decode(_:options:)``.
/// Mirrors the proto's `PageTask` fields.
///
/// `content` holds one page: a single-page TIFF or PDF cut out of the original by
/// ``PageSplitter`` (still compressed), or the original file when it has one page. The decoder
/// decodes the only page of single-page content whatever `filePage` says; content with several
/// pages (a whole multipage file, as older coordinators sent) is decoded at page `filePage`.
package struct PageDescriptor: Sendable, Equatable {
    /// Input file name as submitted.
    package var file: String
    /// 1-based page inside the file (TIFF directory, PDF page; 1 for single images).
    package var filePage: Int
    /// Zero-based index of the page across everything split together (the job).
    package var pageIndex: Int
    /// This page's bytes in compressed form (a single-page TIFF or PDF, or a single image).
    package var content: [UInt8]
    /// The file's format (sniffed).
    package var format: ImageFormat

    package init(file: String, filePage: Int = 1, pageIndex: Int = 0, content: [UInt8], format: ImageFormat) {
        self.file = file
        self.filePage = filePage
        self.pageIndex = pageIndex
        self.content = content
        self.format = format
    }

    package var context: PageContext { PageContext(file: file, pageIndex: pageIndex, filePage: filePage) }
}

/// Splits inputs into ``PageDescriptor``s, each carrying only its own page, without decoding or
/// rasterising pixels: a multipage TIFF into single-page TIFFs by copying each directory's tags and
/// compressed strips (libtiff, like `tiffsplit`), a PDF into single-page PDFs with poppler's
/// `pdfseparate` (one run, in a subprocess with the PDF timeout), a directory by listing its image
/// files in name order. The pages of a file add up to about the file's size. Synchronous (PDFs run
/// subprocesses): call it off the cooperative pool.
package struct PageSplitter: Sendable {
    package var pdf: PDFRasterizer
    /// Path or name of poppler's `pdfseparate`.
    package var pdfseparate: String

    package init(pdf: PDFRasterizer = PDFRasterizer(), pdfseparate: String = "pdfseparate") {
        self.pdf = pdf
        self.pdfseparate = pdfseparate
    }

    /// The pages of one file. `format` unspecified: sniffed from the bytes.
    /// Throws `INVALID_ARGUMENT` (naming the file and page) for empty, unknown or unreadable input
    /// or a broken TIFF directory chain or strip, and the PDF errors of ``PDFRasterizer``.
    package func pages(file: String, content: [UInt8], format: ImageFormat = .unspecified, firstPageIndex: Int = 0) throws(OCRError) -> [PageDescriptor] {
        let context = PageContext(file: file, pageIndex: firstPageIndex, filePage: 1)
        return try context.stamp { () throws(OCRError) -> [PageDescriptor] in
            guard !content.isEmpty else { throw OCRError(.invalidArgument, "\(file) is empty (0 bytes)") }
            let kind = format == .unspecified ? ImageFormat.sniff(content) : format
            guard let kind else { throw OCRError(.invalidArgument, "\(file) is not an image or PDF this engine reads (unknown format)") }
            let contents: [[UInt8]]
            switch kind {
            case .tiff: contents = try TIFFSplitter.pages(content, file: file, firstPageIndex: firstPageIndex)
            case .pdf: contents = try separatePDF(content, pages: pdf.pageCount(content))
            default: contents = [content]
            }
            return contents.enumerated().map { i, bytes in
                PageDescriptor(file: file, filePage: i + 1, pageIndex: firstPageIndex + i, content: bytes, format: kind)
            }
        }
    }

    /// The pages of every image file (by extension) in `directory`, files in name order.
    /// Names in results are `directory/name`.
    package func pages(directory: String) throws(OCRError) -> [PageDescriptor] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw OCRError(.invalidArgument, "cannot list directory \(directory)", file: directory)
        }
        var result: [PageDescriptor] = []
        for name in names.sorted() where ImageFormat.fromExtension(name) != nil {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw OCRError(.invalidArgument, "cannot read \(path)", file: path, page: result.count)
            }
            result += try pages(file: path, content: [UInt8](data), firstPageIndex: result.count)
        }
        return result
    }
}
