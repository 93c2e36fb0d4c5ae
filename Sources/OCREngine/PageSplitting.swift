import Foundation
import OCRWire

/// One page of an input, cheap to make and to send: the file's encoded bytes (shared, not
/// copied: `[UInt8]` is copy-on-write) plus which page inside it. Nothing is decoded until a
/// worker calls ``PageDecoder/decode(_:options:)``. Mirrors the proto's `PageTask` fields.
public struct PageDescriptor: Sendable, Equatable {
    /// Input file name as submitted.
    public var file: String
    /// 1-based page inside the file (TIFF directory, PDF page; 1 for single images).
    public var filePage: Int
    /// Zero-based index of the page across everything split together (the job).
    public var pageIndex: Int
    /// The whole file's bytes, in compressed form (for TIFF and PDF, every page's).
    public var content: [UInt8]
    /// The file's format (sniffed).
    public var format: ImageFormat

    public init(file: String, filePage: Int, pageIndex: Int, content: [UInt8], format: ImageFormat) {
        self.file = file
        self.filePage = filePage
        self.pageIndex = pageIndex
        self.content = content
        self.format = format
    }

    var context: PageContext { PageContext(file: file, pageIndex: pageIndex, filePage: filePage) }
}

/// Splits inputs into ``PageDescriptor``s without decoding pixels: a multipage TIFF by walking its
/// directory chain, a PDF by asking `pdfinfo` for the page count, a directory by listing its image
/// files in name order. Synchronous (PDFs run a subprocess): call it off the cooperative pool.
public struct PageSplitter: Sendable {
    public var pdf: PDFRasterizer

    public init(pdf: PDFRasterizer = PDFRasterizer()) { self.pdf = pdf }

    /// The pages of one file. `format` unspecified: sniffed from the bytes.
    /// Throws `INVALID_ARGUMENT` (naming the file, page 0) for empty, unknown or unreadable input.
    public func pages(file: String, content: [UInt8], format: ImageFormat = .unspecified, firstPageIndex: Int = 0) throws(OCRError) -> [PageDescriptor] {
        let context = PageContext(file: file, pageIndex: firstPageIndex, filePage: 1)
        return try context.stamp { () throws(OCRError) -> [PageDescriptor] in
            guard !content.isEmpty else { throw OCRError(.invalidArgument, "\(file) is empty (0 bytes)") }
            let kind = format == .unspecified ? ImageFormat.sniff(content) : format
            guard let kind else { throw OCRError(.invalidArgument, "\(file) is not an image or PDF this engine reads (unknown format)") }
            let count: Int
            switch kind {
            case .tiff: count = try Pix.tiffPageCount(content)
            case .pdf: count = try pdf.pageCount(content)
            default: count = 1
            }
            // A multipage TIFF is cut into one standalone TIFF per page (bytes copied, nothing
            // decoded), so each page task carries its own page rather than the whole file;
            // `filePage` keeps the page's number in the original file (see PageDecoder).
            let perPage = kind == .tiff && count > 1 ? TIFFPages.split(content).flatMap { $0.count == count ? $0 : nil } : nil
            return (0..<count).map {
                PageDescriptor(file: file, filePage: $0 + 1, pageIndex: firstPageIndex + $0, content: perPage?[$0] ?? content, format: kind)
            }
        }
    }

    /// The pages of every image file (by extension) in `directory`, files in name order.
    /// Names in results are `directory/name`.
    public func pages(directory: String) throws(OCRError) -> [PageDescriptor] {
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

    /// The pages `ranges` select (1-based, inclusive, `last == 0` meaning to the end), in order and
    /// without duplicates, renumbered with `pageIndex` from 0. Empty `ranges`: every page.
    /// `OUT_OF_RANGE` for a range that starts past the end or has `first > last`.
    public static func select(_ pages: [PageDescriptor], ranges: [PageRange]) throws(OCRError) -> [PageDescriptor] {
        guard !ranges.isEmpty else { return pages }
        var chosen = Set<Int>()
        for r in ranges {
            let first = Int(r.first), last = r.last == 0 ? pages.count : Int(r.last)
            guard first >= 1, first <= pages.count, first <= last else {
                throw OCRError(.outOfRange, "page range \(r.first)-\(r.last == 0 ? "end" : String(r.last)) is outside 1-\(pages.count)")
            }
            chosen.formUnion(first...min(last, pages.count))
        }
        return chosen.sorted().enumerated().map { i, n in
            var page = pages[n - 1]
            page.pageIndex = i
            return page
        }
    }
}
