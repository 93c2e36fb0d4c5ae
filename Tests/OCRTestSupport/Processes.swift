import Foundation
import Synchronization

// Running other programs from tests: independent peers and validators (protoc, python3,
// hocr-spec, ImageMagick) to completion, and this package's executables as long-lived children.

/// What a finished program wrote and how it exited.
package struct ProcessOutput: Sendable {
    package var status: Int32
    package var stdoutData: Data
    package var stderr: String
    package var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
}

/// Runs `arguments` (looked up on PATH through `/usr/bin/env`) to completion, with `stdin` as
/// its standard input, and returns its output. Output goes to files, not pipes, so a child that
/// writes more than a pipe holds never blocks. Synchronous: from async code use `runAsync`.
package func runProcess(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                        stdin: String? = nil) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let tmp = FileManager.default.temporaryDirectory
    let outURL = tmp.appendingPathComponent("ocr-test-\(UUID().uuidString).out")
    let errURL = tmp.appendingPathComponent("ocr-test-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
    }
    process.waitUntilExit()
    try out.close()
    try err.close()
    return ProcessOutput(status: process.terminationStatus,
                         stdoutData: (try? Data(contentsOf: outURL)) ?? Data(),
                         stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}

/// `runProcess` on a thread of its own, so a waiting test does not hold one of the cooperative
/// threads (the test runner has as many as cores).
package func runAsync(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                      stdin: String? = nil) async throws -> ProcessOutput {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try runProcess(arguments, in: directory, environment: environment, stdin: stdin) })
        }
    }
}

/// True when `tool` is on PATH.
package func commandExists(_ tool: String) -> Bool {
    (try? runProcess(["sh", "-c", "command -v \(tool)"]).status) == 0
}

/// Paths of this package: its root, its built executables and its fixtures.
package enum Binaries {
    package static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let buildDirectory = repoRoot.appendingPathComponent(".build/debug")
    package static func path(_ name: String) -> String { buildDirectory.appendingPathComponent(name).path }
    package static let fixtures = repoRoot.appendingPathComponent("Tests/Fixtures")
    /// Real scans and PDFs from public test suites (Tests/Fixtures/real, licences beside them).
    package static let realTestdata = fixtures.appendingPathComponent("real")
    /// The ALTO and PAGE schemas with an offline catalog (Tests/Fixtures/schemas).
    package static let schemas = fixtures.appendingPathComponent("schemas")
}

/// One of this package's executables, started and left running: its stdout and stderr are read
/// to end of file on threads of their own. `wait` ends it (SIGKILL after a timeout); so does
/// releasing it, so a test that throws never leaves a process behind.
package final class ChildProcess: Sendable {
    /// What the child wrote so far, shared with the reader threads (which must not keep the
    /// `ChildProcess` itself alive, or its `deinit` would never kill the child).
    private final class Output: Sendable {
        struct State {
            var stderr = ""
            var stdout = Data()
            var openPipes = 0
        }
        let state = Mutex(State())
    }

    /// The process (do not `run` or `terminate` it; use `signal` and `wait`).
    package let process: Process
    private let output = Output()

    package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : Binaries.path(executable))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        self.process = process
        Self.pump(err.fileHandleForReading, into: output, isStdout: false)
        Self.pump(out.fileHandleForReading, into: output, isStdout: true)
    }

    private static func pump(_ handle: FileHandle, into output: Output, isStdout: Bool) {
        output.state.withLock { $0.openPipes += 1 }
        let box = UncheckedSendable(handle)
        Thread.detachNewThread {
            while true {
                let data = box.value.availableData
                if data.isEmpty { break }
                output.state.withLock {
                    if isStdout { $0.stdout.append(data) } else { $0.stderr += String(decoding: data, as: UTF8.self) }
                }
            }
            output.state.withLock { $0.openPipes -= 1 }
        }
    }

    package var stderr: String { output.state.withLock { $0.stderr } }
    package var stdout: Data { output.state.withLock { $0.stdout } }

    /// Waits for a line in stderr matching `pattern` and returns the regex's capture groups.
    package func waitForStderr(_ pattern: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        let deadline = ContinuousClock.now + timeout
        // Look once more after the deadline: while CPU-bound tests hold every thread of the
        // cooperative pool this task may wake long after the line was written (it was, in time).
        while true {
            let text = stderr
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                return (1..<match.numberOfRanges).map { String(text[Range(match.range(at: $0), in: text)!]) }
            }
            if !process.isRunning || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestProcessError("no stderr line matching \(pattern) from \(process.executableURL!.lastPathComponent); stderr:\n\(stderr)")
    }

    package func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    /// Waits for exit (killing it after `timeout`) and returns the exit status.
    @discardableResult
    package func wait(timeout: Duration = .seconds(60)) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { signal(SIGKILL); process.waitUntilExit() }
        // Wait for the readers to reach end of file (bounded: a grandchild could hold a pipe).
        let drainDeadline = ContinuousClock.now + .seconds(10)
        while output.state.withLock({ $0.openPipes > 0 }), ContinuousClock.now < drainDeadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Carries a value into the one thread that uses it.
package struct UncheckedSendable<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}

/// A test's own failure to set something up (a process that never said what it should).
package struct TestProcessError: Error, CustomStringConvertible {
    package let description: String
    package init(_ d: String) { description = d }
}

/// Runs a configured `Process` to completion on a thread of its own and returns what it wrote
/// (for programs that need their own executable path, directory or environment).
package func runToCompletion(_ process: Process) async throws -> (stdout: Data, stderr: Data) {
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let box = UncheckedSendable(process)
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            do {
                try box.value.run()
                // Both pipes at once, so neither can fill and block the child.
                let errData = Mutex(Data())
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    let data = err.fileHandleForReading.readDataToEndOfFile()
                    errData.withLock { $0 = data }
                    done.signal()
                }
                let stdout = out.fileHandleForReading.readDataToEndOfFile()
                done.wait()
                box.value.waitUntilExit()
                continuation.resume(returning: (stdout, errData.withLock { $0 }))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
