import Foundation
import OCRBasics
import OCRClient
import OCREngine
import OCRWire

/// Recognition once, structure many times: `capture` saves each file's recognised pages, and
/// `render` makes them a document again with this build's client, so that a change to the
/// structure analysis is measured on a corpus in seconds instead of re-reading every page.
/// The worker's page layout is dropped on render: the client analyses the words itself, which
/// gives the structure the worker's layout gives (`structure` checks that on every page), with
/// this build's rules.
enum StructureReplay {
    /// `capture --out DIR [--threads T] FILES`: every page of each file recognised at the
    /// defaults, saved as `DIR/NAME.pages` (each page's `PageResult` as a 4-byte little-endian
    /// length and its protobuf bytes).
    static func capture(_ args: Args) async throws {
        let out = args.string("out")
        let threads = max(1, args.int("threads", 2))
        let engines = (0..<threads).map { EngineThread(name: "capture-\($0)") }
        defer { engines.forEach { $0.shutdown() } }
        for engine in engines { try await engine.run { r throws(OCRError) in try r.prepare() } }
        let files = args.positionals
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (slot, engine) in engines.enumerated() {
                group.addTask {
                    for path in stride(from: slot, to: files.count, by: threads).map({ files[$0] }) {
                        var bytes: [UInt8] = []
                        for page in try EngineBench.pages(of: path, count: nil) {
                            let result = try await engine.recognize(page).serializedBytes()
                            bytes += withUnsafeBytes(of: UInt32(result.count).littleEndian, Array.init) + result
                        }
                        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                        try Data(bytes).write(to: URL(fileURLWithPath: out).appendingPathComponent(name + ".pages"))
                        log(name)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// `render --format F DIR`: each `DIR/NAME.pages` rendered as `DIR/NAME.F` by this build.
    static func render(_ args: Args) throws {
        guard let format = DocumentFormat(rawValue: args.string("format", "html")) else { die("render: unknown --format") }
        guard let path = args.positionals.first else { die("render needs a directory") }
        let directory = URL(fileURLWithPath: path)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".pages") {
            var pages = try pageResults(Array(Data(contentsOf: directory.appendingPathComponent(name))))
            for index in pages.indices { pages[index].layout = nil }
            let base = (name as NSString).deletingPathExtension
            try format.renderData(Document(results: pages)).write(to: directory.appendingPathComponent(base + "." + format.rawValue))
        }
    }

    static func pageResults(_ bytes: [UInt8]) throws -> [PageResult] {
        var results: [PageResult] = []
        var at = 0
        while at + 4 <= bytes.count {
            let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            guard at + 4 + length <= bytes.count else { throw OCRError(.dataLoss, "a saved page runs past the end of its file") }
            results.append(try PageResult(serializedBytes: Array(bytes[(at + 4)..<(at + 4 + length)])))
            at += 4 + length
        }
        return results
    }
}
