import Foundation
import Testing

/// Real cluster processes for the end-to-end tier: the built `ocr-coordinator`, `ocr-worker` and
/// `ocr-submit` binaries, started with `Process` on 127.0.0.1 and stopped by the tests.
enum Binaries {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let buildDirectory = repoRoot.appendingPathComponent(".build/debug")
    static func path(_ name: String) -> String { buildDirectory.appendingPathComponent(name).path }
    static let fixtures = repoRoot.appendingPathComponent("Tests/Fixtures")
    static let sharedTestdata = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata")
}

/// A started child process with its stderr collected (for the coordinator's bound endpoints).
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var stderrText = ""
    private var stdoutData = Data()

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Binaries.path(executable))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        // One reader thread per pipe, reading until end of file, so `wait()` can know that
        // everything the process wrote has been collected (a readability handler gives no such
        // signal, and under load its last call can come after the process has exited).
        pump(err.fileHandleForReading, isStdout: false)
        pump(out.fileHandleForReading, isStdout: true)
    }

    private var openPipes = 0

    private func pump(_ handle: FileHandle, isStdout: Bool) {
        lock.withLock { openPipes += 1 }
        let box = UncheckedSendable(handle)
        Thread.detachNewThread { [self] in
            while true {
                let data = box.value.availableData
                if data.isEmpty { break }
                lock.withLock {
                    if isStdout { stdoutData.append(data) } else { stderrText += String(decoding: data, as: UTF8.self) }
                }
            }
            lock.withLock { openPipes -= 1 }
        }
    }

    var stderr: String { lock.withLock { stderrText } }
    var stdout: Data { lock.withLock { stdoutData } }

    /// Waits for a line in stderr matching `pattern` and returns the regex's first capture groups.
    func waitForStderr(_ pattern: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = stderr
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                return (1..<match.numberOfRanges).map { String(text[Range(match.range(at: $0), in: text)!]) }
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ClusterTestError("no stderr line matching \(pattern) from \(process.executableURL!.lastPathComponent); stderr:\n\(stderr)")
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    /// Waits for exit (killing it after `timeout`) and returns the exit status.
    @discardableResult
    func wait(timeout: Duration = .seconds(60)) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { signal(SIGKILL); process.waitUntilExit() }
        // Wait for the readers to reach end of file (bounded: a grandchild could hold a pipe).
        let drainDeadline = ContinuousClock.now + .seconds(10)
        while lock.withLock({ openPipes > 0 }), ContinuousClock.now < drainDeadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Carries values into the one thread that uses them.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

struct ClusterTestError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A coordinator process bound to kernel-chosen loopback ports, and worker processes attached.
final class TestCluster: @unchecked Sendable {
    let coordinator: ChildProcess
    let clientEndpoint: String
    let workerEndpoint: String
    private(set) var workers: [ChildProcess] = []

    init(coordinatorArguments: [String] = []) async throws {
        coordinator = try ChildProcess("ocr-coordinator", [
            "--client-endpoint", "tcp://127.0.0.1:*", "--worker-endpoint", "tcp://127.0.0.1:*",
            "--heartbeat-ms", "200", "--log-level", "debug",
        ] + coordinatorArguments)
        let endpoints = try await coordinator.waitForStderr(#"coordinator listening" clients=(\S+) workers=(\S+)"#)
        clientEndpoint = endpoints[0]
        workerEndpoint = endpoints[1]
    }

    @discardableResult
    func addWorker(slots: Int = 1, engine: String? = nil, extra: [String] = []) async throws -> ChildProcess {
        var arguments = ["--coordinator", workerEndpoint, "--slots", "\(slots)", "--heartbeat-ms", "200", "--log-level", "debug"] + extra
        if let engine { arguments += ["--engine", engine] }
        let worker = try ChildProcess("ocr-worker", arguments)
        workers.append(worker)
        return worker
    }

    /// Waits until the coordinator has logged `count` workers as ready (a Tesseract worker loads
    /// its models before it says Ready, so a test that needs every worker must wait for them).
    func waitForWorkers(_ count: Int, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while coordinator.stderr.components(separatedBy: "msg=\"worker ready\"").count - 1 < count {
            guard ContinuousClock.now < deadline else {
                throw ClusterTestError("fewer than \(count) workers became ready; coordinator stderr:\n\(coordinator.stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs ocr-submit against this cluster and returns (exit status, stdout, stderr).
    func submit(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let submit = try ChildProcess("ocr-submit", ["--coordinator", clientEndpoint] + arguments)
        let status = await submit.wait(timeout: .seconds(240))
        return (status, String(decoding: submit.stdout, as: UTF8.self), submit.stderr)
    }

    func stop() async {
        for worker in workers where worker.process.isRunning { worker.signal(SIGTERM) }
        for worker in workers { await worker.wait(timeout: .seconds(10)) }
        coordinator.signal(SIGTERM)
        await coordinator.wait(timeout: .seconds(10))
    }
}

/// Runs `process` to completion without blocking a cooperative thread (the test runner has as
/// many as cores) and returns its stdout and stderr.
func runToCompletion(_ process: Process) async throws -> (stdout: Data, stderr: Data) {
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            do {
                try process.run()
                let stdout = out.fileHandleForReading.readDataToEndOfFile()
                let stderr = err.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (stdout, stderr))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
