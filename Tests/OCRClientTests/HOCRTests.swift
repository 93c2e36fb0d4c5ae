import Foundation
import OCRTestSupport
import OCRWire
import Testing
@testable import OCRClient

@Suite(.blocking) struct HOCRTests {
    /// `hocr-spec` (PyPI, installed by `make deps`; installed here on first use when pip can).
    static let hocrSpec: String? = {
        if commandExists("hocr-spec") { return "hocr-spec" }
        _ = try? runProcess(["python3", "-m", "pip", "install", "-q", "hocr-spec"])
        return commandExists("hocr-spec") ? "hocr-spec" : nil
    }()

    static func validate(_ hocr: String) throws -> ProcessOutput {
        let tool = try #require(hocrSpec, "hocr-spec (PyPI) is missing: make deps installs it")
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.hocr")
        try hocr.write(to: file, atomically: true, encoding: .utf8)
        return try runProcess([tool] + ["--profile", "standard", file.path])
    }

    static var handBuilt: Document {
        Document(results: [Fixtures.page(2), Fixtures.page(0)], failures: [Fixtures.failure(1)], pageCount: 4, languages: ["eng"])
    }

    @Test(arguments: [false, true])
    func handBuiltDocumentIsValidHOCR(characterBoxes: Bool) throws {
        let hocr = Self.handBuilt.hOCR(characterBoxes: characterBoxes)
        let wellFormed = try XMLCheck.wellFormed(hocr)
        #expect(wellFormed.status == 0, "\(wellFormed.stderr)")
        let result = try Self.validate(hocr)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("[ERROR]"), "\(result.stdout)")
        // Structure, checked by hand whatever the validator.
        let pages = XMLCheck.matches("<div class='ocr_page' id='(page_\\d+)' title='([^']*)'", in: hocr)
        #expect(pages.map { $0[1] } == ["page_1", "page_2", "page_3", "page_4"])
        #expect(pages[0][2] == "image &quot;scan \\&quot;A\\&quot; &amp; &lt;b&gt;.tiff&quot;; bbox 0 0 800 600; ppageno 0; scan_res 300 300")
        #expect(pages[1][2] == "bbox 0 0 0 0; ppageno 1")
        #expect(hocr.contains("<!-- page 2 failed: DEADLINE_EXCEEDED: page timeout - - 30 s -->"))
        #expect(hocr.contains("<!-- page 4 missing"))
        #expect(XMLCheck.matches("class='ocr_carea'", in: hocr).count == 2)  // no image block
        #expect(XMLCheck.matches("class='ocr_par'", in: hocr).count == 4)
        let lines = XMLCheck.matches("<span class='ocr_line' id='line_1_(\\d)' title=\"([^\"]*)\"", in: hocr)
        #expect(lines.map { $0[1] } == ["1", "2", "3"])
        // Baseline from (100, 116) to (160, 118) in a line box with bottom 120: slope 2/60.
        #expect(lines[0][2] == "bbox 100 100 160 120; baseline 0.033 -4")
        let words = XMLCheck.matches("<span class='ocrx_word' id='word_1_(\\d+)' title='([^']*)'>", in: hocr)
        #expect(words.count == 7)
        #expect(words[2][2] == "bbox 100 200 160 220; x_wconf 80")
        #expect(words[6][2].hasSuffix("x_wconf 29"))
        if characterBoxes {
            #expect(hocr.contains("<span class='ocrx_cinfo' title='x_bboxes 170 200 180 220; x_confs 60.00'>&lt;</span>"))
            #expect(hocr.contains("<span class='ocrx_cinfo' title='x_bboxes 160 230 170 250; x_confs 29.00'>日</span>"))
            #expect(!hocr.contains(">&lt;a&amp;b&gt;</span>"))
        } else {
            #expect(hocr.contains(">&lt;a&amp;b&gt;</span>"))
            #expect(hocr.contains(">&quot;it&#39;s&quot;</span>") || hocr.contains(">\"it's\"</span>"))
            #expect(hocr.contains(">日本語</span>"))
            #expect(!hocr.contains("ocrx_cinfo"))
        }
    }

    @Test func validatorRejectsBrokenHOCR() throws {
        let broken = Self.handBuilt.hOCR(characterBoxes: false).replacingOccurrences(of: "; x_wconf", with: "; x_wconf_bogus")
        let result = try Self.validate(broken)
        #expect(result.stdout.contains("[ERROR]") || result.status != 0)
    }

    @Test func wordsAndLinesMatchTesseract() throws {
        let run = try TesseractRun.shared.get()
        let page = try TSVParser.pages(run.tsv)[0]
        let ours = try DocumentFormat.hocr.render(Document(results: [page]))
        let wordPattern = "<span class='ocrx_word' id='(word_[0-9_]+)' title='([^']*)'>([^<]*)</span>"
        let theirWords = XMLCheck.matches(wordPattern, in: run.hocr)
        #expect(theirWords.count == 60)
        #expect(XMLCheck.matches(wordPattern, in: ours).map { Array($0[1...]) } == theirWords.map { Array($0[1...]) })
        let linePattern = "class='ocr_line' id='(line_[0-9_]+)' title=\"bbox ([0-9 ]+)"
        #expect(XMLCheck.matches(linePattern, in: ours).map { Array($0[1...]) } == XMLCheck.matches(linePattern, in: run.hocr).map { Array($0[1...]) })
        let structure = "class='(ocr_carea|ocr_par)' id='([a-z_0-9]+)'[^>]*title=\"bbox ([0-9 ]+)\""
        #expect(XMLCheck.matches(structure, in: ours).map { Array($0[1...]) } == XMLCheck.matches(structure, in: run.hocr).map { Array($0[1...]) })
        let wellFormed = try XMLCheck.wellFormed(ours)
        #expect(wellFormed.status == 0)
        let result = try Self.validate(ours)
        #expect(!result.stdout.contains("[ERROR]"), "\(result.stdout)")
    }

    @Test func baselineAsTesseractComputesIt() {
        let line = PixelBox(left: 36, top: 92, right: 580, bottom: 122)
        #expect(HOCRRenderer.baseline([36, 116, 580, 116], in: line) == "0 -6")
        #expect(HOCRRenderer.baseline([36, 122, 580, 122], in: line) == "0 0")
        #expect(HOCRRenderer.baseline([36, 116, 576, 119], in: line) == "0.006 -6")
        #expect(HOCRRenderer.baseline([36, 116, 36, 119], in: line) == nil)
        #expect(HOCRRenderer.baseline([], in: line) == nil)
    }

    /// The structure types the blocks as hOCR's floats: a running header `ocr_header`, a page
    /// number alone `ocr_pageno`, a table's blocks one `ocr_table`; the body stays `ocr_carea`;
    /// the file validates and declares those classes.
    @Test func runningTextAndTablesAreFloats() throws {
        func page(_ index: Int) -> PageResult {
            PageResult.with {
                $0.pageIndex = UInt32(index)
                $0.width = 2000
                $0.height = 3000
                $0.blocks = [PageDrawing.block([PageDrawing.line("Northern Works Quarterly Report", x: 100, y: 60)])]
                    + [PageDrawing.block([PageDrawing.line("The meters were read by the site team in the first week of the quarter.", x: 100, y: 300)])]
                    + [("Meter", "Reading"), ("A-1", "1204"), ("A-2", "877"), ("B-1", "3310")].enumerated().map { offset, row in
                        PageDrawing.block([[PageDrawing.word(row.0, 100, 500 + offset * 70), PageDrawing.word(row.1, 900, 500 + offset * 70)]])
                    }
                    + [PageDrawing.block([PageDrawing.line("\(index + 1)", x: 1000, y: 2900)])]
            }
        }
        let hocr = Document(results: [page(0), page(1), page(2)]).hOCR(characterBoxes: false)
        let result = try Self.validate(hocr)
        #expect(result.status == 0 && !result.stdout.contains("[ERROR]"), "\(result.stdout)\(result.stderr)")
        #expect(hocr.contains("<meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf ocr_header ocr_pageno ocr_table'/>"))
        for p in 1...3 {
            let classes = XMLCheck.matches("<div class='(ocr_[a-z]+)' id='block_\(p)_\\d+'", in: hocr).map { $0[1] }
            #expect(classes == ["ocr_header", "ocr_carea", "ocr_table", "ocr_pageno"], "page \(p): \(classes)")
        }
        #expect(XMLCheck.matches("<div class='ocr_table' [^>]*>\\s*<p class='ocr_par'", in: hocr).count == 3)
    }
}
