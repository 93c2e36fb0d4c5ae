import Foundation
import OCRPages
import OCRWire
import Testing

/// Files into pages without decoding a pixel: every format known by its first bytes, a multipage
/// TIFF by its directory chain, a page cut out as a single-page TIFF of its own strips, a
/// content digest for the spool; bad input refused naming the file.
@Suite struct SplittingFilesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    @Test(arguments: [("line.png", ImageFormat.png), ("line.jpg", .jpeg), ("line-g4.tif", .tiff), ("line.gif", .gif),
                      ("line.bmp", .bmp), ("line.webp", .webp), ("line.jp2", .jp2), ("line.pbm", .pnm), ("line.pgm", .pnm)])
    func formatsAreKnownByTheirBytesAndNames(name: String, format: ImageFormat) throws {
        #expect(ImageFormat.sniff(try Self.bytes("formats/\(name)")) == format)
        #expect(ImageFormat.fromExtension(name) == format)
    }

    @Test func unknownBytesAndNamesAreNoFormat() {
        #expect(ImageFormat.sniff(Array("hello, world".utf8)) == nil)
        #expect(ImageFormat.sniff([]) == nil)
        #expect(ImageFormat.fromExtension("notes.txt") == nil && ImageFormat.fromExtension("README") == nil)
        #expect(ImageFormat.sniff(Array("%PDF-1.7\n".utf8)) == .pdf)
    }

    @Test func aMultipageTIFFSplitsIntoItsDirectoriesAndEachCutIsOnePage() throws {
        let content = try Self.bytes("multipage.tif")
        let pages = try PageSplitter().pages(file: "scan.tif", content: content, firstPageIndex: 4)
        #expect(pages.count == 3)
        #expect(pages.map(\.filePage) == [1, 2, 3] && pages.map(\.pageIndex) == [4, 5, 6])
        #expect(pages.allSatisfy { $0.content == content && $0.format == .tiff && $0.digest == FileDigest.sha256(content) })
        for page in pages {
            let cut = try page.cutOut()
            #expect(cut.cut == .none && cut.content.count < content.count)
            #expect(TIFFSplitter.isSinglePage(cut.content), "page \(page.filePage) is not a one-page TIFF")
            let again = try PageSplitter().pages(file: "p.tif", content: cut.content)
            #expect(again.count == 1)
        }
        // The three cuts differ: each is its own directory's image.
        #expect(Set(try pages.map { try $0.cutOut().content }).count == 3)
    }

    @Test func badInputIsRefusedNamingTheFile() {
        let empty = #expect(throws: OCRError.self) { try PageSplitter().pages(file: "empty.tif", content: []) }
        #expect(empty?.code == .invalidArgument && empty?.file == "empty.tif")
        let unknown = #expect(throws: OCRError.self) { try PageSplitter().pages(file: "notes.txt", content: Array("plain text".utf8)) }
        #expect(unknown?.code == .invalidArgument && unknown?.file == "notes.txt")
        // A TIFF header whose first directory lies past the end of the file.
        let broken: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        let tiff = #expect(throws: OCRError.self) { try PageSplitter().pages(file: "broken.tif", content: broken) }
        #expect(tiff?.code == .invalidArgument && tiff?.file == "broken.tif")
    }

    /// A page's compressed bytes, which the coordinator's dispatch order goes by: a TIFF
    /// directory's strips as Pillow counts them (`sum(tag_v2[279])`) for the real scan aim916,
    /// whose page 27 (its back showing through) is the one far above the others; the file's
    /// size for a single image; nothing for the pages of a PDF.
    @Test func aPageKnowsItsCompressedBytes() throws {
        let pages = try PageSplitter().pages(file: "aim916.tiff", content: try Self.bytes("real/multipage/aim916.tiff"))
        #expect(pages.count == 28)
        #expect(pages.map(\.encodedBytes) == [75587, 91899, 62877, 85686, 44062, 70438, 75420, 80036, 62866, 76401, 75548, 66327,
                                              76689, 85201, 48209, 74422, 83835, 63435, 34585, 71595, 54910, 69046, 66054, 7657,
                                              70349, 86248, 175161, 67609])
        #expect(try pages[26].cutOut().encodedBytes == 175161, "kept when the page is cut out")
        let png = try Self.bytes("formats/line.png")
        #expect(try PageSplitter().pages(file: "line.png", content: png).map(\.encodedBytes) == [UInt64(png.count)])
        let pdf = try PageSplitter().pages(file: "doc.pdf", content: try Self.bytes("doc.pdf"))
        #expect(pdf.count == 2 && pdf.allSatisfy { $0.encodedBytes == nil }, "a PDF's page does not tell its bytes")
    }

    @Test func digestsAreSHA256() {
        #expect(FileDigest.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileDigest.sha256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
