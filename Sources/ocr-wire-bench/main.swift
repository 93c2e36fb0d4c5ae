// ocr-wire-bench: encode and decode throughput of a dense PageResult, on one thread.
//
//   ocr-wire-bench [--runs N] [--seconds S] [--out FILE] [--only encode|decode]
//
// Prints one JSON object: the encoded size and the median, min and max MB/s (10^6 bytes per
// second of encoded bytes) over N runs of at least S seconds each. With --out, also writes the
// encoded page so other implementations can be timed on exactly the same bytes
// (scripts/bench_wire.py does that with Python's upb).
import Foundation
import OCRCommandLine
import OCRWire

/// Options, parsed by OCRCommandLine (the one parser).
struct Options {
    static let spec = CommandSpec(name: "ocr-wire-bench", summary: "protobuf codec throughput on a dense page",
                                  usage: "ocr-wire-bench [--runs N] [--seconds S] [--out FILE] [--only encode|decode]", options: [
        .option("--runs", value: "N", default: "7", help: "Measurements of each direction."),
        .option("--seconds", value: "S", default: "0.4", help: "Length of each measurement."),
        .option("--out", value: "FILE", help: "Also write the page's bytes here."),
        .option("--only", value: "WHAT", help: "encode or decode."),
    ])
    var runs: Int
    var seconds: Double
    var out: String?
    var only: String?

    init(_ args: [String]) throws(UsageError) {
        let parsed = try Self.spec.parse(args)
        runs = try parsed.int("--runs", range: 1...1_000)!
        seconds = try parsed.double("--seconds", range: 0.001...600)!
        out = parsed.string("--out")
        only = try parsed.choice("--only", ["encode", "decode"])
    }
}

/// A deterministic dense page: 4 blocks x 3 paragraphs x 6 lines x 7 words = 504 words, each
/// with one symbol per character and 3-5 candidates, boxes and confidences as Tesseract gives.
func densePage() -> PageResult {
    var seed: UInt64 = 42
    func next() -> UInt64 {  // SplitMix64
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    func conf() -> Float { Float(int(600...999)) / 1000 }
    let vocabulary = ["the", "recognition", "of", "scanned", "documents", "requires", "careful", "layout",
                      "analysis", "and", "a", "language", "model", "invoice", "total", "amount", "2024-03-17",
                      "Straße", "naïve", "café", "résumé", "42.50", "EUR", "page", "section", "Müller"]
    func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> BoundingBox {
        BoundingBox.with { $0.x = Int32(x); $0.y = Int32(y); $0.width = UInt32(w); $0.height = UInt32(h) }
    }
    var page = PageResult.with {
        $0.pageIndex = 12; $0.file = "scans/contract-2024.tiff"; $0.filePage = 13
        $0.width = 2_480; $0.height = 3_508; $0.dpi = 300; $0.skewDegrees = 0.37
        $0.timings = Timings.with { $0.decodeUs = 41_230; $0.preprocessUs = 8_812; $0.recognizeUs = 1_912_004; $0.totalUs = 1_965_310; $0.queueUs = 1_204 }
        $0.workerUid = 0x9F3A_61C2_0B7D_44E1; $0.meanConfidence = 0.913; $0.attempt = 1
    }
    var y = 180
    for b in 0..<4 {
        var block = Block.with { $0.type = .text; $0.confidence = conf() }
        for _ in 0..<3 {
            var paragraph = Paragraph.with { $0.confidence = conf() }
            for _ in 0..<6 {
                var line = TextLine.with { $0.confidence = conf() }
                var x = 150 + int(0...20)
                for _ in 0..<7 {
                    let text = vocabulary[int(0...(vocabulary.count - 1))]
                    let charWidth = int(18...26), height = int(34...40)
                    var word = Word.with {
                        $0.text = text; $0.confidence = conf(); $0.fromDictionary = next() % 4 != 0
                        $0.box = box(x, y + int(-2...2), charWidth * text.count, height)
                    }
                    var cx = x
                    for ch in text {
                        word.symbols.append(Symbol.with {
                            $0.text = String(ch); $0.confidence = conf(); $0.box = box(cx, y + int(0...3), charWidth - int(1...4), height - int(0...8))
                        })
                        cx += charWidth
                    }
                    word.candidates = [Candidate.with { $0.text = text; $0.confidence = word.confidence }]
                    for _ in 0..<int(2...4) {
                        word.candidates.append(Candidate.with { $0.text = vocabulary[int(0...(vocabulary.count - 1))]; $0.confidence = conf() / 2 })
                    }
                    line.words.append(word)
                    x += charWidth * text.count + int(14...30)
                }
                line.text = line.words.map(\.text).joined(separator: " ")
                line.box = box(line.words[0].box!.x.asInt, y, x - line.words[0].box!.x.asInt, 40)
                line.baseline = [line.box!.x, Int32(y + 32), Int32(x), Int32(y + 32 + int(-3...3))]
                paragraph.lines.append(line)
                y += 48
            }
            paragraph.text = paragraph.lines.map(\.text).joined(separator: "\n")
            paragraph.box = box(150, y - 6 * 48, 2_100, 6 * 48)
            block.paragraphs.append(paragraph)
            y += 30
        }
        block.text = block.paragraphs.map(\.text).joined(separator: "\n\n")
        block.box = box(140, 170 + b * 3 * 318, 2_200, 3 * 318)
        page.blocks.append(block)
    }
    page.text = page.blocks.map(\.text).joined(separator: "\n\n")
    return page
}

extension Int32 { var asInt: Int { Int(self) } }

/// Runs `body` repeatedly for at least `seconds`; returns MB/s for `bytesPerCall`.
func throughput(bytesPerCall: Int, seconds: Double, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var calls = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        for _ in 0..<16 { body() }
        calls += 16
        elapsed = clock.now - start
    } while elapsed < .milliseconds(Int(seconds * 1_000))
    let s = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(bytesPerCall * calls) / s / 1e6
}

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let page = densePage()
    let bytes = page.serializedBytes()
    guard (try? PageResult(serializedBytes: bytes)) == page else { fatalError("round trip failed") }
    if let out = options.out { try Data(bytes).write(to: URL(fileURLWithPath: out)) }
    let words = page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
    var encode: [Double] = [], decode: [Double] = []
    for _ in 0..<options.runs {
        if options.only != "decode" {
            encode.append(throughput(bytesPerCall: bytes.count, seconds: options.seconds) { blackHole(page.serializedBytes()) })
        }
        if options.only != "encode" {
            decode.append(throughput(bytesPerCall: bytes.count, seconds: options.seconds) { blackHole(try? PageResult(serializedBytes: bytes)) })
        }
    }
    func summary(_ xs: [Double]) -> String {
        if xs.isEmpty { return "null" }
        return String(format: "{\"median\": %.1f, \"min\": %.1f, \"max\": %.1f}", median(xs), xs.min()!, xs.max()!)
    }
    print("{\"bytes\": \(bytes.count), \"words\": \(words.count), \"symbols\": \(words.reduce(0) { $0 + $1.symbols.count }), "
        + "\"candidates\": \(words.reduce(0) { $0 + $1.candidates.count }), \"runs\": \(options.runs), "
        + "\"encode_mb_s\": \(summary(encode)), \"decode_mb_s\": \(summary(decode))}")
} catch let error as UsageError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(64)
}
