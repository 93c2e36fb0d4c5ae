import Foundation
import OCREngine
import OCRPages
import OCRWire
import Testing

extension EngineTests {
    @Suite struct Inputs {
        let splitter = PageSplitter()

        @Test func sniffsFormats() {
            #expect(ImageFormat.sniff(Fixtures.bytes("text.png")) == .png)
            #expect(ImageFormat.sniff(Fixtures.bytes("multipage.tif")) == .tiff)
            #expect(ImageFormat.sniff(Fixtures.bytes("doc.pdf")) == .pdf)
            #expect(ImageFormat.sniff(Fixtures.bytes("bad/unknown.dat")) == nil)
            #expect(ImageFormat.sniff([]) == nil)
        }

        @Test func multipageTIFFSplitsIntoDirectories() async throws {
            let pages = try splitter.cutPages(file: "multipage.tif", content: Fixtures.bytes("multipage.tif"))
            #expect(pages.map(\.filePage) == [1, 2, 3])
            #expect(pages.map(\.pageIndex) == [0, 1, 2])
            #expect(pages.allSatisfy { $0.format == .tiff && $0.file == "multipage.tif" })
            let second = try await recognize(pages[1])
            #expect(characterErrorRate(second.text, reference: Fixtures.text("page2.txt")) < 0.03)
            #expect(second.filePage == 2 && second.pageIndex == 1 && second.width == 951)
            let third = try await recognize(pages[2])
            #expect(characterErrorRate(third.text, reference: Fixtures.text("page3.txt")) < 0.05)
            // Past the last directory of a whole multipage file: a typed error naming the page.
            let beyond = Fixtures.page("multipage.tif", filePage: 4, pageIndex: 3)
            let error = await ocrError { _ = try await recognize(beyond) }
            #expect(error?.code == .invalidArgument && error?.pageIndex == 3 && error?.file == "multipage.tif")
        }

        @Test func pdfPagesAreRasterisedOneAtATime() async throws {
            let pages = try splitter.cutPages(file: "doc.pdf", content: Fixtures.bytes("doc.pdf"), firstPageIndex: 5)
            #expect(pages.map(\.filePage) == [1, 2])
            #expect(pages.map(\.pageIndex) == [5, 6])
            let result = try await recognize(pages[1])
            #expect(result.dpi == 300)
            #expect(characterErrorRate(result.text, reference: Fixtures.text("page2.txt")) < 0.03)
            var opts = RecognitionOptions()
            opts.dpi = 150
            let low = try await recognize(pages[0], opts)
            #expect(low.dpi == 150 && low.width < 600)
            #expect(characterErrorRate(low.text, reference: Fixtures.text("text.txt")) < 0.05)
        }

