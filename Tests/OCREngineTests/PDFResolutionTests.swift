import Foundation
import OCREngine
import OCRPages
import OCRTestSupport
import OCRWire
import Testing

extension EngineTests {
    /// PDF pages are rasterised at the resolution of their own images (`pdfimages -list`), to
    /// gray PGM, unless `--dpi` says otherwise.
    @Suite struct PDFResolution {
        @Test func theListingGivesTheHighestImageResolutionClamped() {
            let header = """
            page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio
            --------------------------------------------------------------------------------------------

            """
            #expect(PDFRasterizer.pageImages(listing: header).dpi == nil, "a vector-only page has no image resolution")
            let two = header + """
               1     0 image    1049   357  gray    1   8  image  no         3  0   150   150 23.6K 6.4%
               1     1 image     951   239  gray    1   1  ccitt  no         6  0   300   299 9430B 4.1%
               1     2 smask     951   239  gray    1   8  image  no         7  0  1200  1200 9430B 4.1%
            """
            #expect(PDFRasterizer.pageImages(listing: two).dpi == 300, "the sharpest image; soft masks do not count")
            let huge = header + "   1     0 image   20000 20000  gray    1   8  image  no   3  0  2400  2400 1M 1%\n"
            #expect(PDFRasterizer.pageImages(listing: huge).dpi == 600)
            let thumbnail = header + "   1     0 image   40 40  rgb    3   8  jpeg  no   3  0  20  20 1K 1%\n"
            #expect(PDFRasterizer.pageImages(listing: thumbnail).dpi == 50)
            // Bilevel only when every image is 1-bit gray.
            #expect(PDFRasterizer.pageImages(listing: two).bilevel == false, "one image is 8-bit")
            let scan = header + "   1     0 image    2550  3300  gray    1   1  jbig2  no         8  0   300   300 69.4K 6.8%\n"
            #expect(PDFRasterizer.pageImages(listing: scan).dpi == 300 && PDFRasterizer.pageImages(listing: scan).bilevel)
            #expect(PDFRasterizer.pageImages(listing: header).bilevel == false, "no image: not a bilevel scan")
            // An image in an ICC-based colour space (rendered by poppler, which applies the profile).
            let icc = header + "   1     0 image     770   995  icc     3   8  jpeg   yes        9  0   150   150  160K 7.1%\n"
            #expect(PDFRasterizer.pageImages(listing: icc).iccBased && !PDFRasterizer.pageImages(listing: two).iccBased)
        }

        /// OCRmyPDF's c03-29.pdf, a JPEG in an ICC-based colour space at 150 ppi, reads as
        /// `tesseract` reads poppler's render of it: the drop-capped first line first and whole.
        /// (MuPDF without ICC support renders it several gray levels off, and the first two lines
        /// came out interleaved: "from got old good Miss going-over Watson".) Tesseract leaves
        /// out the line's larger first letter, "WELL" read "ELL"; `accurate` reads it again with
        /// its word (EdgeLetters.swift), as the page prints it.
        @Test(arguments: [RecognitionLevel.fast, .accurate])
        func anICCBasedScanReadsItsFirstLinesInOrder(level: RecognitionLevel) async throws {
            let pdf = [UInt8](try Data(contentsOf: Fixtures.real.appendingPathComponent("pdf/c03-29.pdf")))
            let page = PageDescriptor(file: "c03-29.pdf", filePage: 1, pageIndex: 0, content: pdf, format: .pdf)
            let result = try await recognize(page, RecognitionOptions.with { $0.level = level; $0.pdfTextLayer = .forceOcr })
            let lines = result.text.split(separator: "\n").map(String.init)
            #expect(result.dpi == 150)
            let first = level == .fast ? "ELL, I got a good going-over in the morning," : "WELL, I got a good going-over in the morning,"
            #expect(lines.first == first, "\(lines.prefix(2))")
            #expect(lines.count > 1 && lines[1].hasSuffix("from old Miss Watson, on account of my"), "\(lines.prefix(2))")
        }

        /// A bilevel scan in a PDF (cardinal.pdf: JBIG2 at 300 ppi) is rasterised 1-bit at its
        /// own resolution, as the scan is; with another --dpi it is gray (scaled pixels).
        @Test
        func aBilevelScanIsRasterisedOneBit() throws {
            let pdf = [UInt8](try Data(contentsOf: Fixtures.real.appendingPathComponent("pdf/cardinal.pdf")))
            let page = PageDescriptor(file: "cardinal.pdf", filePage: 1, pageIndex: 0, content: pdf, format: .pdf)
            let decoded = try PageDecoder().decode(page)
            #expect(decoded.depth == 1 && decoded.dpi == 300 && decoded.width == 2550 && decoded.height == 3300)
            let scaled = try PageDecoder().decode(page, options: RecognitionOptions.with { $0.dpi = 200 })
            #expect(scaled.depth == 8 && scaled.width == 1700)
        }

