import Foundation
import OCREngine
import OCRPageEngine
import OCRWire
import Testing

/// The production engine behind the worker's `PageEngine`: what `ocr-worker --engine tesseract`
/// runs on each slot (the worker's own tests use engines that need no OCR library).
@Suite(.enabled(if: EngineConfiguration().installedLanguages.contains("eng"), "needs Tesseract's English model"))
struct TesseractPageEngineTests {
    @Test("--engine tesseract is this engine; the built-in names still parse beside it")
    func parses() {
        #expect(PageEngineFactory.parse("tesseract")?.name == "tesseract")
        #expect(PageEngineFactory.parse("null")?.name == "null")
        #expect(PageEngineFactory.parse("tesseract:x") == nil)
    }

    @Test("TesseractPageEngine reads a real page, names the task's page and file, and stops when cancelled")
    func readsAPage() throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.root.appendingPathComponent("text.png")))
        let engine = try PageEngineFactory.tesseract().make(0)
        let task = PageTask.with {
            $0.jobId = "job-1"
            $0.pageIndex = 3
            $0.file = "text.png"
            $0.filePage = 1
            $0.content = bytes
            $0.format = .png
        }
        let page = try engine.recognize(task: task, control: PageControl())
        #expect(page.pageIndex == 3 && page.file == "text.png" && page.filePage == 1)
        let firstWord = try #require(Fixtures.text("text.txt").split(separator: " ").first.map(String.init))
        #expect(page.text.contains(firstWord), "text: \(page.text)")
        // Cancelled up front: Tesseract's monitor sees the control and the page reports CANCELLED.
        let control = PageControl()
        control.cancel()
        let error = #expect(throws: OCRError.self) { try engine.recognize(task: task, control: control) }
        #expect(error?.code == .cancelled)
    }
}
