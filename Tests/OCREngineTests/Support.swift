import Foundation
import OCREngine
import OCRPages
import OCRWire
import OCRTestSupport
import Testing

/// Paths to the committed fixtures and to the real scans.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// The real scans carried in the repository (Tests/Fixtures/real).
    static let real = Binaries.realTestdata

    static func bytes(_ name: String) -> [UInt8] {
        [UInt8]((try? Data(contentsOf: root.appendingPathComponent(name))) ?? Data())
    }

    static func text(_ name: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    static func page(_ name: String, filePage: Int = 1, pageIndex: Int = 0) -> PageDescriptor {
        let content = bytes(name)
        return PageDescriptor(file: name, filePage: filePage, pageIndex: pageIndex, content: content, format: ImageFormat.sniff(content) ?? .unspecified)
    }
}

/// Every OCREngine suite nests under this one serialised suite: Tesseract work is CPU-bound, the
/// machine is small, and the speed figures (detect-only, fast vs accurate) need a quiet CPU.
@Suite(.serialized, .blocking) struct EngineTests {}

/// The engine thread the tests share (Tesseract runs there, never on the cooperative pool).
let testEngine = EngineThread(name: "test-engine")

/// Shuts ``testEngine`` down at exit. Registered after Tesseract's first initialisation, so it runs
/// before libtesseract's static destructors, which would otherwise report the still-loaded
/// dictionaries as leaks.
let shutdownAtExit: Void = { atexit { testEngine.shutdown() } }()

/// Recognises a page on ``testEngine``.
func recognize(_ page: PageDescriptor, _ options: RecognitionOptions = RecognitionOptions()) async throws(OCRError) -> PageResult {
    let result = try await testEngine.run { r throws(OCRError) in try r.recognize(page, options: options) }
    _ = shutdownAtExit
    return result
}

/// The OCRError `body` throws, or nil.
func ocrError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> OCRError? {
    do {
        try await body()
        return nil
    } catch let error as OCRError {
        return error
    } catch {
        Issue.record("not an OCRError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Character error rate: Levenshtein distance over the reference length, whitespace collapsed.
func characterErrorRate(_ hypothesis: String, reference: String) -> Double {
    func norm(_ s: String) -> [Character] { Array(s.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
    let a = norm(reference), b = norm(hypothesis)
    guard !a.isEmpty else { return b.isEmpty ? 0 : 1 }
    var prev = Array(0...b.count)
    for i in 1...a.count {
        var cur = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        prev = cur
    }
    return Double(prev[b.count]) / Double(a.count)
}

/// Runs the `tesseract` CLI (single-threaded) and returns its stdout, or nil when it is missing.
func tesseractCLI(_ path: String, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tesseract", path, "stdout"] + arguments
    var env = ProcessInfo.processInfo.environment
    env["OMP_THREAD_LIMIT"] = "1"
    process.environment = env
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

/// Every box inside the page, and each element inside its parent (with `slack` pixels for the
/// growth that mapping back through a deskew adds).
func checkBoxes(_ result: PageResult, slack: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
    func inside(_ inner: BoundingBox?, _ outer: BoundingBox?) -> Bool {
        guard let i = inner, let o = outer else { return false }
        return Int(i.x) >= Int(o.x) - slack && Int(i.y) >= Int(o.y) - slack
            && Int(i.x) + Int(i.width) <= Int(o.x) + Int(o.width) + slack
            && Int(i.y) + Int(i.height) <= Int(o.y) + Int(o.height) + slack
    }
    var page = BoundingBox()
    page.width = result.width
    page.height = result.height
    let saved = slack
    for block in result.blocks {
        #expect(inside(block.box, page) || saved > 0 && inside(block.box, page), "block outside page", sourceLocation: sourceLocation)
        for para in block.paragraphs {
            #expect(inside(para.box, block.box), "paragraph outside block", sourceLocation: sourceLocation)
            for line in para.lines {
                #expect(inside(line.box, para.box), "line outside paragraph", sourceLocation: sourceLocation)
                for word in line.words {
                    #expect(inside(word.box, line.box), "word \(word.text) outside its line", sourceLocation: sourceLocation)
                    #expect(inside(word.box, page), sourceLocation: sourceLocation)
                    for symbol in word.symbols {
                        #expect(inside(symbol.box, word.box), "symbol \(symbol.text) outside word \(word.text)", sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }
}

extension PageResult {
    var words: [Word] { blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words) }
}
