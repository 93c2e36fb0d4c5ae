import Foundation
import OCRPDF
import OCRWire

/// How a page is taken out of its ``PageDescriptor/content`` before it is sent to a worker.
package enum PageCut: Sendable, Equatable {
    /// `content` is the page as it is sent: a single image, a file whose only page this is, or a
    /// multipage TIFF libtiff cannot rewrite raw (old-style JPEG), which workers decode at
    /// `filePage`.
    case none
    /// `content` is a multipage TIFF; the page is its directory at this byte offset.
    case tiffDirectory(offset: UInt64)
    /// `content` is a multipage PDF; the page is page `filePage` of it.
    case pdfPage
}

/// One page of an input, cheap to make and to keep: the bytes of the file it comes from (shared,
/// not copied, by every page of that file) and how to cut it out (``cut``). Nothing is decoded
/// until a worker calls `PageDecoder.decode`; nothing is cut until ``cutOut()`` (the coordinator
/// calls it when it dispatches the page), so the pages of a file cost the file once, however
/// many pages share its strips, images or fonts.
package struct PageDescriptor: Sendable, Equatable {
    /// Input file name as submitted.
    package var file: String
    /// 1-based page inside the file (TIFF directory, PDF page; 1 for single images).
    package var filePage: Int
    /// Zero-based index of the page across everything split together (the job).
    package var pageIndex: Int
    /// The file's bytes (``cut`` says how to take this page out), or the page's own once cut.
    package var content: [UInt8]
    /// The file's format (sniffed).
    package var format: ImageFormat
    /// How to take the page out of `content`.
    package var cut: PageCut
    /// SHA-256 of `content` in hex (``FileDigest``), or "" when not computed: the spool's name for it.
    package var digest: String
    /// The bytes the page's image takes in its file, compressed: a single image's file, a TIFF
    /// directory's strips or tiles; nil for a PDF's page (and a directory this parser cannot
    /// read). A page far larger than its job's others holds far more ink or noise to read: the
    /// coordinator dispatches such pages first (``DispatchOrder``). Kept when the page is cut.
    package let encodedBytes: UInt64?

    package init(file: String, filePage: Int = 1, pageIndex: Int = 0, content: [UInt8], format: ImageFormat,
                 cut: PageCut = .none, digest: String = "") {
        self.file = file
        self.filePage = filePage
        self.pageIndex = pageIndex
        self.content = content
        self.format = format
        self.cut = cut
        self.digest = digest
        encodedBytes = switch cut {
        case .none: content.isEmpty ? nil : UInt64(content.count)
        case .tiffDirectory(let offset): TIFFDirectoryCopy.stripBytes(content, at: offset)
        case .pdfPage: nil
        }
    }

    package var context: PageContext { PageContext(file: file, pageIndex: pageIndex, filePage: filePage) }

    /// This page cut out (``cutOut()``) when that is a byte copy of at most `maxBytes` of
    /// strips, a few microseconds for a small page: cheap enough for a caller's I/O loop, sparing
    /// it two thread hops. Nil otherwise (call ``cutOut()`` off the loop).
    package func quickCut(maxBytes: UInt64) -> PageDescriptor? {
        var page = self
        switch cut {
        case .none: return self
        case .pdfPage: return nil
        case .tiffDirectory(let offset):
            guard let copy = TIFFDirectoryCopy.page(content, at: offset, maxBytes: maxBytes) else { return nil }
            page.content = copy
        }
        page.cut = .none
        page.digest = ""
        return page
    }

    /// This page with only its own bytes (`cut` becomes `.none`): a single-page TIFF of its
    /// directory's tags and raw strips, or a single-page PDF with the objects the page uses.
    /// Costs about the page's size; `INVALID_ARGUMENT` naming the file and page when it cannot
    /// be cut. Synchronous CPU work: call it off any I/O loop.
    package func cutOut() throws(OCRError) -> PageDescriptor {
        var page = self
        switch cut {
        case .none: return self
        case .tiffDirectory(let offset): page.content = try TIFFSplitter.page(content, at: offset, context)
        case .pdfPage: page.content = try context.stamp { () throws(OCRError) in try PDFDocument(content, file: context.file).page(filePage) }
        }
        page.cut = .none
        page.digest = ""
        return page
    }
}

/// Splits inputs into ``PageDescriptor``s without decoding pixels or copying pages: a multipage
/// TIFF by walking its directory chain (libtiff; each directory's strips checked to lie inside
/// the file and not to overlap another's), a PDF by counting its page tree (qpdf), a directory
/// by listing its image files in name order. Every page of a file shares the file's bytes; pages
/// are cut out later (``PageDescriptor/cutOut()``). Synchronous: call it off the cooperative pool.
package struct PageSplitter: Sendable {
    package init() {}

    /// The pages of one file. `format` unspecified: sniffed from the bytes.
    /// Throws `INVALID_ARGUMENT` (naming the file and page) for empty, unknown or unreadable
    /// input, a broken TIFF directory chain, strips outside the file or shared between
    /// directories, and PDFs qpdf cannot read or that are encrypted.
    package func pages(file: String, content: [UInt8], format: ImageFormat = .unspecified, firstPageIndex: Int = 0) throws(OCRError) -> [PageDescriptor] {
        let context = PageContext(file: file, pageIndex: firstPageIndex, filePage: 1)
        return try context.stamp { () throws(OCRError) -> [PageDescriptor] in
            guard !content.isEmpty else { throw OCRError(.invalidArgument, "\(file) is empty (0 bytes)") }
            let kind = format == .unspecified ? ImageFormat.sniff(content) : format
            guard let kind else { throw OCRError(.invalidArgument, "\(file) is not an image or PDF this engine reads (unknown format)") }
            let cuts: [PageCut]
            switch kind {
            case .tiff: cuts = try TIFFSplitter.directories(content, context)
            case .pdf:
                let count = try PDFDocument(content, file: context.file).pageCount()
                cuts = Array(repeating: count == 1 ? .none : .pdfPage, count: count)
            default: cuts = [.none]
            }
            let digest = FileDigest.sha256(content)
            return cuts.enumerated().map { i, cut in
                PageDescriptor(file: file, filePage: i + 1, pageIndex: firstPageIndex + i, content: content, format: kind,
                               cut: cut, digest: digest)
            }
        }
    }

    /// The pages as a worker receives them: ``pages(file:content:format:firstPageIndex:)``, each
    /// cut out (``PageDescriptor/cutOut()``). For tools and tests; the coordinator cuts a page
    /// only when it dispatches it.
    package func cutPages(file: String, content: [UInt8], format: ImageFormat = .unspecified, firstPageIndex: Int = 0) throws(OCRError) -> [PageDescriptor] {
        var cut: [PageDescriptor] = []
        for page in try pages(file: file, content: content, format: format, firstPageIndex: firstPageIndex) {
            cut.append(try page.cutOut())
        }
        return cut
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
