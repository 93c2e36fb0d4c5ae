import Foundation
@testable import OCREngine
import OCRPDF
import OCRPages
import OCRTestSupport
import OCRWire
import Testing

/// Files made to amplify or lie (`scripts/abuse_corpus.py`): splitting costs the file once, never
/// pages x file size; what cannot be split honestly is refused naming the file and page.
extension EngineTests {
    @Suite struct HostileInputs {
        /// The corpus, written once per test process into a temporary directory.
        static let corpus: URL? = {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-abuse-\(getpid())")
            let script = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/abuse_corpus.py")
            let run = try? runProcess(["python3", script.path, dir.path])
            return run?.status == 0 ? dir : nil
        }()

        static func file(_ name: String) throws -> [UInt8] {
            let dir = try #require(corpus, "scripts/abuse_corpus.py failed")
            return [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
        }

        @Test func directoriesSharingOneStripBlobAreRefusedAtTheSecondPage() throws {
            let content = try Self.file("shared-strips.tif")
            do throws(OCRError) {
                _ = try PageSplitter().pages(file: "shared-strips.tif", content: content, firstPageIndex: 3)
                Issue.record("500 directories over one strip blob were accepted")
            } catch {
                #expect(error.code == .invalidArgument && error.file == "shared-strips.tif" && error.pageIndex == 4, "\(error)")
                #expect(error.message.contains("shared-strips.tif page 2") && error.message.contains("shared between pages"), "\(error.message)")
            }
        }

        @Test func aStripPastTheEndOfTheFileIsRefusedAtSubmission() throws {
            let content = try Self.file("strip-past-end.tif")
            do throws(OCRError) {
                _ = try PageSplitter().pages(file: "strip-past-end.tif", content: content)
                Issue.record("a strip past the end of the file was accepted")
            } catch {
                #expect(error.code == .invalidArgument && error.pageIndex == 1 && error.message.contains("past the end"), Comment(rawValue: error.message))
            }
        }

        @Test func fiveHundredPagesSharingOneImageShareTheFileAndCutToOneImageEach() throws {
            let content = try Self.file("shared-image.pdf")
            let pages = try PageSplitter().pages(file: "shared-image.pdf", content: content)
            #expect(pages.count == 500 && pages.allSatisfy { $0.cut == .pdfPage && $0.digest == pages[0].digest })
            // One copy of the file for every page: the same storage, not 500 copies.
            let base = content.withUnsafeBufferPointer { $0.baseAddress }
            #expect(pages.allSatisfy { $0.content.withUnsafeBufferPointer { $0.baseAddress } == base })
            for n in [1, 250, 500] {
                let page = try pages[n - 1].cutOut()
                #expect(page.cut == .none && page.filePage == n)
                // The page holds the image it draws (2.1 MB) and nothing of the other 499 pages.
                #expect(page.content.count > 2_000_000 && page.content.count < content.count + 4_096, "page \(n): \(page.content.count) bytes")
                #expect(try PDFDocument(page.content, file: page.file).pageCount() == 1)
            }
        }

        @Test func aPageTreeThatLiesAboutItsCountHasTheRealNumberOfPages() throws {
            let pages = try PageSplitter().pages(file: "lying-count.pdf", content: try Self.file("lying-count.pdf"))
            #expect(pages.count == 3)
            #expect(try pages[2].cutOut().content.count < 4_096)
        }

        @Test func aPDFPageIsRasterisedAtTheBoxThatWasChecked() throws {
            // A 1-inch CropBox on a 2,000-inch MediaBox: the pixel check and the rasteriser must
            // agree on one box (the CropBox, what a viewer shows), or the check is worthless.
            let page = PageDescriptor(file: "crop-media.pdf", content: try Self.file("crop-media.pdf"), format: .pdf)
            let decoded = try PageDecoder().decode(page)
            // 1 inch at 300 dpi. (Rendering the MediaBox instead gives poppler's "Bogus memory
            // allocation size" and a 1x1 image: a size check alone would pass.)
            #expect((295...305).contains(decoded.pix.width) && (295...305).contains(decoded.pix.height), "\(decoded.pix.width)x\(decoded.pix.height)")
        }

        @Test func aHugeDeclaredTIFFIsRefusedBeforeDecoding() throws {
            let page = PageDescriptor(file: "huge-declared.tif", content: try Self.file("huge-declared.tif"), format: .tiff)
            do throws(OCRError) {
                _ = try PageDecoder().decode(page)
                Issue.record("a 10-gigapixel TIFF was decoded")
            } catch {
                #expect(error.code == .resourceExhausted && error.file == "huge-declared.tif" && error.message.contains("refused before decoding"), "\(error)")
            }
        }

        @Test func aJobCanLowerTheWorkersPixelCeilingButNotRaiseIt() throws {
            let page = PageDescriptor(file: "text.png", content: Fixtures.bytes("text.png"), format: .png)  // 1049 x 357
            var options = RecognitionOptions()
            options.maxPagePixels = 1 << 62  // what a hostile client asks for
            do throws(OCRError) {
                _ = try PageDecoder(maxPixels: 100_000).decode(page, options: options)
                Issue.record("a job raised the worker's pixel ceiling")
            } catch {
                #expect(error.code == .resourceExhausted && error.message.contains("100000"), "\(error)")
            }
            options.maxPagePixels = 100_000
            #expect(throws: OCRError.self) { _ = try PageDecoder().decode(page, options: options) }  // lowered: refused
            options.maxPagePixels = 0
            #expect(try PageDecoder(maxPixels: 400_000).decode(page, options: options).pix.width == 1049)  // within: decoded
        }
    }
}
