import Foundation
@testable import OCREngine
import OCRPages
import OCRWire
import Testing

/// Splitting sends each page on its own: standalone single-page TIFFs and PDFs, cut without
/// decoding, that decode to exactly the pixels of the original's page.
extension EngineTests {
    @Suite struct Splitting {
        let splitter = PageSplitter()

        /// PNG bytes of a decoded page: equal PNGs from the same encoder mean equal pixels.
        static func pixels(_ page: PageDescriptor, dpi: UInt32 = 0) throws -> [UInt8] {
            var options = RecognitionOptions()
            options.dpi = dpi
            return try PageDecoder().decode(page, options: options).pix.png()
        }

        /// Checks that `pages` (split from `whole`) are one page each, add up to about the file's
        /// size, and decode to the same pixels as the same page of the whole file.
        static func checkSplit(_ pages: [PageDescriptor], whole: [UInt8], file: String, pixelPages: [Int]? = nil, dpi: UInt32 = 0) throws -> Double {
            let total = pages.reduce(0) { $0 + $1.content.count }
            let ratio = Double(total) / Double(whole.count)
            for (i, page) in pages.enumerated() {
                #expect(page.filePage == i + 1 && page.file == file)
                #expect(page.content.count < whole.count, "page \(i + 1) carries the whole file")
                let resplit = try PageSplitter().cutPages(file: file, content: page.content)
                #expect(resplit.count == 1 && resplit[0].content == page.content, "page \(i + 1) is not a single page")
            }
            for n in pixelPages ?? Array(1...pages.count) {
                let original = PageDescriptor(file: file, filePage: n, pageIndex: n - 1, content: whole, format: pages[0].format)
                #expect(try pixels(pages[n - 1], dpi: dpi) == pixels(original, dpi: dpi), "page \(n) decodes differently")
            }
            return ratio
        }

        @Test func fixtureTIFFSplitsIntoStandalonePages() throws {
            let whole = Fixtures.bytes("multipage.tif")
            let pages = try splitter.cutPages(file: "multipage.tif", content: whole, firstPageIndex: 4)
            #expect(pages.count == 3 && pages.map(\.pageIndex) == [4, 5, 6])
            #expect(pages.allSatisfy { TIFFSplitter.isSinglePage($0.content) })
            let ratio = try Self.checkSplit(pages, whole: whole, file: "multipage.tif")
            print("[figures] multipage.tif: \(whole.count) bytes -> 3 pages of \(pages.map(\.content.count)) bytes (x\(String(format: "%.2f", ratio)))")
            #expect(ratio < 1.3)
        }

        @Test func singlePageInputsAreNotCopied() throws {
            for name in ["formats/line-g4.tif", "formats/line-lzw-24.tif", "text.png"] {
                let content = Fixtures.bytes(name)
                let pages = try splitter.cutPages(file: name, content: content)
                #expect(pages.count == 1 && pages[0].content == content)
            }
        }

