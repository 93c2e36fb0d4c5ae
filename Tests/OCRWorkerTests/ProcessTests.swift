import Foundation
import OCRWire
import OCRTestSupport
import Testing
@testable import OCRWorker

/// The built `ocr-worker` executable, spawned for real. `swift test` builds every product first.
enum WorkerBinary {
    static var path: String? {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ocr-worker").path,
            packageRoot.appendingPathComponent(".build/debug/ocr-worker").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `ocr-worker` with `arguments`; stderr is collected in the returned pipe.
    static func spawn(_ arguments: [String]) throws -> (Process, Pipe) {
        let binary = try #require(path, "ocr-worker is not built; run `swift build` (swift test builds it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = stderr
        try process.run()
        return (process, stderr)
    }

    /// Waits for the process to exit, at most `timeout`; kills it and records an issue otherwise.
    static func exitStatus(_ process: Process, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        let end = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            Issue.record("ocr-worker did not exit within \(timeout)", sourceLocation: sourceLocation)
            return nil
        }
        return process.terminationStatus
    }
}

@Suite("ocr-worker process", .serialized, .blocking)
struct ProcessTests {
    @Test("SIGTERM: held pages finish and report, then Disconnect, then exit 0")
    func sigtermDrains() throws {
        let fake = try FakeCoordinator()
        defer { fake.stop() }
        let (process, stderr) = try WorkerBinary.spawn(["--coordinator", fake.endpoint, "--slots", "2", "--engine", "sleep:400",
                                                        "--heartbeat-ms", "100", "--log-level", "debug"])
        let (identity, ready) = try #require(fake.ready())
        #expect(ready.slots == 2)
        for page in UInt32(0)..<3 { fake.sendTask(pageTask(page), to: identity) }   // 2 running, 1 prefetched
        Thread.sleep(forTimeInterval: 0.15)
        kill(process.processIdentifier, SIGTERM)
        let status = WorkerBinary.exitStatus(process)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 0, "stderr:\n\(log)")
        #expect(process.terminationReason == .exit)
        _ = fake.wait("Disconnect") { $0.contains { $0.message?.disconnect != nil } ? true : nil }
        let messages = fake.messages.filter { $0.heartbeat == nil }
        let results = messages.compactMap(\.result)
        #expect(results.count == 3)
        #expect(results.allSatisfy { $0.result != nil }, "every held page finished")
        #expect(messages.last?.disconnect != nil, "Disconnect comes last")
        #expect(log.contains("msg=\"signal received\" signal=SIGTERM"))
        #expect(log.contains("level=info component=worker"))
    }

    @Test("SIGTERM during startup is not lost: the worker starts, then drains and exits 0", arguments: [0, 5, 20, 60])
    func sigtermDuringStartup(delayMs: Int) throws {
        let fake = try FakeCoordinator()
        defer { fake.stop() }
        // The Tesseract engine loads its model before Ready: a startup long enough to land in.
        let (process, stderr) = try WorkerBinary.spawn(["--coordinator", fake.endpoint, "--slots", "2", "--engine", "tesseract",
                                                        "--heartbeat-ms", "100", "--log-level", "debug"])
        Thread.sleep(forTimeInterval: Double(delayMs) / 1000)
        kill(process.processIdentifier, SIGTERM)
        let status = WorkerBinary.exitStatus(process, timeout: .seconds(30))
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit, "killed by the signal instead of handling it; stderr:\n\(log)")
        #expect(status == 0, "stderr:\n\(log)")
        #expect(log.contains("msg=\"signal received\" signal=SIGTERM"))
    }

    @Test("a crash-on engine kills the process on that page, after answering the others")
    func crashOnPage() throws {
        let fake = try FakeCoordinator()
        defer { fake.stop() }
        let (process, _) = try WorkerBinary.spawn(["--coordinator", fake.endpoint, "--slots", "1", "--engine", "crash-on:1"])
        let (identity, _) = try #require(fake.ready())
        fake.sendTask(pageTask(0), to: identity)
        #expect(fake.results(1).first?.pageIndex == 0)
        fake.sendTask(pageTask(1), to: identity)
        _ = WorkerBinary.exitStatus(process)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
    }

    @Test("--help exits 0 and lists the engines; usage errors exit 64")
    func commandLine() throws {
        let (help, helpOut) = try WorkerBinary.spawn(["--help"])
        #expect(WorkerBinary.exitStatus(help) == 0)
        let text = String(decoding: helpOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        for word in ["--coordinator", "--slots", "--engine", "crash-on:N", "hang-on:N", "fail-on:N", "sleep:MS", "tesseract", "EXIT CODES"] {
            #expect(text.contains(word), "help mentions \(word)")
        }
        for bad in [[String](), ["--coordinator", "tcp://127.0.0.1:1", "--engine", "bogus"],
                    ["--coordinator", "tcp://127.0.0.1:1", "--slots", "0"], ["--coordinator", "localhost"]] {
            let (process, _) = try WorkerBinary.spawn(bad)
            #expect(WorkerBinary.exitStatus(process) == 64, "\(bad)")
        }
    }
}
