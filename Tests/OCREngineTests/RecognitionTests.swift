import Foundation
import OCREngine
import OCRWire
import Testing

@Suite(.serialized) struct RecognitionTests {
    let engine = SharedRecognizer.shared

    @Test func cleanPageMatchesGroundTruthAndCLI() throws {
        let page = Fixtures.page("text.png")
        let result = try engine.with { try $0.recognize(page) }
        let cer = characterErrorRate(result.text, reference: Fixtures.text("text.txt"))
        print("text.png: CER \(cer), recognize \(result.timings?.recognizeUs ?? 0) us, mean confidence \(result.meanConfidence)")
        #expect(cer < 0.02)
        #expect(result.width == 1049 && result.height == 357 && result.dpi == 300)
        if let cli = tesseractCLI(Fixtures.root.appendingPathComponent("text.png").path, ["--dpi", "300"]) {
            #expect(result.text == cli)
        }
        checkBoxes(result)
        #expect(result.words.count > 20)
        #expect(result.words.allSatisfy { (0...1).contains($0.confidence) && $0.candidates.first?.text == $0.text })
    }
}
