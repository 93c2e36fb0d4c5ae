import Foundation
import OCRTestSupport
import OCRWire
@testable import OCRClient

/// Real Tesseract output for `phototest.tif` (one page) and a two-page TIFF of it, made once per
/// test run with the `tesseract` CLI (and ImageMagick's `convert` for the two-page file).
struct TesseractRun: Sendable {
    var txt: String
    var tsv: String
    var hocr: String
    var alto: String
    /// `tesseract two-pages.tif - txt`, nil when ImageMagick is not installed.
    var twoPageTxt: String?
    var twoPageTSV: String?

    static let shared: Result<TesseractRun, TesseractFixtureError> = Result { try make() }.mapError { TesseractFixtureError(description: "\($0)") }

    static func make() throws -> TesseractRun {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["OMP_THREAD_LIMIT": "1"]
        let base = dir.appendingPathComponent("out").path
        let one = try runProcess(["tesseract", Paths.phototest.path, base, "txt", "tsv", "hocr", "alto"], environment: env)
        guard one.status == 0 else { throw TesseractFixtureError(description: "tesseract failed: \(one.stderr)") }
        func read(_ ext: String, _ base: String) throws -> String { try String(contentsOfFile: base + "." + ext, encoding: .utf8) }
        var run = TesseractRun(txt: try read("txt", base), tsv: try read("tsv", base), hocr: try read("hocr", base),
                               alto: try read("xml", base), twoPageTxt: nil, twoPageTSV: nil)
        if commandExists("convert") {
            let two = dir.appendingPathComponent("two.tif").path
            let made = try runProcess(["convert", Paths.phototest.path, Paths.phototest.path, two])
            if made.status == 0 {
                let base2 = dir.appendingPathComponent("two").path
                let r = try runProcess(["tesseract", two, base2, "txt", "tsv"], environment: env)
                if r.status == 0 {
                    run.twoPageTxt = try read("txt", base2)
                    run.twoPageTSV = try read("tsv", base2)
                }
            }
        }
        return run
    }
}

struct TesseractFixtureError: Error, CustomStringConvertible {
    var description: String
}

/// Parses `tesseract ... tsv` output into `PageResult`s (one per page_num), without page text,
/// so renderers must rebuild everything from the hierarchy.
enum TSVParser {
    static func pages(_ tsv: String) throws -> [PageResult] {
        var pages: [PageResult] = []
        for rawLine in tsv.split(separator: "\n", omittingEmptySubsequences: true).dropFirst() {
            let f = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 12, let level = Int(f[0]), let pageNumber = Int(f[1]),
                  let left = Int(f[6]), let top = Int(f[7]), let width = Int(f[8]), let height = Int(f[9]),
                  let conf = Double(f[10]) else {
                throw TesseractFixtureError(description: "bad TSV row: \(rawLine)")
            }
            let b = box(left, top, width, height)
            switch level {
            case 1:
                pages.append(PageResult.with {
                    $0.pageIndex = UInt32(pageNumber - 1)
                    $0.width = UInt32(width)
                    $0.height = UInt32(height)
                    $0.attempt = 1
                })
            case 2:
                pages[pages.count - 1].blocks.append(Block.with { $0.box = b; $0.type = .text })
            case 3:
                pages[pages.count - 1].blocks[pages[pages.count - 1].blocks.count - 1].paragraphs.append(Paragraph.with { $0.box = b })
            case 4:
                modifyLastParagraph(&pages) { $0.lines.append(TextLine.with { $0.box = b }) }
            case 5:
                modifyLastParagraph(&pages) { p in
                    p.lines[p.lines.count - 1].words.append(Word.with {
                        $0.text = f[11]
                        $0.confidence = Float(conf / 100)
                        $0.box = b
                    })
                    p.lines[p.lines.count - 1].text = p.lines[p.lines.count - 1].words.map(\.text).joined(separator: " ")
                }
            default:
                throw TesseractFixtureError(description: "bad level \(level)")
            }
        }
        return pages
    }

    private static func modifyLastParagraph(_ pages: inout [PageResult], _ body: (inout Paragraph) -> Void) {
        let p = pages.count - 1, b = pages[p].blocks.count - 1, q = pages[p].blocks[b].paragraphs.count - 1
        body(&pages[p].blocks[b].paragraphs[q])
    }
}
