import OCRBasics
import Foundation
import OCRPageEngine
import OCRLog
import OCRZeroMQ
import OCRWire
import Testing
@testable import OCRWorker

/// A scripted fake coordinator: a real ROUTER bound to `tcp://127.0.0.1:*` on its own
/// `SocketLoop`, which records every message a worker sends and sends what the test tells it to.
/// While `heartbeating` is on it heartbeats every worker identity that has sent `Ready`.
final class FakeCoordinator: Sendable {
    struct Received: Sendable {
        var identity: [UInt8]
        /// `nil` when the frames were not a valid worker envelope.
        var message: WorkerMessage?
        var at: ContinuousClock.Instant
    }

    let endpoint: String
    private let context: ZMQContext
    private let loop: SocketLoop
    private let router: SocketID
    private let log = Locked<[Received]>([])
    private let changed = NSCondition()
    private let heartbeatingFlag = Locked(true)

    init(heartbeatEvery interval: Duration = .milliseconds(50)) throws {
        context = try ZMQContext()
        loop = SocketLoop(context: context, name: "test.fake-coordinator")
        let log = self.log, changed = self.changed, heartbeating = self.heartbeatingFlag
        (router, endpoint) = try loop.start { control in
            let socket = try control.context.makeSocket(.router)
            let endpoint = try socket.bind("tcp://127.0.0.1:*")
            let id = control.register(socket) { control, _, frames in
                guard let routed = try? Routed<WorkerEnvelope>(frames: frames) else {
                    let identity = frames.first ?? []
                    FakeCoordinator.append(Received(identity: identity, message: nil, at: control.now), log, changed)
                    return
                }
                let message = try? routed.envelope.decodeWorkerMessage()
                FakeCoordinator.append(Received(identity: routed.identity, message: message, at: control.now), log, changed)
            }
            control.scheduleRepeating(every: interval) { control in
                guard heartbeating.withLock({ $0 }) else { return }
                let identities = Set(log.withLock { $0.filter { $0.message?.ready != nil }.map(\.identity) })
                let beat = WorkerEnvelope(CoordinatorMessage.with { $0.command = .heartbeat(Heartbeat()) })
                for identity in identities {
                    _ = try? control.send(Routed(identity: identity, envelope: beat).frames, on: id)
                }
            }
            return (id, endpoint)
        }
    }

    private static func append(_ item: Received, _ log: Locked<[Received]>, _ changed: NSCondition) {
        changed.lock()
        log.withLock { $0.append(item) }
        changed.broadcast()
        changed.unlock()
    }

    /// Whether the fake heartbeats its workers (off: it goes silent, as a dead coordinator).
    var heartbeating: Bool {
        get { heartbeatingFlag.withLock { $0 } }
        set { heartbeatingFlag.withLock { $0 = newValue } }
    }

    var received: [Received] { log.withLock { $0 } }

    /// The workers' messages, decoded, in arrival order.
    var messages: [WorkerMessage] { received.compactMap(\.message) }

    func send(_ message: CoordinatorMessage, to identity: [UInt8]) {
        loop.send(Routed(identity: identity, envelope: WorkerEnvelope(message)).frames, on: router)
    }

    func sendTask(_ task: PageTask, to identity: [UInt8]) {
        send(CoordinatorMessage.with { $0.command = .task(task) }, to: identity)
    }

    /// Waits until `extract` finds something in what was received, at most `timeout`.
    func wait<T>(_ what: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
                 _ extract: ([Received]) -> T?) -> T? {
        let end = ContinuousClock.now + timeout
        changed.lock()
        defer { changed.unlock() }
        while true {
            if let found = extract(received) { return found }
            let left = end - ContinuousClock.now
            if left <= .zero {
                Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
                return nil
            }
            _ = changed.wait(until: Date(timeIntervalSinceNow: min(left.seconds, 0.05)))
        }
    }

    /// Waits for the `n`-th (1-based) `Ready` and returns it with the identity it came from.
    func ready(_ n: Int = 1, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) -> (identity: [UInt8], ready: Ready)? {
        wait("Ready #\(n)", timeout: timeout, sourceLocation: sourceLocation) { received in
            let readies = received.compactMap { r in r.message?.ready.map { (r.identity, $0) } }
            return readies.count >= n ? readies[n - 1] : nil
        }
    }

    /// Waits until `count` task results have arrived and returns them in arrival order.
    func results(_ count: Int, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) -> [TaskResult] {
        wait("\(count) results", timeout: timeout, sourceLocation: sourceLocation) { received in
            let results = received.compactMap(\.message?.result)
            return results.count >= count ? results : nil
        } ?? []
    }

    func stop() {
        loop.stop()
        context.terminate()
    }
}

/// A page task with the fields the tests care about.
func pageTask(_ page: UInt32, job: String = "job-1", attempt: UInt32 = 1, remainingMs: UInt64 = 0) -> PageTask {
    PageTask.with {
        $0.jobId = job
        $0.pageIndex = page
        $0.attempt = attempt
        $0.file = "scan.tiff"
        $0.filePage = page + 1
        $0.content = [1, 2, 3]
        $0.remainingMs = remainingMs
    }
}

/// A worker on `fake`, heartbeating every 100 ms. Liveness 10 (1 s) unless a test is about
/// silence, so a loaded machine running other suites does not cause a stray reconnect.
func startWorker(_ fake: FakeCoordinator, engine: PageEngineFactory, slots: Int = 2,
                 heartbeat: Duration = .milliseconds(100), liveness: Int = 10,
                 logger: Logger = .disabled,
                 configure: (inout WorkerConfiguration) -> Void = { _ in }) throws -> WorkerRuntime {
    var configuration = WorkerConfiguration(coordinator: fake.endpoint, slots: slots)
    configuration.heartbeatInterval = heartbeat
    configuration.liveness = liveness
    configuration.drainTimeout = .milliseconds(500)
    configure(&configuration)
    let worker = try WorkerRuntime(configuration: configuration, engine: engine, logger: logger)
    try worker.start()
    return worker
}

/// Stops a test worker (drain, Disconnect) and the fake, in that order.
func stopAll(_ worker: WorkerRuntime, _ fake: FakeCoordinator) {
    worker.shutdown()
    worker.wait()
    fake.stop()
}

/// Records the most pages it ever saw running at once; each page sleeps `duration`.
final class ConcurrencyProbeEngine: PageEngine {
    final class Counter: Sendable {
        private let state = Locked((running: 0, peak: 0))
        func enter() { state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) } }
        func leave() { state.withLock { $0.running -= 1 } }
        var peak: Int { state.withLock { $0.peak } }
    }
    let counter: Counter
    let duration: Duration
    init(counter: Counter, duration: Duration) {
        self.counter = counter
        self.duration = duration
    }
    func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        counter.enter()
        defer { counter.leave() }
        try control.sleep(for: duration, task)
        return PageResult.with { $0.text = "page \(task.pageIndex) on \(currentThreadName())" }
    }
}

/// Sleeps a time chosen per page index (so the test knows the completion order).
final class ScriptedSleepEngine: PageEngine {
    let durations: [UInt32: Duration]
    init(_ durations: [UInt32: Duration]) { self.durations = durations }
    func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        try control.sleep(for: durations[task.pageIndex] ?? .zero, task)
        return PageResult.with { $0.text = "page \(task.pageIndex)" }
    }
}

/// The OS-level name of the calling thread (what `ps -L` shows), from /proc/thread-self/comm.
func currentThreadName() -> String {
    let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
    return comm.trimmingCharacters(in: .whitespacesAndNewlines)
}
