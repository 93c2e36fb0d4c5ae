import Foundation
import OCREngine
import OCRWire
import Testing

/// Side-by-side figures for BENCHMARKS.md: the engine in-process vs the `tesseract` CLI with
/// `OMP_THREAD_LIMIT=1` vs the CLI with its defaults, per page; resident memory per engine; fast vs
/// accurate. Slow, so only when asked: `OCR_ENGINE_BENCH=1 swift test --filter OCREngineTests.EngineTests/Benchmark`.
extension EngineTests {
    @Suite(.enabled(if: ProcessInfo.processInfo.environment["OCR_ENGINE_BENCH"] != nil, "set OCR_ENGINE_BENCH=1"))
    struct Benchmark {
        struct Case { var name: String; var path: String; var options = RecognitionOptions(); var cliArgs: [String] = [] }

        @Test func engineVersusCLI() async throws {
            var cases = [Case(name: "text.png (fixture)", path: Fixtures.root.appendingPathComponent("text.png").path),
                         Case(name: "skew3.png (fixture)", path: Fixtures.root.appendingPathComponent("skew3.png").path)]
            if let shared = Fixtures.shared {
                cases.append(Case(name: "phototest.tif", path: shared.appendingPathComponent("unlv-isri/phototest.tif").path))
                cases.append(Case(name: "8071_093.3B.tif (3312x2550)", path: shared.appendingPathComponent("unlv-isri/8071_093.3B.tif").path))
            }
            let engine = EngineThread(name: "bench")
            defer { engine.shutdown() }
            let rssBefore = residentKB()
            try await engine.run { r throws(OCRError) in try r.prepare() }
            let rssLoaded = residentKB()
            print("| page | engine (s) | CLI, OMP_THREAD_LIMIT=1 (s) | CLI, defaults (s) | engine speed-up vs CLI x1 |")
            print("| --- | --- | --- | --- | --- |")
            for c in cases {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: c.path)))
                let page = PageDescriptor(file: c.name, filePage: 1, pageIndex: 0, content: bytes, format: ImageFormat.sniff(bytes) ?? .unspecified)
                let runs = 3
                var ours: [Double] = [], single: [Double] = [], multi: [Double] = []
                var result = PageResult()
                for _ in 0..<runs {
                    let t0 = ContinuousClock.now
                    result = try await engine.recognize(page, options: c.options)
                    ours.append(seconds(ContinuousClock.now - t0))
                    let t1 = ContinuousClock.now
                    _ = cli(c.path, ["--dpi", "\(result.dpi)"] + c.cliArgs, threadLimit: true)
                    single.append(seconds(ContinuousClock.now - t1))
                    let t2 = ContinuousClock.now
                    _ = cli(c.path, ["--dpi", "\(result.dpi)"] + c.cliArgs, threadLimit: false)
                    multi.append(seconds(ContinuousClock.now - t2))
                }
                let (o, s, m) = (median(ours), median(single), median(multi))
                print("| \(c.name) | \(f(o)) | \(f(s)) | \(f(m)) | \(f(s / o))x |")
            }
            print("resident memory: \(rssBefore / 1024) MB before the engine, \(rssLoaded / 1024) MB with eng loaded, \(residentKB() / 1024) MB after the pages (peak \(peakKB() / 1024) MB)")
        }

        @Test(.enabled(if: Fixtures.shared != nil)) func fastVersusAccurate() async throws {
            let page = try #require(realPage("unlv-isri/8071_093.3B.tif"))
            let gtData = try Data(contentsOf: Fixtures.shared!.appendingPathComponent("unlv-isri/8071_093.3B.txt"))
            let reference = String(data: gtData, encoding: .isoLatin1)!
            for level in [RecognitionLevel.accurate, .fast] {
                var opts = RecognitionOptions()
                opts.level = level
                var times: [Double] = []
                var text = ""
                for _ in 0..<2 {
                    let t0 = ContinuousClock.now
                    text = try await recognize(page, opts).text
                    times.append(seconds(ContinuousClock.now - t0))
                }
                print("[figures] 8071_093.3B.tif \(level): \(f(times.min()!)) s, CER \(f(characterErrorRate(text, reference: reference)))")
            }
            var detect = RecognitionOptions()
            detect.detectOnly = true
            let t0 = ContinuousClock.now
            _ = try await recognize(page, detect)
            print("[figures] 8071_093.3B.tif detect-only: \(f(seconds(ContinuousClock.now - t0))) s")
        }

        private func cli(_ path: String, _ args: [String], threadLimit: Bool) -> String? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["tesseract", path, "stdout"] + args
            var env = ProcessInfo.processInfo.environment
            if threadLimit { env["OMP_THREAD_LIMIT"] = "1" } else { env.removeValue(forKey: "OMP_THREAD_LIMIT") }
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { return nil }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }
}

private func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
private func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
private func f(_ x: Double) -> String { String(format: "%.3f", x) }
private func statusField(_ name: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
}
private func residentKB() -> Int { statusField("VmRSS") }
private func peakKB() -> Int { statusField("VmHWM") }
