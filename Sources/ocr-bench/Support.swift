import OCRBasics
import Foundation
import OCRCommandLine
import OCRZeroMQ

/// Seconds in a `Duration`, as a `Double`.
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

/// The value at fraction `q` (0...1) of the sorted samples (nearest rank).
func percentile(_ xs: [Double], _ q: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    let rank = Int((q * Double(s.count)).rounded(.up)) - 1
    return s[max(0, min(s.count - 1, rank))]
}

func median(_ xs: [Double]) -> Double { percentile(xs, 0.5) }

/// One JSON object on one line on stdout: the bench script collects these.
func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func log(_ text: String) {
    FileHandle.standardError.write(Data(("ocr-bench: " + text + "\n").utf8))
}

func die(_ text: String) -> Never {
    log(text)
    exit(1)
}

/// Per-process figures from /proc.
struct ProcStats {
    let pid: Int32
    /// Resident memory now, kB (VmRSS).
    var rssKB: Int { field("VmRSS") }
    /// Peak resident memory, kB (VmHWM).
    var peakKB: Int { field("VmHWM") }
    var threads: Int { field("Threads") }

    private func field(_ name: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
    }

    /// User + system CPU time, seconds.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the comm: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
        guard fields.count > 12, let u = Double(fields[11]), let s = Double(fields[12]) else { return 0 }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static var current: ProcStats { ProcStats(pid: getpid()) }
}

/// A little-endian multipage TIFF of `pages` tiny bilevel pages (`size` x `size` pixels, uncompressed,
/// 300 dpi), for protocol and memory benchmarks where nothing is decoded.
func tinyTIFF(pages: Int, size: Int = 16) -> [UInt8] {
    precondition(pages >= 1 && size >= 8 && size % 8 == 0)
    var out: [UInt8] = [0x49, 0x49, 42, 0, 0, 0, 0, 0]
    func put16(_ v: Int) { out += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
    func put32(_ v: Int) { out += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8((v >> 24) & 0xff)] }
    func patch32(_ at: Int, _ v: Int) { for i in 0..<4 { out[at + i] = UInt8((v >> (8 * i)) & 0xff) } }
    var previousNext = 4
    let rowBytes = size / 8
    for page in 0..<pages {
        let data = out.count
        // A one-pixel-wide black bar whose position encodes the page, so pages differ.
        for row in 0..<size { for col in 0..<rowBytes { out.append(row == page % size && col == 0 ? 0xff : 0x00) } }
        let rational = out.count
        put32(300); put32(1)
        if out.count % 2 == 1 { out.append(0) }
        let ifd = out.count
        patch32(previousNext, ifd)
        let entries: [(Int, Int, Int, Int)] = [  // tag, type, count, value
            (256, 3, 1, size), (257, 3, 1, size), (258, 3, 1, 1), (259, 3, 1, 1), (262, 3, 1, 0),
            (273, 4, 1, data), (277, 3, 1, 1), (278, 3, 1, size), (279, 4, 1, rowBytes * size),
            (282, 5, 1, rational), (283, 5, 1, rational), (296, 3, 1, 2),
        ]
        put16(entries.count)
        for (tag, type, count, value) in entries {
            put16(tag); put16(type); put32(count)
            if type == 3 { put16(value); put16(0) } else { put32(value) }
        }
        previousNext = out.count
        put32(0)
    }
    return out
}

/// Levenshtein distance over characters, for character error rates.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Character error rate of `text` against `reference`, whitespace runs collapsed to one space.
func characterErrorRate(_ text: String, reference: String) -> Double {
    func norm(_ s: String) -> [Character] { Array(s.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
    let r = norm(reference)
    return r.isEmpty ? 0 : Double(editDistance(norm(text), r)) / Double(r.count)
}

/// The options of every `ocr-bench` subcommand, parsed by OCRCommandLine (the one parser);
/// a missing required value ends the run with a message.
struct Args {
    static let spec = CommandSpec(name: "ocr-bench", summary: "benchmarks for make bench", usage: usage, options: [
        .option("--client", value: "VALUE", help: "see the subcommands above"),
        .option("--worker", value: "VALUE", help: "see the subcommands above"),
        .option("--file", value: "VALUE", help: "see the subcommands above"),
        .option("--out", value: "VALUE", help: "see the subcommands above"),
        .option("--pages", value: "VALUE", help: "see the subcommands above"),
        .option("--count", value: "VALUE", help: "see the subcommands above"),
        .option("--files", value: "VALUE", help: "see the subcommands above"),
        .option("--page-size", value: "VALUE", help: "see the subcommands above"),
        .option("--pages-per-connection", value: "VALUE", help: "see the subcommands above"),
        .option("--pid", value: "VALUE", help: "see the subcommands above"),
        .option("--runs", value: "VALUE", help: "see the subcommands above"),
        .option("--sleep-ms", value: "VALUE", help: "see the subcommands above"),
        .option("--slots", value: "VALUE", help: "see the subcommands above"),
        .option("--threads", value: "VALUE", help: "see the subcommands above"),
        .option("--cer-file", value: "VALUE", help: "see the subcommands above"),
        .option("--cer-truth", value: "VALUE", help: "see the subcommands above"),
        .option("--connections", value: "VALUE", help: "see the subcommands above"),
        .option("--sizes", value: "VALUE", help: "see the subcommands above"),
        .option("--format", value: "VALUE", help: "see the subcommands above"),
    ])
    let parsed: ParsedArguments

    init(_ argv: ArraySlice<String>) {
        do {
            parsed = try Self.spec.parse(Array(argv))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(64)
        }
    }

    var positionals: [String] { parsed.positionals }

    /// The value of `--name`, or nil.
    func optional(_ name: String) -> String? { parsed.string("--\(name)") }

    func string(_ name: String, _ fallback: String? = nil) -> String {
        guard let v = optional(name) ?? fallback else { die("--\(name) is required") }
        return v
    }

    func int(_ name: String, _ fallback: Int? = nil) -> Int {
        guard let v = optional(name).flatMap(Int.init) ?? fallback else { die("--\(name) N is required") }
        return v
    }

    func ints(_ name: String, _ fallback: [Int]) -> [Int] {
        optional(name).map { $0.split(separator: ",").compactMap { Int($0) } } ?? fallback
    }
}

/// Samples a process's resident memory every few milliseconds until stopped; keeps the maximum.
final class RSSSampler: @unchecked Sendable {
    private let peak = Locked(0)
    private let running = Locked(true)
    private let done = DispatchSemaphore(value: 0)

    init(pid: Int32, every interval: TimeInterval = 0.01) {
        let stats = ProcStats(pid: pid)
        Thread.detachNewThread { [self] in
            while running.withLock({ $0 }) {
                let rss = stats.rssKB
                peak.withLock { $0 = max($0, rss) }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
    }

    /// Stops sampling and returns the peak (kB).
    func stop() -> Int {
        running.withLock { $0 = false }
        done.wait()
        return peak.withLock { $0 }
    }
}
