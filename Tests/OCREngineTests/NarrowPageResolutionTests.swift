import Foundation
import OCRLeptonica
import OCRPageModel
@testable import OCREngine
import OCRPages
import OCRWire
import Testing

extension EngineTests {
    /// An untagged narrow page (a receipt's shape) is recognised at the resolution its letters
    /// give, not at the one its long side would give a letter page (``PageResolution``).
    @Suite struct NarrowPageResolution {
        /// `text.png`'s lines stacked three times on a page 1,049 px wide and 1,800 px long
        /// (0.58 of its length: no document page), as an untagged PGM.
        static func narrowPage() throws -> [UInt8] {
            let text = try Pix.decode(Fixtures.bytes("text.png")).grayGrid()
            let (width, height) = (text.width, 1800)
            var pixels = [UInt8](repeating: 255, count: width * height)
            for copy in 0..<3 {
                for y in 0..<text.height {
                    for x in 0..<width { pixels[(copy * 450 + 100 + y) * width + x] = text[x, y] }
                }
            }
            return Array("P5\n\(width) \(height)\n255\n".utf8) + pixels
        }

        @Test func aNarrowUntaggedPageIsReadAtItsLettersResolution() async throws {
            let content = try Self.narrowPage()
            let page = PageDescriptor(file: "narrow.pgm", filePage: 1, pageIndex: 0, content: content, format: .pnm)
            let letters = try #require(try LostText.letterHeight(of: try Pix.decode(content)))
            let expected = Int((Double(letters) * 11).rounded())
            let decoded = try PageDecoder().decode(page)
            #expect(decoded.dpi == expected, "letters \(letters) px")
            #expect(decoded.dpi != 1800 / 11, "the long side's estimate")
            let result = try await recognize(page)
            #expect(result.dpi == UInt32(expected))
            let lines = Fixtures.text("text.txt").split(separator: "\n").map(String.init)
            #expect(result.text.components(separatedBy: lines[1]).count - 1 == 3, "\(result.text)")
        }
    }
}
