import Foundation
import OCRTestSupport
import Testing

/// A coordinator process bound to kernel-chosen loopback ports, and worker processes attached.
/// `stop()` stops them cleanly (SIGTERM, then wait); a test that ends or throws before that
/// releases the cluster, and with it its `ChildProcess`es, which SIGKILL what still runs: no
/// test leaves a process behind.
final class TestCluster: @unchecked Sendable {
    let coordinator: ChildProcess
    let clientEndpoint: String
    let workerEndpoint: String
    /// The HTTP endpoint (`http://127.0.0.1:PORT`); nil with `--http-endpoint none`.
    let httpURL: String?
    private(set) var workers: [ChildProcess] = []

    init(coordinatorArguments: [String] = []) async throws {
        coordinator = try ChildProcess("ocr-coordinator", [
            "--client-endpoint", "tcp://127.0.0.1:*", "--worker-endpoint", "tcp://127.0.0.1:*",
            // Heartbeats every 200 ms, so a killed worker is noticed quickly, but 10 of them
            // missed (2 s) before a peer is dead: with 3 (600 ms) a loaded CI machine stalled a
            // worker rasterising a PDF page long enough to be dropped three times running.
            "--heartbeat-ms", "200", "--liveness", "10", "--log-level", "debug", "--http-endpoint", "127.0.0.1:0",
        ] + coordinatorArguments)
        let endpoints = try await coordinator.waitForStderr(#"coordinator listening" clients=(\S+) workers=(\S+)"#)
        clientEndpoint = endpoints[0]
        workerEndpoint = endpoints[1]
        httpURL = coordinator.stderr.firstMatch(of: /"http listening" url=(\S+)/).map { String($0.1) }
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
                throw TestProcessError("fewer than \(count) workers became ready; coordinator stderr:\n\(coordinator.stderr)")
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
