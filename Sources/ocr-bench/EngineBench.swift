import Foundation
import OCRClient
import OCREngine
import OCRPages
import OCRWire

/// Benchmarks of the engine in this process (no cluster): the machine's limit (e) and the
/// per-page comparison with the `tesseract` CLI (issue 3's figures).
enum EngineBench {
    static func pages(of path: String, count: Int?) throws -> [PageDescriptor] {
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let all = try PageSplitter().cutPages(file: (path as NSString).lastPathComponent, content: content)
        return count.map { Array(all.prefix($0)) } ?? all
    }

    /// (e) `threads` warm engines, one per core, each recognising its share of the pages at once.
    static func engines(_ args: Args) async throws {
        let threads = args.int("threads", 2)
        let pages = try pages(of: args.string("file"), count: args.optional("pages").flatMap(Int.init))
        let out = args.optional("out")
        let engines = (0..<threads).map { EngineThread(name: "bench-\($0)") }
        defer { engines.forEach { $0.shutdown() } }
        for engine in engines { try await engine.run { r throws(OCRError) in try r.prepare() } }
        let t0 = ContinuousClock.now
        let texts = try await withThrowingTaskGroup(of: [(Int, String, Double)].self) { group in
            for (i, engine) in engines.enumerated() {
                let share = pages.enumerated().filter { $0.offset % threads == i }.map(\.element)
                group.addTask {
                    var done: [(Int, String, Double)] = []
                    for page in share {
                        let p0 = ContinuousClock.now
                        let result = try await engine.recognize(page)
                        done.append((page.pageIndex, result.text, seconds(ContinuousClock.now - p0)))
                    }
                    return done
                }
            }
            var all: [(Int, String, Double)] = []
            for try await part in group { all += part }
            return all.sorted { $0.0 < $1.0 }
        }
        let wall = seconds(ContinuousClock.now - t0)
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            for (index, text, _) in texts {
                try text.write(toFile: "\(out)/page-\(String(format: "%03d", index + 1)).txt", atomically: true, encoding: .utf8)
            }
        }
        emit(["bench": "in-process-engines", "threads": threads, "pages": pages.count, "seconds": wall,
              "pages_per_s": Double(pages.count) / wall, "page_s_median": median(texts.map(\.2)),
              "rss_kb": ProcStats.current.rssKB, "peak_kb": ProcStats.current.peakKB])
    }

    /// Issue 3: per page, the engine in-process vs `tesseract` CLI with OMP_THREAD_LIMIT=1 vs the
    /// CLI with its defaults; resident memory per engine; fast vs accurate with CER.
    static func versusCLI(_ args: Args) async throws {
        let runs = args.int("runs", 3)
        let engine = EngineThread(name: "bench")
        defer { engine.shutdown() }
        let rssBefore = ProcStats.current.rssKB
        try await engine.run { r throws(OCRError) in try r.prepare() }
        let rssLoaded = ProcStats.current.rssKB
        var rows: [[String: Any]] = []
        for path in args.positionals {
            let page = try pages(of: path, count: 1)[0]
            var ours: [Double] = [], single: [Double] = [], multi: [Double] = []
            var result = PageResult()
            var cliText = ""
            for _ in 0..<runs {
                let t0 = ContinuousClock.now
                result = try await engine.recognize(page)
                ours.append(seconds(ContinuousClock.now - t0))
                let t1 = ContinuousClock.now
                cliText = cli(path, threadLimit: true)
                single.append(seconds(ContinuousClock.now - t1))
                let t2 = ContinuousClock.now
                _ = cli(path, threadLimit: false)
                multi.append(seconds(ContinuousClock.now - t2))
            }
            let same = normalise(result.text) == normalise(cliText)
            rows.append(["file": (path as NSString).lastPathComponent, "width": result.width, "height": result.height,
                         "megapixels": Double(result.width) * Double(result.height) / 1e6,
                         "engine_s": median(ours), "cli_single_s": median(single), "cli_default_s": median(multi),
                         "speedup_vs_cli_single": median(single) / median(ours), "same_text_as_cli": same])
            log("\((path as NSString).lastPathComponent): engine \(median(ours)) s, CLI x1 \(median(single)) s, CLI default \(median(multi)) s, same text \(same)")
        }
        let rssAfter = ProcStats.current.rssKB
        var levels: [[String: Any]] = []
        if let gtPage = args.optional("cer-file"), let gtText = args.optional("cer-truth") {
            let page = try pages(of: gtPage, count: 1)[0]
            let truthData = try Data(contentsOf: URL(fileURLWithPath: gtText))
            let truth = String(data: truthData, encoding: .utf8) ?? String(data: truthData, encoding: .isoLatin1) ?? ""
            for level in [RecognitionLevel.accurate, .fast] {
                var options = RecognitionOptions()
                options.level = level
                var times: [Double] = []
                var text = ""
                for _ in 0..<2 {
                    let t0 = ContinuousClock.now
                    text = try await engine.recognize(page, options: options).text
                    times.append(seconds(ContinuousClock.now - t0))
                }
                levels.append(["level": level == .fast ? "fast" : "accurate", "file": (gtPage as NSString).lastPathComponent,
                               "seconds": times.min()!, "cer": characterErrorRate(text, reference: truth)])
            }
        }
        emit(["bench": "engine-vs-cli", "runs": runs, "rows": rows, "levels": levels,
              "rss_before_engine_kb": rssBefore, "rss_engine_loaded_kb": rssLoaded, "rss_after_pages_kb": rssAfter,
              "peak_kb": ProcStats.current.peakKB])
    }

    /// What the document's structure costs next to recognition, per page: the worker's ruling
    /// lines and its page structure (their steps' CPU), the client's part over the job
    /// (`Document.structure` from the worker's layout) and, for a page from an older worker, the
    /// client's whole analysis (the same page without its layout), each a median of `runs`,
    /// single-threaded, so its time is its CPU; against the page's other steps.
    static func structure(_ args: Args) async throws {
        let runs = args.int("runs", 20)
        let engine = EngineThread(name: "bench")
        defer { engine.shutdown() }
        try await engine.run { r throws(OCRError) in try r.prepare() }
        var rows: [[String: Any]] = []
        for path in args.positionals {
            let page = try pages(of: path, count: 1)[0]
            let result = try await engine.recognize(page)
            let steps = Dictionary(result.timings?.steps.map { ($0.step, Double($0.cpuUs) / 1000) } ?? [], uniquingKeysWith: +)
            let rules = steps["ruling_lines"] ?? 0, pageStructure = steps["structure"] ?? 0
            let recognition = steps.filter { $0.key != "ruling_lines" && $0.key != "structure" }.values.reduce(0, +)
            var older = result
            older.layout = nil
            func medianTime(_ document: Document) -> (ms: Double, structure: [PageStructure]) {
                var times: [Double] = []
                var structure: [PageStructure] = []
                for _ in 0..<runs {
                    let t0 = ContinuousClock.now
                    structure = document.structure
                    times.append(seconds(ContinuousClock.now - t0) * 1000)
                }
                return (median(times), structure)
            }
            let client = medianTime(Document(results: [result])), whole = medianTime(Document(results: [older]))
            let name = (path as NSString).lastPathComponent
            rows.append(["file": name, "recognition_cpu_ms": recognition, "ruling_lines_cpu_ms": rules,
                         "page_structure_cpu_ms": pageStructure, "client_ms": client.ms, "client_without_layout_ms": whole.ms,
                         "elements": client.structure.first?.elements.count ?? 0, "same_structure": client.structure == whole.structure,
                         "share": (rules + pageStructure + client.ms) / max(recognition, 0.001)])
            log("\(name): recognition \(Int(recognition)) ms, ruling lines \(Int(rules)) ms, page structure \(String(format: "%.2f", pageStructure)) ms, "
                + "client \(String(format: "%.2f", client.ms)) ms (without the worker's layout \(String(format: "%.2f", whole.ms)) ms)")
        }
        emit(["bench": "structure", "runs": runs, "rows": rows])
    }

    static func normalise(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    static func cli(_ path: String, threadLimit: Bool) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tesseract", path, "stdout"]
        var env = ProcessInfo.processInfo.environment
        if threadLimit { env["OMP_THREAD_LIMIT"] = "1" } else { env.removeValue(forKey: "OMP_THREAD_LIMIT") }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { die("cannot run tesseract: \(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
