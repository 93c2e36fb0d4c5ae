import OCRLeptonica
import OCRPageModel
import Foundation
import OCRBasics
import OCRPages
import OCRWire

/// A decoded page image. Owned pixels stay inside the module; callers see its size and DPI.
package final class DecodedPage {
    let pix: Pix
    /// Width and height in pixels.
    package var width: Int { pix.width }
    package var height: Int { pix.height }
    /// Bits per pixel (1, 8, 32...).
    package var depth: Int { pix.depth }
    /// Resolution: `--dpi`, else the file's tag when plausible for the page's size, else an
    /// estimate (`PageResolution`).
    package let dpi: Int
    /// Time spent decoding (and rasterising PDFs), microseconds.
    package let decodeMicroseconds: UInt64
    /// Clockwise quarter turns the file asks for before it is shown (a JPEG's EXIF orientation:
    /// a phone's photo of an upright page is usually stored on its side).
    package let quarterTurns: Int

    init(pix: Pix, dpi: Int, decodeMicroseconds: UInt64, quarterTurns: Int = 0) {
        self.pix = pix
        self.dpi = dpi
        self.decodeMicroseconds = decodeMicroseconds
        self.quarterTurns = quarterTurns
    }
}

/// Decodes one page from its encoded bytes with Leptonica, after checking the pixel count from
/// the header (a decompression bomb is refused before any pixel is decoded).
package struct PageDecoder: Sendable {
    /// Default page pixel limit (150 megapixels).
    package static let defaultMaxPixels: UInt64 = 150_000_000

    package var pdf: PDFRasterizer
    /// This decoder's ceiling: a page's `max_page_pixels` option may lower it, never raise it
    /// (the option comes from the client; the ceiling from whoever runs the engine).
    package var maxPixels: UInt64

    package init(pdf: PDFRasterizer = PDFRasterizer(), maxPixels: UInt64 = defaultMaxPixels) {
        self.pdf = pdf
        self.maxPixels = maxPixels
    }

    /// Decodes `page`. Throws `INVALID_ARGUMENT` for empty, truncated, corrupt or unknown input
    /// and broken or encrypted PDFs, `RESOURCE_EXHAUSTED` over the pixel limit, and
    /// `DEADLINE_EXCEEDED` when the PDF rasteriser hangs; each names the file and page.
    /// `deadline` bounds PDF rasterisation (with the rasteriser's own timeout, whichever is sooner).
    package func decode(_ page: PageDescriptor, options: RecognitionOptions = RecognitionOptions(),
                       deadline: ContinuousClock.Instant? = nil) throws(OCRError) -> DecodedPage {
        try page.context.stamp { () throws(OCRError) -> DecodedPage in
            let start = ContinuousClock.now
            guard page.filePage >= 1 else { throw OCRError(.invalidArgument, "\(page.file): page numbers start at 1 (got \(page.filePage))") }
            var pdf = self.pdf
            if let deadline {
                let left = deadline - start
                guard left > .zero else { throw OCRError(.deadlineExceeded, "the page deadline passed before decoding") }
                pdf.timeout = min(pdf.timeout, left)
            }
            let limit = options.maxPagePixels == 0 ? maxPixels : min(options.maxPagePixels, maxPixels)
            let where_ = "\(page.file) page \(page.filePage)"
            guard !page.content.isEmpty else { throw OCRError(.invalidArgument, "\(page.file) is empty (0 bytes)") }
            let format = page.resolvedFormat
            guard let format else { throw OCRError(.invalidArgument, "\(page.file) is not an image this engine reads (unknown format)") }
            let pix: Pix
            do throws(OCRError) {
                switch format {
                case .pdf:
                    // --dpi wins; else the resolution of the page's own images; else 300.
                    let raster = try pdf.rasterize(page.content, page: page.filePage, dpi: options.dpi == 0 ? nil : Int(options.dpi),
                                                   maxPixels: limit)
                    pix = try Pix.decode(raster.pnm)
                    pix.setResolution(raster.dpi)
                case .tiff:
                    // A single-page TIFF is that page (the splitter cut it out); a whole multipage
                    // file is decoded at directory `filePage`.
                    let index = TIFFSplitter.isSinglePage(page.content) ? 0 : page.filePage - 1
                    let header = try Pix.tiffHeader(page.content, index: index)
                    try Self.check(header, limit: limit, where_)
                    pix = try Pix.decodeTIFF(page.content, index: index)
                default:
                    guard page.filePage == 1 else { throw OCRError(.invalidArgument, "\(page.file) has one page, not \(page.filePage)") }
                    let header = try Pix.header(page.content)
                    try Self.check(header, limit: limit, where_)
                    pix = try Pix.decode(page.content)
                }
            } catch {
                guard error.code == .invalidArgument, format != .pdf else { throw error }
                throw OCRError(.invalidArgument, "\(where_): \(error.message) (truncated, corrupt or not a \(format) file?)")
            }
            // Decoders may disagree with the header: check what was actually decoded too.
            if UInt64(pix.width) * UInt64(pix.height) > limit {
                throw OCRError(.resourceExhausted, "\(where_) is \(pix.width)x\(pix.height) pixels, over the limit of \(limit)")
            }
            let fileDPI = pix.xResolution
            let dpi = PageResolution.choose(tag: fileDPI, width: pix.width, height: pix.height, requested: Int(options.dpi),
                                            letterHeight: { try? LostText.letterHeight(of: pix) }).dpi
            // The image itself carries the resolution too: Tesseract's orientation detection
            // reads it from the pix, not from SetSourceResolution.
            if dpi != fileDPI { pix.setResolution(dpi) }
            let elapsed = ContinuousClock.now - start
            let turns = format == .jpeg ? ExifOrientation.quarterTurns(jpeg: page.content) : 0
            return DecodedPage(pix: pix, dpi: dpi, decodeMicroseconds: UInt64(clamping: elapsed.microseconds), quarterTurns: turns)
        }
    }

    static func check(_ header: ImageHeader, limit: UInt64, _ where_: String) throws(OCRError) {
        guard header.width > 0, header.height > 0 else {
            throw OCRError(.invalidArgument, "\(where_): the header declares an empty image")
        }
        if header.pixels > limit {
            throw OCRError(.resourceExhausted, "\(where_) declares \(header.width)x\(header.height) pixels, over the limit of \(limit); refused before decoding")
        }
    }
}

