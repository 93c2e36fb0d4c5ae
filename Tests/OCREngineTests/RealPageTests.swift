import Foundation
import OCREngine
import OCRPages
import OCRWire
import Testing

/// Real scans from Tests/Fixtures/real. Kept to a few pages: a full
/// 300-dpi page costs about 2 s here, and the CLI comparison doubles that.
extension EngineTests {
    @Suite struct RealPages {
        @Test(arguments: [
            ("unlv-isri/phototest.tif", 0.02),
            // Without zone files, plain CER is dominated by reading order (see testdata/README.md).
            ("unlv-isri/8071_093.3B.tif", 0.12),
        ])
        func textEqualsTheCLIAndCERIsBounded(path: String, bound: Double) async throws {
            let page = try #require(realPage(path))
            let result = try await recognize(page)
            let url = Fixtures.real.appendingPathComponent(path)
            let cliStart = ContinuousClock.now
            let cli = try #require(tesseractCLI(url.path, ["--dpi", "\(result.dpi)"]))
            let cliTime = ContinuousClock.now - cliStart
            #expect(result.text == cli, "our text differs from `tesseract \(path) stdout --dpi \(result.dpi)`")
            let gtURL = url.deletingPathExtension().appendingPathExtension("txt")
            let gtData = try Data(contentsOf: gtURL)
            let reference = String(data: gtData, encoding: .utf8) ?? String(data: gtData, encoding: .isoLatin1)!
            let cer = characterErrorRate(result.text, reference: reference)
            print("[figures] \(path): \(result.width)x\(result.height) @\(result.dpi) dpi, CER \(String(format: "%.4f", cer)), engine recognize \(Double(result.timings!.recognizeUs) / 1e6) s total \(Double(result.timings!.totalUs) / 1e6) s, CLI (OMP_THREAD_LIMIT=1, includes model load) \(cliTime)")
            #expect(cer < bound)
            checkBoxes(result)
            #expect(result.words.count > 50)
        }

        @Test func uw3LinesAtSingleLineMode() async throws {
            let tgz = Fixtures.real.appendingPathComponent("uw3-lines/uw3-500.tgz")
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("uw3-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let tar = Process()
            tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            tar.arguments = ["tar", "xzf", tgz.path, "-C", dir.path]
            try tar.run()
            tar.waitUntilExit()
            let enumerator = FileManager.default.enumerator(atPath: dir.path)
            var images = (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".bin.png") }.sorted()
            images = Array(images.prefix(40))
            try #require(images.count == 40)
            var opts = RecognitionOptions()
            opts.pageSegmentationMode = .singleLine
            var edits = 0.0, chars = 0.0
            for (i, name) in images.enumerated() {
                let url = dir.appendingPathComponent(name)
                let bytes = [UInt8](try Data(contentsOf: url))
                let page = PageDescriptor(file: name, filePage: 1, pageIndex: i, content: bytes, format: .png)
                let result = try await recognize(page, opts)
                let gt = try String(contentsOf: URL(fileURLWithPath: url.path.replacingOccurrences(of: ".bin.png", with: ".gt.txt")), encoding: .utf8)
                let n = Double(gt.split(whereSeparator: \.isWhitespace).joined(separator: " ").count)
                edits += characterErrorRate(result.text, reference: gt) * n
                chars += n
                if i < 5, let cli = tesseractCLI(url.path, ["--psm", "7", "--dpi", "\(result.dpi)"]) {
                    #expect(result.text == cli, "\(name)")
                }
            }
            print("[figures] uw3 lines (40, psm 7): CER \(String(format: "%.4f", edits / chars))")
            #expect(edits / chars < 0.03)
        }

        @Test func realMultipageTIFFSplitsWithoutDecoding() async throws {
            let page = try #require(realPage("multipage/aim916.tiff"))
            let start = ContinuousClock.now
            let pages = try PageSplitter().cutPages(file: page.file, content: page.content)
            let elapsed = ContinuousClock.now - start
            print("[figures] aim916.tiff: \(pages.count) pages split in \(elapsed)")
            #expect(pages.count == 28)
            let last = try PageDecoder().decode(pages[27])
            #expect(last.width == 2550 && last.height == 3300)
        }

        @Test func realPDFPageSizesAreCheckedBeforeRasterising() async throws {
            let pdf = try #require(realPage("pdf/multipage.pdf"))
            let pages = try PageSplitter().cutPages(file: pdf.file, content: pdf.content)
            #expect(pages.count == 6)
            var opts = RecognitionOptions()
            opts.maxPagePixels = 50_000_000  // Page 2 is 2160 pt square: 9000 x 9000 pixels at 300 dpi.
            let error = await ocrError { _ = try await recognize(pages[1], opts) }
            #expect(error?.code == .resourceExhausted && error?.pageIndex == 1 && error?.file == pdf.file)
        }

        @Test func cardinalPDFPagesAreAutoRotated() async throws {
            // Orientation only (PSM_OSD_ONLY) at 100 dpi on every page keeps this quick; the
            // fixtures' rot90/rot180 tests check that the text is then read correctly.
            let pdf = try #require(realPage("pdf/cardinal.pdf"))
            let pages = try PageSplitter().cutPages(file: pdf.file, content: pdf.content)
            var opts = RecognitionOptions()
            opts.pageSegmentationMode = .osdOnly
            opts.dpi = 100
            var rotations: [Int32] = []
            for page in pages {
                let result = try await recognize(page, opts)
                rotations.append(result.rotationDegrees)
                #expect(result.blocks.isEmpty && result.text.isEmpty)
            }
            print("[figures] cardinal.pdf rotations found: \(rotations)")
            #expect(rotations == [0, 90, 180, 270])
        }
    }
}