        static var hasImg2pdf: Bool { (try? runProcess(["python3", "-c", "import img2pdf"]).status) == 0 }

        /// A scan wrapped by img2pdf from an untagged image: img2pdf places its pixels at 96 ppi
        /// (on a page much larger than the paper); the page is rendered at those 96 ppi, pixel for
        /// pixel, not at 300 dpi (3.1x the pixels each way), and still reads.
        @Test(.enabled(if: hasImg2pdf, "needs img2pdf (make deps installs it)"))
        func aWrappedScanIsRasterisedAtItsOwnResolution() async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-pdfres-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let source = Fixtures.root.appendingPathComponent("formats/line.pgm").path  // PNM: no resolution tag
            let pdf = dir.appendingPathComponent("wrapped.pdf").path
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            make.arguments = ["python3", "-m", "img2pdf", source, "-o", pdf]
            try make.run()
            make.waitUntilExit()
            #expect(make.terminationStatus == 0)
            let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
            let page = PageDescriptor(file: "wrapped.pdf", filePage: 1, pageIndex: 0, content: content, format: .pdf)
            let decoded = try PageDecoder().decode(page)
            #expect(decoded.dpi == 96, "img2pdf's default for untagged images")
            #expect(abs(decoded.width - 620) <= 1 && abs(decoded.height - 70) <= 1, "the image's own pixels: \(decoded.width)x\(decoded.height)")
            let result = try await recognize(page)
            #expect(result.text.contains("quick brown fox"), "\(result.text)")
            // --dpi still decides when given.
            let forced = try PageDecoder().decode(page, options: RecognitionOptions.with { $0.dpi = 192 })
            #expect(forced.dpi == 192 && abs(forced.width - 1240) <= 2)
        }

        /// A 400 x 100 pt page with "The quick brown fox" drawn in Helvetica and no image
        /// (Ghostscript writes it): it has a text layer.
        static func vectorPage(in dir: URL) throws -> PageDescriptor {
            let pdf = dir.appendingPathComponent("vector.pdf").path
            let gs = Process()
            gs.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gs.arguments = ["gs", "-q", "-sDEVICE=pdfwrite", "-dDEVICEWIDTHPOINTS=400", "-dDEVICEHEIGHTPOINTS=100", "-dFIXEDMEDIA",
                            "-o", pdf, "-c", "/Helvetica findfont 24 scalefont setfont 20 40 moveto (The quick brown fox) show showpage"]
            try gs.run()
            gs.waitUntilExit()
            #expect(gs.terminationStatus == 0, "Ghostscript is installed by make deps")
            let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
            return PageDescriptor(file: "vector.pdf", filePage: 1, pageIndex: 0, content: content, format: .pdf)
        }

        /// Text drawn with a font, no image: 300 dpi, the default.
        @Test func aVectorPageIsRasterisedAtTheDefaultResolution() async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-pdfvec-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let page = try Self.vectorPage(in: dir)
            let decoded = try PageDecoder().decode(page)
            #expect(decoded.dpi == PDFRasterizer.defaultDPI)
            #expect(abs(decoded.width - 400 * 300 / 72) <= 1)
            let result = try await recognize(page, RecognitionOptions.with { $0.pdfTextLayer = .forceOcr })
            #expect(result.text.contains("quick brown fox"), "\(result.text)")
            #expect(result.textSource == .ocr)
        }

        /// A page with its own text: reported by default, kept with --skip-text, recognised
        /// again with --force-ocr.
        @Test func aPageWithATextLayerIsReportedSkippedOrForced() async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-pdftext-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let page = try Self.vectorPage(in: dir)
            do {
                _ = try await recognize(page)
                Issue.record("a page with a text layer must not be OCRed again silently")
            } catch {
                #expect(error.code == .failedPrecondition)
                #expect(error.file == "vector.pdf" && error.pageIndex == 0)
                #expect(error.message.contains("already has a text layer") && error.message.contains("--skip-text"), "\(error.message)")
            }
            let kept = try await recognize(page, RecognitionOptions.with { $0.pdfTextLayer = .skip })
            #expect(kept.textSource == .pdf)
            #expect(kept.text.contains("The quick brown fox"), "\(kept.text)")
            #expect(kept.blocks.isEmpty && kept.width == 400 && kept.height == 100)
            let forced = try await recognize(page, RecognitionOptions.with { $0.pdfTextLayer = .forceOcr })
            #expect(forced.textSource == .ocr && forced.text.contains("quick brown fox"))
            // A scan (an image, no text) is recognised whatever the setting.
            let scan = try #require(try PageSplitter().cutPages(file: "doc.pdf", content: Fixtures.bytes("doc.pdf")).first)
            #expect(try await recognize(scan).textSource == .ocr)
        }
    }
}
