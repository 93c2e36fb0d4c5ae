import Foundation
import OCRClient
import OCRTestSupport
import Testing

/// `--format pdf` end to end: real coordinator and Tesseract workers, the PDF written by the
/// client library, checked with the real tools: qpdf (structure), poppler (text per page, word
/// boxes, rendering), MuPDF and Ghostscript (rendering), ImageMagick (pixel comparison).
@Suite(.serialized, .blocking,
       .enabled(if: ["qpdf", "pdftotext", "pdftoppm", "mutool", "gs", "compare", "convert"].allSatisfy(commandExists),
                "needs qpdf, poppler-utils, mupdf-tools, ghostscript and imagemagick: run `make deps`"))
struct SearchablePDFTests {
    static let pdfs = Binaries.realTestdata.appendingPathComponent("pdf")
    let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// What a job gave back: its document, and the PDF written from it.
    struct Outcome {
        var document: Document
        var pdf: URL
        var problems: [String]
    }

    /// Recognises `files` (with `options`) on a real cluster and writes the searchable PDF.
    func run(_ files: [URL], options: RecognitionOptions = RecognitionOptions(), name: String,
             engine: String = "tesseract", pdfa: Bool = false) async throws -> Outcome {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: engine)
        let client = try OCRClient(endpoint: cluster.clientEndpoint, callTimeout: .seconds(120))
        var options = options
        options.includePdfPage = true
        let inputs = try InputFile.load(files)
        let job = try await client.submit(inputs: inputs, options: options)
        let document = try await client.document(for: job)
        client.close()
        await cluster.stop()
        let (data, problems) = try document.searchablePDF(originals: inputs, pdfa: pdfa)
        let pdf = scratch.appendingPathComponent(name)
        try data.write(to: pdf)
        return Outcome(document: document, pdf: pdf, problems: problems)
    }

    // MARK: checks

    /// qpdf finds no damage and the page count is `pages`.
    func checkStructure(_ pdf: URL, pages: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try runProcess(["qpdf", "--check", pdf.path])
        #expect(check.status == 0 && check.stdout.contains("No syntax or stream encoding errors"), "qpdf --check: \(check.stdout) \(check.stderr)", sourceLocation: sourceLocation)
        let count = try runProcess(["qpdf", "--show-npages", pdf.path])
        #expect(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == pages, "pages: \(count.stdout)", sourceLocation: sourceLocation)
    }

    static func words(_ text: String) -> [String] { text.split(whereSeparator: \.isWhitespace).map(String.init) }

    /// Each page's text as poppler extracts it in content order (`-raw`) is our text for it, up
    /// to whitespace: the same characters in the same order, and the same words but for at most
    /// 1% that poppler joins (a lone ";" Tesseract puts a pixel after "clothes" comes out as
    /// "clothes;": the gap is smaller than any extractor's word break).
    func checkText(_ outcome: Outcome, pages: [Int], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for index in pages {
            let extracted = try runProcess(["pdftotext", "-raw", "-f", "\(index + 1)", "-l", "\(index + 1)", outcome.pdf.path, "-"])
            let ours = try #require(outcome.document[index]?.result, "page \(index + 1) recognised", sourceLocation: sourceLocation)
            let theirs = Self.words(extracted.stdout), mine = Self.words(ours.text)
            #expect(theirs.joined() == mine.joined(), "page \(index + 1) of \(outcome.pdf.lastPathComponent): \(theirs.prefix(40)) vs \(mine.prefix(40))",
                    sourceLocation: sourceLocation)
            #expect(theirs.count <= mine.count && 100 * (mine.count - theirs.count) <= mine.count,
                    "page \(index + 1) of \(outcome.pdf.lastPathComponent): \(theirs.count) words extracted of \(mine.count)", sourceLocation: sourceLocation)
        }
    }

    /// A word box from `pdftotext -bbox`, in points from the top left.
    struct Box { var text: String; var x0, y0, x1, y1: Double }

    static func pdfWords(_ pdf: URL, page: Int) throws -> [Box] {
        let html = try runProcess(["pdftotext", "-bbox", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"]).stdout
        let regex = try NSRegularExpression(pattern: #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>"#)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
            let v = (1...4).map { Double(html[Range(m.range(at: $0), in: html)!])! }
            return Box(text: String(html[Range(m.range(at: 5), in: html)!]), x0: v[0], y0: v[1], x1: v[2], y1: v[3])
        }
    }

    static func iou(_ a: Box, _ b: Box) -> Double {
        let w = max(0, min(a.x1, b.x1) - max(a.x0, b.x0)), h = max(0, min(a.y1, b.y1) - max(a.y0, b.y0))
        let union = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - w * h
        return union > 0 ? w * h / union : 0
    }

    /// At least 98% of our words have a word in the PDF on the same page whose box overlaps
    /// theirs with IoU >= 0.8 (`pointsPerPixel` maps our pixel boxes to the page's points).
    func checkBoxes(_ outcome: Outcome, pages: [Int], pointsPerPixel: (PageResult) -> (Double, Double),
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        for index in pages {
            let result = try #require(outcome.document[index]?.result, sourceLocation: sourceLocation)
            let (sx, sy) = pointsPerPixel(result)
            let ours = result.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).compactMap { w -> Box? in
                guard let b = w.box, !w.text.allSatisfy(\.isWhitespace), b.width > 0, b.height > 0 else { return nil }
                return Box(text: w.text, x0: Double(b.x) * sx, y0: Double(b.y) * sy,
                           x1: Double(b.x + Int32(b.width)) * sx, y1: Double(b.y + Int32(b.height)) * sy)
            }
            try #require(ours.count >= 3, "page \(index + 1) has words", sourceLocation: sourceLocation)
            let theirs = try Self.pdfWords(outcome.pdf, page: index + 1)
            let placed = ours.filter { mine in theirs.contains { Self.iou(mine, $0) >= 0.8 } }.count
            #expect(Double(placed) >= 0.98 * Double(ours.count),
                    "page \(index + 1): \(placed) of \(ours.count) words on their boxes", sourceLocation: sourceLocation)
        }
    }

    /// pdftoppm, mutool and Ghostscript each render every page at `dpi` to `size` pixels (give
    /// or take `slack`: the tools round fractional page sizes differently).
    func checkRendering(_ pdf: URL, page: Int, dpi: Int, size: (Int, Int), slack: Int = 0,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: URL] {
        var out: [String: URL] = [:]
        let base = scratch.appendingPathComponent("\(pdf.lastPathComponent)-\(page)")
        let commands: [(String, [String], String)] = [
            ("pdftoppm", ["pdftoppm", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", "-gray", pdf.path, base.path + "-poppler"], base.path + "-poppler.pgm"),
            ("mutool", ["mutool", "draw", "-q", "-r", "\(dpi)", "-c", "gray", "-o", base.path + "-mupdf.pgm", pdf.path, "\(page)"], base.path + "-mupdf.pgm"),
            ("gs", ["gs", "-q", "-dSAFER", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pgmraw", "-r\(dpi)", "-dFirstPage=\(page)", "-dLastPage=\(page)",
                    "-sOutputFile=" + base.path + "-gs.pgm", pdf.path], base.path + "-gs.pgm"),
        ]
        for (tool, command, file) in commands {
            let rendered = try runProcess(command)
            #expect(rendered.status == 0, "\(tool) page \(page): \(rendered.stderr)", sourceLocation: sourceLocation)
            let identify = try runProcess(["identify", "-format", "%w %h", file]).stdout.split(separator: " ").compactMap { Int($0) }
            #expect(identify.count == 2 && abs(identify[0] - size.0) <= slack && abs(identify[1] - size.1) <= slack,
                    "\(tool) page \(page) of \(pdf.lastPathComponent) at \(dpi) dpi is \(identify), not \(size)", sourceLocation: sourceLocation)
            out[tool] = URL(fileURLWithPath: file)
        }
        return out
    }

    /// Pixels that differ by more than `fuzz` percent (ImageMagick's absolute error count).
    func differingPixels(_ a: URL, _ b: String, fuzz: Int = 0) throws -> Int {
        let compared = try runProcess(["compare", "-fuzz", "\(fuzz)%", "-metric", "AE", a.path, b, "null:"])
        return Int(Double(compared.stderr.split(separator: " ").first ?? "-1") ?? -1)
    }

    /// A page's size in points as pdfinfo gives it (its crop box, rotated as shown).
    static func pageSize(_ pdf: URL, page: Int) throws -> (Double, Double) {
        let info = try runProcess(["pdfinfo", "-f", "\(page)", "-l", "\(page)", pdf.path]).stdout
        // "Page    N size:" (the header's "Page size:" is page 1's).
        let regex = try NSRegularExpression(pattern: #"Page\s+"# + "\(page)" + #" size:\s+([\d.]+) x ([\d.]+)"#)
        let m = try #require(regex.firstMatch(in: info, range: NSRange(info.startIndex..., in: info)), "pdfinfo: \(info)")
        return (Double(info[Range(m.range(at: 1), in: info)!])!, Double(info[Range(m.range(at: 2), in: info)!])!)
    }

    // MARK: tests

    /// The bundled 3-page bilevel TIFF and 4 pages of a real 28-page scan: G4 images, pages at
    /// their resolution's size, text and boxes where the words are, renderings equal to the scan.
    @Test func bilevelTIFFPagesAreLosslessAndSearchable() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let sample = Binaries.fixtures.appendingPathComponent("multipage.tif")
        let aim = Binaries.realTestdata.appendingPathComponent("multipage/aim916.tiff")
        var firstFour = RecognitionOptions()
        firstFour.pageRanges = [PageRange.with { $0.first = 1; $0.last = 4 }]
        for (file, options, pages) in [(sample, RecognitionOptions(), 3), (aim, firstFour, 4)] {
            let outcome = try await run([file], options: options, name: file.lastPathComponent + ".pdf")
            #expect(outcome.problems.isEmpty, "\(outcome.problems)")
            try checkStructure(outcome.pdf, pages: pages)
            let images = try runProcess(["pdfimages", "-list", outcome.pdf.path]).stdout
            #expect(images.split(separator: "\n").dropFirst(2).allSatisfy { $0.contains("ccitt") }, "G4 images: \(images)")
            try checkText(outcome, pages: Array(0..<pages))
            try checkBoxes(outcome, pages: Array(0..<pages)) { r in (72 / Double(r.pdfImage!.dpiX), 72 / Double(r.pdfImage!.dpiY)) }
            for page in 1...pages {
                let result = try #require(outcome.document[page - 1]?.result)
                let renders = try checkRendering(outcome.pdf, page: page, dpi: Int(result.pdfImage!.dpiX),
                                                 size: (Int(result.width), Int(result.height)))
                let source = "\(file.path)[\(result.filePage - 1)]"
                #expect(try differingPixels(renders["mutool"]!, source) == 0, "page \(page) as MuPDF draws it is the scan")
                #expect(try differingPixels(renders["gs"]!, source) == 0, "page \(page) as Ghostscript draws it is the scan")
            }
        }
    }

    /// A JPEG photo goes in as it was (DCT, the same bytes); a gray PNG is Flate, and drawn back
    /// it is the PNG (Ghostscript's gray conversion may round by one level).
    @Test func jpegIsPassedThroughAndGrayPNGIsLossless() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let png = Binaries.fixtures.appendingPathComponent("text.png")
        let jpeg = scratch.appendingPathComponent("photo.jpg")
        #expect(try runProcess(["convert", png.path, "-colorspace", "sRGB", "-type", "TrueColor", "-density", "300", "-units", "PixelsPerInch",
                                "-quality", "90", jpeg.path]).status == 0)
        let outcome = try await run([jpeg, png], name: "mixed.pdf")
        try checkStructure(outcome.pdf, pages: 2)
        try checkText(outcome, pages: [0, 1])
        try checkBoxes(outcome, pages: [0, 1]) { r in (72 / Double(r.pdfImage!.dpiX), 72 / Double(r.pdfImage!.dpiY)) }
        let photo = try #require(outcome.document[0]?.result?.pdfImage)
        let jpegBytes = [UInt8](try Data(contentsOf: jpeg))
        #expect(photo.encoding == .dct && photo.data == jpegBytes, "the JPEG file as it is")
        let images = try runProcess(["pdfimages", "-list", outcome.pdf.path]).stdout.split(separator: "\n").dropFirst(2)
        #expect(images.count == 2 && images.first!.contains("jpeg") && images.last!.contains("image"), "\(images)")
        let gray = try #require(outcome.document[1]?.result)
        let renders = try checkRendering(outcome.pdf, page: 2, dpi: Int(gray.pdfImage!.dpiX), size: (Int(gray.width), Int(gray.height)))
        #expect(try differingPixels(renders["mutool"]!, png.path) == 0)
        #expect(try differingPixels(renders["gs"]!, png.path, fuzz: 1) == 0)
        _ = try checkRendering(outcome.pdf, page: 1, dpi: 300, size: (Int(outcome.document[0]!.result!.width), Int(outcome.document[0]!.result!.height)))
    }

    /// Scanned PDFs keep their pages as they were (the same images, boxes and size) with a text
    /// layer under the content; a page that already had text (multipage.pdf page 4, refused by
    /// default) is kept as it was, its own text still there, and named.
    @Test func pdfPagesAreKeptWithATextLayerUnderThem() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in ["c03-29.pdf", "skew.pdf", "cardinal.pdf", "multipage.pdf"] {
            let source = Self.pdfs.appendingPathComponent(name)
            let pages = Int(try runProcess(["qpdf", "--show-npages", source.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))!
            let outcome = try await run([source], name: "out-" + name)
            try checkStructure(outcome.pdf, pages: pages)
            let sourceImages = try runProcess(["pdfimages", "-list", source.path]).stdout.split(separator: "\n").dropFirst(2)
            let keptImages = try runProcess(["pdfimages", "-list", outcome.pdf.path]).stdout.split(separator: "\n").dropFirst(2)
            #expect(keptImages.count == sourceImages.count, "\(name): the page images are the source's")
            let recognised = (0..<pages).filter { outcome.document[$0]?.result != nil }
            try checkText(outcome, pages: recognised)
            let sizes = try (1...pages).map { try Self.pageSize(source, page: $0) }
            try checkBoxes(outcome, pages: recognised) { r in
                (sizes[Int(r.filePage) - 1].0 / Double(r.width), sizes[Int(r.filePage) - 1].1 / Double(r.height))
            }
            for page in 1...pages {
                // A page's own text (a text layer made before) is still all there.
                let original = Set(Self.words(try runProcess(["pdftotext", "-f", "\(page)", "-l", "\(page)", source.path, "-"]).stdout))
                let kept = Set(Self.words(try runProcess(["pdftotext", "-f", "\(page)", "-l", "\(page)", outcome.pdf.path, "-"]).stdout))
                #expect(original.isSubset(of: kept), "\(name) page \(page) keeps its own text: \(original.subtracting(kept).prefix(10))")
            }
            if name == "multipage.pdf" {
                #expect(outcome.document[3]?.error?.code == .failedPrecondition)
                #expect(outcome.problems.contains { $0.hasPrefix("page 4 is its original page without text") }, "\(outcome.problems)")
                let page4 = try runProcess(["pdftotext", "-f", "4", "-l", "4", outcome.pdf.path, "-"]).stdout
                let source4 = try runProcess(["pdftotext", "-f", "4", "-l", "4", source.path, "-"]).stdout
                #expect(Self.words(page4) == Self.words(source4), "page 4 is the source's page 4, text and all")
            }
            for page in 1...pages {
                // At 50 dpi: multipage.pdf page 2 is a 30-inch page.
                let points = sizes[page - 1]
                _ = try checkRendering(outcome.pdf, page: page, dpi: 50, size: (Int((points.0 * 50 / 72).rounded()), Int((points.1 * 50 / 72).rounded())), slack: 1)
            }
        }
    }

    /// A page scanned sideways and turned upright by its /Rotate (img2pdf --rotation=90, as a
    /// landscape-fed scanner writes it): the page keeps its rotation, and the words of the text
    /// layer lie on the words as shown.
    @Test(.enabled(if: (try? runProcess(["python3", "-c", "import img2pdf"]).status) == 0, "needs img2pdf (make deps installs it)"))
    func aRotatedPageKeepsItsRotationAndItsWordsLieWhereTheyAreShown() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let upright = scratch.appendingPathComponent("upright.pgm").path, side = scratch.appendingPathComponent("side.png").path
        #expect(try runProcess(["mutool", "draw", "-q", "-r", "150", "-c", "gray", "-o", upright, Self.pdfs.appendingPathComponent("c03-29.pdf").path, "1"]).status == 0)
        #expect(try runProcess(["convert", upright, "-rotate", "-90", "-density", "150", "-units", "PixelsPerInch", side]).status == 0)
        let rotated = scratch.appendingPathComponent("rotated.pdf")
        #expect(try runProcess(["python3", "-m", "img2pdf", "--rotation=90", side, "-o", rotated.path]).status == 0)
        let outcome = try await run([rotated], name: "rotated-out.pdf")
        try checkStructure(outcome.pdf, pages: 1)
        #expect(try runProcess(["pdfinfo", outcome.pdf.path]).stdout.contains(/Page rot:\s+90/), "the page is still turned by /Rotate")
        try checkText(outcome, pages: [0])
        let shown = try Self.pageSize(outcome.pdf, page: 1)
        try checkBoxes(outcome, pages: [0]) { r in (shown.1 / Double(r.width), shown.0 / Double(r.height)) }
    }

    /// A phone's JPEG stored on its side with EXIF orientation 6 (written by Pillow): the PDF
    /// keeps the JPEG as stored and turns the page with /Rotate 90, as img2pdf does, so every
    /// viewer shows it upright; the text layer is in the same frame: extracted upright, in
    /// reading order, each word once and on the word as shown.
    @Test func anEXIFOrientedPhotoIsUprightInThePDF() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photo = scratch.appendingPathComponent("side.jpg")
        let made = try runProcess(["python3", "-c", """
            from PIL import Image
            im = Image.open('\(Binaries.fixtures.appendingPathComponent("text.png").path)').convert('L').rotate(90, expand=True)
            exif = Image.Exif(); exif[0x0112] = 6
            im.save('\(photo.path)', quality=92, exif=exif, dpi=(300, 300))
            """])
        #expect(made.status == 0, "\(made.stderr)")
        let stored = try runProcess(["identify", "-format", "%w %h", photo.path]).stdout
        #expect(stored == "357 1049", "the JPEG is stored on its side: \(stored)")
        let outcome = try await run([photo], name: "photo.pdf")
        try checkStructure(outcome.pdf, pages: 1)
        #expect(try runProcess(["pdfinfo", outcome.pdf.path]).stdout.contains(/Page rot:\s+90/), "the page is turned by /Rotate 90")
        let images = try runProcess(["pdfimages", "-list", outcome.pdf.path]).stdout
        #expect(images.contains("jpeg") && images.contains(" 357  1049 "), "the JPEG as it was stored: \(images)")
        // Shown upright: wider than tall, as the original text.png (1049 x 357 at 300 dpi).
        _ = try checkRendering(outcome.pdf, page: 1, dpi: 300, size: (1049, 357), slack: 1)
        let text = try runProcess(["pdftotext", "-raw", outcome.pdf.path, "-"]).stdout
        #expect(text.hasPrefix("The quick brown fox jumps over the lazy dog."), "\(text)")
        let words = try Self.pdfWords(outcome.pdf, page: 1)
        let fox = words.filter { $0.text == "fox" }
        #expect(fox.count == 1, "each word once: \(fox)")
        // Boxes as shown: horizontal words (wider than tall) on the top line, left to right.
        let firstLine = words.prefix(9)
        #expect(firstLine.map(\.text).joined(separator: " ") == "The quick brown fox jumps over the lazy dog.", "\(firstLine.map(\.text))")
        #expect(zip(firstLine, firstLine.dropFirst()).allSatisfy { $0.x1 <= $1.x0 + 1 }, "left to right")
        #expect(firstLine.allSatisfy { $0.x1 - $0.x0 > $0.y1 - $0.y0 || $0.text.count <= 2 }, "horizontal as shown")
        #expect(firstLine.allSatisfy { $0.y1 < 357.0 * 72 / 300 / 3 }, "on the top third of the shown page")
    }

    /// A page whose recognition fails is a blank page in its place, named in the problems.
    @Test func aFailedImagePageIsABlankPageAndNamed() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let sample = Binaries.fixtures.appendingPathComponent("multipage.tif")
        let outcome = try await run([sample], name: "failed.pdf", engine: "fail-on:1:invalid")
        try checkStructure(outcome.pdf, pages: 3)
        #expect(outcome.document[1]?.error?.code == .invalidArgument)
        #expect(outcome.problems.count == 1 && outcome.problems[0].hasPrefix("page 2 is a blank page"), "\(outcome.problems)")
    }

    /// `--pdfa` writes what PDF/A-2b asks of the file: version 1.7, XMP metadata identifying
    /// part 2 conformance B and agreeing with the document information, an sRGB output intent,
    /// every font embedded. (This checks those parts; no PDF/A validator runs here: docs/usage.md.)
    @Test func pdfaCarriesItsIdentificationOutputIntentAndEmbeddedFonts() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outcome = try await run([Binaries.fixtures.appendingPathComponent("multipage.tif"), Self.pdfs.appendingPathComponent("skew.pdf")],
                                    name: "archival.pdf", pdfa: true)
        try checkStructure(outcome.pdf, pages: 4)
        let info = try runProcess(["pdfinfo", outcome.pdf.path]).stdout
        #expect(info.contains(/PDF version:\s+1\.7/), "\(info)")
        let metadata = try runProcess(["pdfinfo", "-meta", outcome.pdf.path]).stdout
        let xmp = scratch.appendingPathComponent("xmp.xml")
        try Data(metadata.utf8).write(to: xmp)
        #expect(try runProcess(["xmllint", "--noout", xmp.path]).status == 0, "the XMP is well-formed XML: \(metadata)")
        #expect(metadata.contains("<pdfaid:part>2</pdfaid:part>") && metadata.contains("<pdfaid:conformance>B</pdfaid:conformance>"))
        #expect(metadata.contains("<pdf:Producer>ocr-cluster</pdf:Producer>") && info.contains("Producer:        ocr-cluster"))
        let root = try runProcess(["qpdf", "--show-object=trailer", outcome.pdf.path]).stdout
        let rootID = try #require(root.firstMatch(of: /\/Root (\d+) 0 R/)?.1)
        let catalog = try runProcess(["qpdf", "--show-object=\(rootID)", outcome.pdf.path]).stdout
        #expect(catalog.contains("/OutputIntents") && catalog.contains("/Metadata"), "\(catalog)")
        let plain = scratch.appendingPathComponent("plain.pdf")
        #expect(try runProcess(["qpdf", "--qdf", "--object-streams=disable", outcome.pdf.path, plain.path]).status == 0)
        let text = String(decoding: try Data(contentsOf: plain), as: UTF8.self)
        #expect(text.contains("/S /GTS_PDFA1") && text.contains("/DestOutputProfile") && text.contains("/OutputConditionIdentifier (sRGB IEC61966-2.1)"))
        let fonts = try runProcess(["pdffonts", outcome.pdf.path]).stdout.split(separator: "\n").dropFirst(2)
        // Columns from the end: object ID (two numbers), uni, sub, emb.
        #expect(!fonts.isEmpty && fonts.allSatisfy { line in
            let columns = line.split(separator: " ")
            return columns.count >= 5 && columns[columns.count - 5] == "yes"
        }, "every font embedded: \(fonts)")
        #expect(outcome.problems == ["page 4 is kept from \(Self.pdfs.appendingPathComponent("skew.pdf").path) as it was: its own content is not converted to PDF/A"],
                "\(outcome.problems)")
        let gs = try runProcess(["gs", "-q", "-dSAFER", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", outcome.pdf.path])
        #expect(gs.status == 0 && !gs.stderr.contains("rror"), "Ghostscript reads it: \(gs.stderr)")
    }
}
