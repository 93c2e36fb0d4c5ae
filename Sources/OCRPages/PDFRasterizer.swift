import Foundation
import OCRWire

/// PDF pages through helpers: poppler's `pdfinfo` for page sizes, `pdfimages` for their images
/// and `pdftotext` for a text layer, MuPDF's `mutool draw` to rasterise one page (five times
/// faster than poppler's `pdftoppm` on a 300 dpi scan: 0.065 s against 0.31 s, and pixel for
/// pixel the scan, where pdftoppm smooths bilevel images; `pdftoppm` when MuPDF is not
/// installed, and for pages with ICC-based images, whose profile only poppler applies). The coordinator counts and cuts pages with qpdf (``PDFDocument``). All run in a
/// subprocess with a timeout, so a malicious or broken PDF can hang or crash only the helper,
/// never the engine.
package struct PDFRasterizer: Sendable {
    /// Path or name of `pdfinfo`.
    package var pdfinfo: String
    /// Path or name of `pdftoppm`.
    package var pdftoppm: String
    /// Path of MuPDF's `mutool`, nil when it is not installed (then `pdftoppm` rasterises).
    package var mutool: String?
    /// Path or name of `pdfimages` (the resolution of a page's own images).
    package var pdfimages: String
    /// Path or name of `pdftotext` (a page's own text layer).
    package var pdftotext: String
    /// Limit for each helper run.
    package var timeout: Duration

    /// `mutool` on the PATH, looked up once.
    static let installedMutool: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/mutool" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The resolution a page is rasterised at when it has no images to take it from (vector text).
    package static let defaultDPI = 300
    /// Image resolutions outside this range are clamped (a 2400 ppi logo must not make a page of
    /// gigapixels; a 20 ppi thumbnail is not a page scan).
    package static let imageDPIRange = 50...600

    package init(pdfinfo: String = "pdfinfo", pdftoppm: String = "pdftoppm", pdfimages: String = "pdfimages",
                 pdftotext: String = "pdftotext", timeout: Duration = .seconds(60)) {
        self.pdfinfo = pdfinfo
        self.pdftoppm = pdftoppm
        self.mutool = Self.installedMutool
        self.pdfimages = pdfimages
        self.pdftotext = pdftotext
        self.timeout = timeout
    }

    /// Page size in points (1/72 inch) of the 1-based `page`, with its /Rotate applied, and the
    /// page of `pdf` that holds it: `page` itself, or 1 when `pdf` has a single page (a page the
    /// splitter cut out of a larger file, `page` being its number in that file).
    package func pageSize(_ pdf: [UInt8], page: Int) throws(OCRError) -> (width: Double, height: Double, contentPage: Int) {
        let info = try self.info(pdf, page: page)
        let contentPage = info.pages == 1 ? 1 : page
        guard let size = info.sizes[contentPage] else { throw OCRError(.invalidArgument, "PDF page \(page) does not exist") }
        return (size.width, size.height, contentPage)
    }

    /// The 1-based `page`'s own images as placed on the page (`pdfimages -list`). Their
    /// resolution (x-ppi and y-ppi; the highest of the images, the higher of its two axes),
    /// clamped to `imageDPIRange`, nil when the page draws no image: a scan wrapped in a PDF is
    /// rasterised at the resolution it was scanned at, as OCRmyPDF does (an untagged 300 dpi scan
    /// that `img2pdf` placed on a 35-inch page is rendered at its own 72 ppi, its pixels, not at
    /// 300 dpi, 82 megapixels a page).
    private func pageImages(_ input: String, page: Int, contentPage: Int, in dir: TemporaryDirectory) throws(OCRError) -> PageImages {
        let outcome = try Subprocess.run(pdfimages, ["-list", "-f", "\(contentPage)", "-l", "\(contentPage)", input],
                                         timeout: timeout, workDirectory: dir.path)
        guard outcome.status == 0 else {
            throw OCRError(.invalidArgument, "pdfimages could not list the images of page \(page): \(Self.firstLine(outcome.stderr))")
        }
        return Self.pageImages(listing: String(decoding: outcome.stdout, as: UTF8.self))
    }

    /// What `pdfimages -list` says about a page's images: their resolution (see
    /// `pageImages(_:page:contentPage:in:)`), whether they are all bilevel (1 bit per pixel, gray:
    /// a scan stored as CCITT or JBIG2), and whether any is in an ICC-based colour space.
    package struct PageImages: Equatable {
        package var dpi: Int?
        package var bilevel: Bool
        package var iccBased = false
    }

    package static func pageImages(listing: String) -> PageImages {
        // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
        var best: Int?
        var bilevel = true
        var icc = false
        for line in listing.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 14, Int(columns[0]) != nil, columns[2] == "image" || columns[2] == "stencil",
                  let x = Double(columns[12]), let y = Double(columns[13]), x > 0, y > 0 else { continue }
            let dpi = Int(max(x, y).rounded())
            best = max(best ?? dpi, dpi)
            bilevel = bilevel && columns[7] == "1" && columns[5] == "gray"
            icc = icc || columns[5] == "icc"
        }
        return PageImages(dpi: best.map { min(max($0, imageDPIRange.lowerBound), imageDPIRange.upperBound) }, bilevel: best != nil && bilevel,
                          iccBased: icc)
    }

    /// The text of the 1-based `page`'s own text layer (`pdftotext`, reading order, UTF-8), ""
    /// when it has none: a scan has none; a born-digital page or one OCRed before has some.
    package func textLayer(_ pdf: [UInt8], page: Int) throws(OCRError) -> String {
        let contentPage = try pageSize(pdf, page: page).contentPage
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.path + "/in.pdf"
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            throw OCRError(.internal, "cannot write a temporary PDF")
        }
        let outcome = try Subprocess.run(pdftotext, ["-f", "\(contentPage)", "-l", "\(contentPage)", "-enc", "UTF-8", input, "-"],
                                         timeout: timeout, workDirectory: dir.path)
        guard outcome.status == 0 else {
            throw OCRError(.invalidArgument, "pdftotext could not read page \(page): \(Self.firstLine(outcome.stderr))")
        }
        // pdftotext ends every page with a form feed.
        return String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\u{0C}"))
    }

    /// Rasterises the 1-based `page` to 8-bit gray PGM bytes (binary PNM: no encoding cost, where
    /// PNG took 3.5 s of CPU on a 300 dpi page), at `dpi`, or when nil at the resolution of the
    /// page's images (`defaultDPI` without images); returns the resolution used with the bytes.
    /// The CropBox is rendered (what a viewer shows), the same box `pdfinfo` sizes the page by, so
    /// the pixel check below and the rasteriser agree (a small CropBox on a huge MediaBox).
    /// A single-page `pdf` is that page whatever `page` says (see ``pageSize(_:page:)``).
    /// Refuses before rasterising when the page would exceed `maxPixels`.
    /// A page whose images are all bilevel, rendered at their own resolution, is rendered 1-bit
    /// (PBM): the scan's own pixels, and Tesseract then has nothing to threshold (on a 300 dpi
    /// letter page that saved about a third of the page's time against gray).
    package func rasterize(_ pdf: [UInt8], page: Int, dpi requested: Int?, maxPixels: UInt64) throws(OCRError) -> (pnm: [UInt8], dpi: Int) {
        let size = try pageSize(pdf, page: page)
        let contentPage = size.contentPage
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.path + "/in.pdf"
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            throw OCRError(.internal, "cannot write a temporary PDF")
        }
        let images = try pageImages(input, page: page, contentPage: contentPage, in: dir)
        let dpi = requested ?? images.dpi ?? Self.defaultDPI
        let mono = images.bilevel && dpi == images.dpi
        let w = size.width / 72 * Double(dpi), h = size.height / 72 * Double(dpi)
        if w * h > Double(maxPixels) {
            throw OCRError(.resourceExhausted, "PDF page \(page) at \(dpi) dpi would be \(Int(w))x\(Int(h)) pixels, over the limit of \(maxPixels)")
        }
        let output = dir.path + (mono ? "/page.pbm" : "/page.pgm")
        // Both render the CropBox, turned by /Rotate, as a viewer shows the page. An image in an
        // ICC-based colour space goes to poppler, which applies the profile (lcms2): Debian's
        // MuPDF is built without ICC support and renders such an image's gray several levels
        // off, enough to change what Tesseract reads (OCRmyPDF's c03-29.pdf: its first two
        // lines interleaved and its drop-cap line lost, where poppler's render reads them right).
        let renderer = images.iccBased ? nil : mutool
        let (tool, arguments) = renderer.map {
            ($0, ["draw", "-q", "-r", "\(dpi)", "-c", mono ? "mono" : "gray", "-o", output, input, "\(contentPage)"])
        } ?? (pdftoppm, ["-r", "\(dpi)", "-cropbox", "-f", "\(contentPage)", "-l", "\(contentPage)", mono ? "-mono" : "-gray",
                         "-singlefile", input, dir.path + "/page"])
        let outcome = try Subprocess.run(tool, arguments, timeout: timeout, workDirectory: dir.path)
        guard outcome.status == 0, let pnm = FileManager.default.contents(atPath: output), !pnm.isEmpty else {
            throw OCRError(.invalidArgument, "\((tool as NSString).lastPathComponent) could not render page \(page): \(Self.firstLine(outcome.stderr))")
        }
        return ([UInt8](pnm), dpi)
    }

    /// `pdfinfo`'s page count and, when asked for pages, their sizes (rotation applied) by number.
    private struct Info { var pages: Int?; var sizes: [Int: (width: Double, height: Double)] = [:] }

    private func info(_ pdf: [UInt8], page: Int?) throws(OCRError) -> Info {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.path + "/in.pdf"
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            throw OCRError(.internal, "cannot write a temporary PDF")
        }
        var args = [input]
        // Pages 1...page: pdfinfo clamps the last page to the page count, so a single-page PDF
        // standing for page N of a larger file still reports its page 1.
        if let page { args = ["-f", "1", "-l", "\(max(page, 1))", input] }
        let outcome = try Subprocess.run(pdfinfo, args, timeout: timeout, workDirectory: dir.path)
        guard outcome.status == 0 else {
            let why = outcome.stderr.contains("password") ? "PDF is encrypted (password required)" : "PDF is broken"
            throw OCRError(.invalidArgument, "\(why): \(Self.firstLine(outcome.stderr))")
        }
        var info = Info()
        var rotations: [Int: Int] = [:]
        for line in String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Pages" { info.pages = Int(parts[1]) }
            // With -f/-l: "Page    3 size: 612 x 792 pts (letter)" and "Page    3 rot:  90".
            if let n = Self.pageField(parts[0], "size") {
                let numbers = parts[1].split(separator: " ").compactMap { Double($0) }
                if numbers.count >= 2 { info.sizes[n] = (numbers[0], numbers[1]) }
            }
            if let n = Self.pageField(parts[0], "rot") { rotations[n] = Int(parts[1]) ?? 0 }
        }
        for (n, rotation) in rotations where rotation % 180 != 0 {
            if let s = info.sizes[n] { info.sizes[n] = (s.height, s.width) }
        }
        return info
    }

    /// The page number in a pdfinfo key like "Page    3 size", when the key ends in `field`.
    private static func pageField(_ key: String, _ field: String) -> Int? {
        let words = key.split(separator: " ")
        guard words.count == 3, words[0] == "Page", words[2] == field else { return nil }
        return Int(words[1])
    }

    private static func firstLine(_ s: String) -> String {
        s.split(separator: "\n").first.map(String.init) ?? "no message"
    }
}
