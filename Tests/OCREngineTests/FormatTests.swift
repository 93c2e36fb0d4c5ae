import Foundation
import OCREngine
import OCRPages
import OCRWire
import OCRTestSupport
import Testing

extension EngineTests {
    @Suite struct Formats {
        static let files = ["line.png", "line.jpg", "line-g4.tif", "line-lzw-8.tif", "line-packbits-8.tif", "line-lzw-24.tif",
                            "line-none-1.tif", "line.pgm", "line.pbm", "line.bmp", "line.gif", "line.webp", "line.jp2"]

        @Test(arguments: files)
        func everyFormatDecodesAndReads(name: String) async throws {
            let page = Fixtures.page("formats/" + name)
            #expect(page.format != .unspecified, "\(name) not sniffed")
            let decoded = try PageDecoder().decode(page)
            #expect(decoded.width == 620 && decoded.height == 70)
            let result = try await recognize(page)
            #expect(result.text.contains("quick brown fox"), "\(name): \(result.text)")
        }

        /// Truncated and bit-flipped copies of every format: each decodes or fails with
        /// INVALID_ARGUMENT / RESOURCE_EXHAUSTED naming the file; none may crash the process.
        @Test(arguments: files)
        func damagedCopiesNeverCrash(name: String) throws {
            let original = Fixtures.bytes("formats/" + name)
            var rng = SplitMix64(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
            var variants: [[UInt8]] = [0.05, 0.3, 0.6, 0.95].map { Array(original.prefix(Int(Double(original.count) * $0))) }
            for _ in 0..<40 {
                var copy = original
                for _ in 0..<4 {
                    let i = 8 + Int(rng.next() % UInt64(max(1, copy.count - 8)))
                    copy[i] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
                }
                variants.append(copy)
            }
            let decoder = PageDecoder()
            for (i, bytes) in variants.enumerated() {
                let page = PageDescriptor(file: name, filePage: 1, pageIndex: i, content: bytes, format: .unspecified)
                do {
                    let decoded = try decoder.decode(page)
                    #expect(decoded.width > 0 && decoded.height > 0)
                } catch {
                    #expect([.invalidArgument, .resourceExhausted].contains(error.code), "\(name) #\(i): \(error)")
                    #expect(error.file == name && error.pageIndex == i)
                }
            }
        }
    }
}