        /// Runs an ImageMagick tool (`convert`, `compare`); its exit status, or nil when missing.
        static func magick(_ tool: String, _ arguments: [String]) throws -> Int32? {
            let path = "/usr/bin/\(tool)"
            guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        @Test func everyTIFFCompressionSurvivesTheRawCopy() throws {
            // Two-page TIFFs of each compression the fixtures have (G4, LZW 8/24-bit, packbits,
            // none), joined by ImageMagick, which keeps each page's compression; plus JPEG-in-TIFF
            // (shared JPEGTables) and tiles. Leptonica cannot read tiled TIFFs, so ImageMagick's
            // `compare` checks those pixels. Big-endian and BigTIFF files too: a cut reads its
            // page's directory by patching the header's first-directory offset, which has both
            // byte orders and both widths.
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-split-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let variants: [(String, [String], String)] = [
                ("line-g4", [], ""), ("line-lzw-8", [], ""), ("line-lzw-24", [], ""), ("line-packbits-8", [], ""), ("line-none-1", [], ""),
                ("line-lzw-24", ["-compress", "JPEG"], ""), ("line-lzw-8", ["-define", "tiff:tile-geometry=64x64"], ""),
                ("line-lzw-8", ["-define", "tiff:endian=msb"], ""), ("line-g4", [], "TIFF64:"),
                ("line-lzw-24", ["-define", "tiff:endian=msb"], "TIFF64:"),
            ]
            for (name, extra, format) in variants {
                let label = ([format + name] + extra).joined(separator: " ")
                let source = Fixtures.root.appendingPathComponent("formats/\(name).tif").path
                let joined = dir.appendingPathComponent("joined.tif").path
                let status = try #require(try Self.magick("convert", [source, source] + extra + [format + joined]), "ImageMagick's convert is installed by make deps")
                guard status == 0, let data = FileManager.default.contents(atPath: joined) else {
                    Issue.record("convert failed for \(label)")
                    continue
                }
                let whole = [UInt8](data)
                let pages = try splitter.cutPages(file: name, content: whole)
                #expect(pages.count == 2, "\(label)")
                let tiled = extra.contains { $0.contains("tile") }
                _ = try Self.checkSplit(pages, whole: whole, file: name, pixelPages: tiled ? [] : nil)
                // The pages above were cut by the byte copy, not by its libtiff fallback, and
                // libtiff's cut of the same directory decodes to the same pixels.
                for page in try splitter.pages(file: name, content: whole) {
                    guard case .tiffDirectory(let offset) = page.cut else {
                        Issue.record("\(label) page \(page.filePage) is not cut by directory: \(page.cut)")
                        continue
                    }
                    let copy = try #require(TIFFDirectoryCopy.page(whole, at: offset), "\(label) page \(page.filePage): the byte copy fell back to libtiff")
                    let byLibTIFF = try TIFFSplitter.pageByLibTIFF(whole, at: offset, page.context)
                    // ImageMagick compares the two (Leptonica cannot read the tiled ones).
                    let copyPath = dir.appendingPathComponent("copy.tif").path, libtiffPath = dir.appendingPathComponent("libtiff.tif").path
                    #expect(FileManager.default.createFile(atPath: copyPath, contents: Data(copy)))
                    #expect(FileManager.default.createFile(atPath: libtiffPath, contents: Data(byLibTIFF)))
                    #expect(try Self.magick("compare", ["-metric", "AE", copyPath, libtiffPath, "null:"]) == 0, "\(label) page \(page.filePage): the byte copy and libtiff's cut differ")
                }
                for page in pages {
                    let split = dir.appendingPathComponent("page.tif").path
                    #expect(FileManager.default.createFile(atPath: split, contents: Data(page.content)))
                    // compare -metric AE: exit 0 when no pixel differs.
                    #expect(try Self.magick("compare", ["-metric", "AE", "\(joined)[\(page.filePage - 1)]", split, "null:"]) == 0, "\(label) page \(page.filePage)")
                }
            }
        }

        @Test func aDirectoryTheByteCopyDoesNotExpectIsCutByLibTIFF() throws {
            // Two uncompressed pages whose StripByteCounts entries are renamed to a private tag:
            // libtiff computes the byte counts from the image size, the byte copy (which needs
            // them) declines, and the cut falls back to libtiff with the same pixels.
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-split-fallback-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let source = Fixtures.root.appendingPathComponent("formats/line-none-1.tif").path
            let joined = dir.appendingPathComponent("joined.tif").path
            #expect(try #require(try Self.magick("convert", [source, source, "-compress", "None", joined]), "ImageMagick's convert is installed by make deps") == 0)
            var whole = [UInt8](try #require(FileManager.default.contents(atPath: joined)))
            let renamed = Self.directoryOffsets(whole).map { directory in
                let entries = Int(whole[directory]) | Int(whole[directory + 1]) << 8
                return (0..<entries).filter { i in
                    let at = directory + 2 + i * 12
                    guard Int(whole[at]) | Int(whole[at + 1]) << 8 == 279 else { return false }
                    (whole[at], whole[at + 1]) = (0xE8, 0xFD)  // tag 65000
                    return true
                }.count
            }
            #expect(renamed == [1, 1], "the little-endian two-page file has one StripByteCounts per directory")
            let descriptors = try splitter.pages(file: "joined.tif", content: whole)
            #expect(descriptors.count == 2)
            for page in descriptors {
                guard case .tiffDirectory(let offset) = page.cut else {
                    Issue.record("page \(page.filePage) is not cut by directory: \(page.cut)")
                    continue
                }
                #expect(TIFFDirectoryCopy.page(whole, at: offset) == nil, "page \(page.filePage): the byte copy took a directory without byte counts")
            }
            let pages = try splitter.cutPages(file: "joined.tif", content: whole)
            _ = try Self.checkSplit(pages, whole: whole, file: "joined.tif")
        }

        @Test
        func realMultipageTIFFSplitsIntoStandalonePages() throws {
            let url = Fixtures.real.appendingPathComponent("multipage/aim916.tiff")
            let data = try #require(FileManager.default.contents(atPath: url.path), "\(url.path)")
            let whole = [UInt8](data)
            let start = ContinuousClock.now
            let pages = try splitter.cutPages(file: "aim916.tiff", content: whole)
            let elapsed = ContinuousClock.now - start
            #expect(pages.count == 28)
            let total = pages.reduce(0) { $0 + $1.content.count }
            print("[figures] aim916.tiff: split into \(pages.count) single-page TIFFs in \(elapsed); \(whole.count) bytes -> \(total) bytes in all (was \(whole.count * pages.count) with the whole file per page)")
            let ratio = try Self.checkSplit(pages, whole: whole, file: "aim916.tiff")
            #expect(ratio > 0.95 && ratio < 1.05)
            let offsets = try splitter.pages(file: "aim916.tiff", content: whole).compactMap { page -> UInt64? in
                if case .tiffDirectory(let offset) = page.cut { offset } else { nil }
            }
            #expect(offsets.count == 28 && offsets.allSatisfy { TIFFDirectoryCopy.page(whole, at: $0) != nil }, "a page of aim916.tiff fell back to libtiff")
        }

        @Test func pdfSplitsIntoSinglePagePDFs() throws {
            let whole = Fixtures.bytes("doc.pdf")
            let pages = try splitter.cutPages(file: "doc.pdf", content: whole)
            #expect(pages.count == 2 && pages.allSatisfy { $0.format == .pdf })
            let ratio = try Self.checkSplit(pages, whole: whole, file: "doc.pdf", dpi: 100)
            print("[figures] doc.pdf: \(whole.count) bytes -> 2 pages of \(pages.map(\.content.count)) bytes (x\(String(format: "%.2f", ratio)))")
            #expect(ratio < 1.5)
        }

        @Test
        func realPDFSplitsIntoSinglePagePDFs() throws {
            let shared = Fixtures.real
            for name in ["pdf/multipage.pdf", "pdf/cardinal.pdf"] {
                let data = try #require(FileManager.default.contents(atPath: shared.appendingPathComponent(name).path), "\(name)")
                let whole = [UInt8](data)
                let start = ContinuousClock.now
                let pages = try splitter.cutPages(file: name, content: whole)
                let elapsed = ContinuousClock.now - start
                let total = pages.reduce(0) { $0 + $1.content.count }
                print("[figures] \(name): split into \(pages.count) single-page PDFs in \(elapsed); \(whole.count) bytes -> \(total) bytes in all (was \(whole.count * pages.count))")
                // Page sizes and rotations survive (cardinal.pdf rotates each page differently).
                for page in pages {
                    let original = PDFRasterizer()
                    let a = try original.pageSize(page.content, page: page.filePage)
                    let b = try original.pageSize(whole, page: page.filePage)
                    #expect(a.width == b.width && a.height == b.height && a.contentPage == 1, "\(name) page \(page.filePage)")
                }
                let ratio = try Self.checkSplit(pages, whole: whole, file: name, pixelPages: [pages.count], dpi: 30)
                // Each page takes the resources it uses: a scanned PDF (one image per page) adds
                // up to its size; pages sharing resources (cardinal.pdf) each carry a copy, never
                // more than the whole file per page that was sent before.
                #expect(total <= whole.count * pages.count)
                if name == "pdf/multipage.pdf" { #expect(ratio < 1.1) }
            }
        }

        @Test func recognisedTextIsUnchangedBySplitting() async throws {
            let tiff = try splitter.cutPages(file: "multipage.tif", content: Fixtures.bytes("multipage.tif"))
            let splitResult = try await recognize(tiff[1])
            let wholeResult = try await recognize(Fixtures.page("multipage.tif", filePage: 2, pageIndex: 1))
            #expect(splitResult.text == wholeResult.text && splitResult.text.contains("Second page"))
            #expect(splitResult.filePage == 2 && splitResult.width == wholeResult.width)
            let pdf = try splitter.cutPages(file: "doc.pdf", content: Fixtures.bytes("doc.pdf"))
            let splitPDF = try await recognize(pdf[1])
            let wholePDF = try await recognize(Fixtures.page("doc.pdf", filePage: 2, pageIndex: 1))
            #expect(splitPDF.text == wholePDF.text && splitPDF.filePage == 2)
        }

        /// Offsets of a classic little-endian TIFF's directories, following the chain.
        static func directoryOffsets(_ tiff: [UInt8]) -> [Int] {
            func u32(_ at: Int) -> Int { Int(tiff[at]) | Int(tiff[at + 1]) << 8 | Int(tiff[at + 2]) << 16 | Int(tiff[at + 3]) << 24 }
            var offsets: [Int] = []
            var next = u32(4)
            while next != 0, next + 2 <= tiff.count, offsets.count < 100 {
                offsets.append(next)
                let entries = Int(tiff[next]) | Int(tiff[next + 1]) << 8
                next = u32(next + 2 + 12 * entries)
            }
            return offsets
        }

        @Test func brokenDirectoryChainOrStripNamesTheFileAndPage() throws {
            let whole = Fixtures.bytes("multipage.tif")
            try #require(whole.starts(with: [0x49, 0x49, 42, 0]), "the fixture is a little-endian classic TIFF")
            let dirs = Self.directoryOffsets(whole)
            try #require(dirs.count == 3 && dirs[0] < dirs[1] && dirs[1] < dirs[2], "each directory follows its strip")
            let stderrText = try Self.capturingStderr {
                // Cut inside the third directory: pages 1 and 2 are intact, the chain breaks at 3.
                let cut = Array(whole[..<(dirs[2] + 5)])
                do throws(OCRError) {
                    _ = try splitter.cutPages(file: "cut.tif", content: cut, firstPageIndex: 10)
                    Issue.record("a broken directory chain was accepted")
                } catch {
                    #expect(error.code == .invalidArgument && error.file == "cut.tif" && error.pageIndex == 12, "\(error)")
                    #expect(error.message.contains("cut.tif page 3") && error.message.contains("directory"), "\(error.message)")
                }
                // Page 2's strip moved past the end of the file: a typed error at page 2.
                var moved = whole
                let entries = Int(whole[dirs[1]]) | Int(whole[dirs[1] + 1]) << 8
                let stripOffsets = try #require((0..<entries).map { dirs[1] + 2 + 12 * $0 }.first { whole[$0] == 0x11 && whole[$0 + 1] == 0x01 })
                let beyond = UInt32(whole.count - 100)
                for k in 0..<4 { moved[stripOffsets + 8 + k] = UInt8(truncatingIfNeeded: beyond >> (8 * UInt32(k))) }
                do throws(OCRError) {
                    _ = try splitter.cutPages(file: "moved.tif", content: moved)
                    Issue.record("a strip past the end of the file was accepted")
                } catch {
                    #expect(error.code == .invalidArgument && error.file == "moved.tif" && error.pageIndex == 1, "\(error)")
                    #expect(error.message.contains("moved.tif page 2") && error.message.contains("strip"), "\(error.message)")
                }
            }
            #expect(!stderrText.contains("TIFF") && !stderrText.contains("memory"), "libtiff printed: \(stderrText)")
        }

        /// Runs `body` with file descriptor 2 sent to a temporary file; returns what was written.
        static func capturingStderr(_ body: () throws -> Void) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-stderr-\(getpid())").path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            let saved = dup(2)
            fflush(nil)
            dup2(fd, 2)
            defer {
                fflush(nil)
                dup2(saved, 2)
                close(saved)
                close(fd)
            }
            try body()
            fflush(nil)
            return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
    }
}