        @Test func directoryIsSplitInNameOrder() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-engine-dir-\(getpid())")
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            for (from, to) in [("text.png", "b.png"), ("multipage.tif", "a.tif"), ("doc.pdf", "c.pdf"), ("text.txt", "notes.txt")] {
                try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent(from), to: dir.appendingPathComponent(to))
            }
            let pages = try splitter.pages(directory: dir.path)
            #expect(pages.map { ($0.file as NSString).lastPathComponent } == ["a.tif", "a.tif", "a.tif", "b.png", "c.pdf", "c.pdf"])
            #expect(pages.map(\.filePage) == [1, 2, 3, 1, 1, 2])
            #expect(pages.map(\.pageIndex) == Array(0..<6))
        }

        @Test(arguments: [
            ("bad/empty.png", StatusCode.invalidArgument),
            ("bad/random.png", .invalidArgument),
            ("bad/unknown.dat", .invalidArgument),
            ("bad/truncated.png", .invalidArgument),
            ("bad/truncated.jpg", .invalidArgument),
            ("bad/truncated.tif", .invalidArgument),
            ("bad/bomb.png", .resourceExhausted),
            ("bad/broken.pdf", .invalidArgument),
            ("bad/rle.bmp", .invalidArgument),
            ("bad/encrypted.pdf", .invalidArgument),
        ])
        func badInputGivesTypedErrorAndLaterPagesWork(name: String, code: StatusCode) async throws {
            let content = Fixtures.bytes(name)
            // Splitting may already refuse it; if not, decoding must.
            var error: OCRError?
            do {
                let pages = try splitter.cutPages(file: name, content: content, firstPageIndex: 7)
                for page in pages where error == nil {
                    error = await ocrError { _ = try await recognize(page) }
                }
            } catch {
                #expect(error.code == code)
                #expect(error.file == name && error.pageIndex == 7)
                // The worker path (no splitting, format unspecified) must refuse it too.
                let page = PageDescriptor(file: name, filePage: 1, pageIndex: 7, content: content, format: .unspecified)
                let direct = await ocrError { _ = try await recognize(page) }
                #expect(direct?.code == code && direct?.file == name && direct?.pageIndex == 7, "\(String(describing: direct))")
                return
            }
            let e = try #require(error, "\(name) was accepted")
            #expect(e.code == code, "\(e)")
            #expect(e.file == name && e.pageIndex != nil)
            if name.hasSuffix("encrypted.pdf") { #expect(e.message.contains("encrypted")) }
            // The engine still works.
            #expect(try await recognize(Fixtures.page("text.png")).text.contains("quick brown fox"))
        }

        @Test func encryptedPDFIsNamedAsSuch() throws {
            do {
                _ = try splitter.cutPages(file: "secret.pdf", content: Fixtures.bytes("bad/encrypted.pdf"))
                Issue.record("encrypted PDF accepted")
            } catch {
                #expect(error.code == .invalidArgument && error.message.contains("encrypted") && error.file == "secret.pdf")
            }
        }

        @Test func bombIsRefusedBeforeDecodingAndLimitIsConfigurable() async throws {
            var opts = RecognitionOptions()
            let error = await ocrError { _ = try await recognize(Fixtures.page("bad/bomb.png"), opts) }
            #expect(error?.code == .resourceExhausted && error?.message.contains("60000x60000") == true)
            opts.maxPagePixels = 100_000  // text.png is 1049 x 357 = 374,493 pixels.
            let small = await ocrError { _ = try await recognize(Fixtures.page("text.png"), opts) }
            #expect(small?.code == .resourceExhausted && small?.file == "text.png")
            // PDF pages are checked from their size before rasterising.
            let pdf = try PageSplitter().cutPages(file: "doc.pdf", content: Fixtures.bytes("doc.pdf"))
            let pdfError = await ocrError { _ = try await recognize(pdf[0], opts) }
            #expect(pdfError?.code == .resourceExhausted && pdfError?.file == "doc.pdf")
        }

        @Test func hangingRasteriserTimesOut() async throws {
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("hang-\(getpid()).sh")
            try "#!/bin/sh\nsleep 30\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            defer { try? FileManager.default.removeItem(at: script) }
            let slow = PDFRasterizer(pdfinfo: script.path, pdftoppm: script.path, timeout: .milliseconds(300))
            let page = PageDescriptor(file: "doc.pdf", filePage: 1, pageIndex: 2, content: Fixtures.bytes("doc.pdf"), format: .pdf)
            do {
                _ = try PageDecoder(pdf: slow).decode(page)
                Issue.record("a hanging rasteriser was not stopped")
            } catch {
                #expect(error.code == .deadlineExceeded && error.file == "doc.pdf" && error.pageIndex == 2)
            }
        }

        @Test func missingLanguageNamesInstalledOnes() async throws {
            var opts = RecognitionOptions()
            opts.languages = "eng+xyz"
            let error = try #require(await ocrError { _ = try await recognize(Fixtures.page("text.png"), opts) })
            #expect(error.code == .failedPrecondition)
            #expect(error.message.contains("xyz") && error.message.contains("eng"))
            #expect(error.details["installed_languages"]?.contains("eng") == true)
            #expect(error.file == "text.png" && error.pageIndex == 0)
            opts.languages = "../etc/passwd"
            #expect(await ocrError { _ = try await recognize(Fixtures.page("text.png"), opts) }?.code == .invalidArgument)
        }

        @Test func badOptionsAreInvalidArgument() async throws {
            var opts = RecognitionOptions()
            opts.candidates = 11
            #expect(await ocrError { _ = try await recognize(Fixtures.page("text.png"), opts) }?.code == .invalidArgument)
            opts = RecognitionOptions()
            var roi = Ocr_V1_NormalizedRect()
            roi.x = 0.9; roi.width = 0.5; roi.height = 0.5
            opts.regionOfInterest = roi
            #expect(await ocrError { _ = try await recognize(Fixtures.page("text.png"), opts) }?.code == .invalidArgument)
        }
    }
}
