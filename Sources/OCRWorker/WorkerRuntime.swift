import OCRBasics
import Dispatch
import Foundation
import OCRLog
import OCRPageEngine
import OCRZeroMQ
import OCRWire

/// How a worker joins the cluster. Defaults follow PROTOCOL.md section 2.
package struct WorkerConfiguration: Sendable {
    /// The coordinator's worker endpoint, e.g. `tcp://coordinator:5556`; with coordinators that
    /// share a journal, theirs separated by commas (`tcp://a:5556,tcp://b:5556`): each connection
    /// tries the next one, so a worker finds the leader (standbys do not bind).
    package var coordinator: String

    /// `coordinator`'s endpoints.
    package var coordinatorEndpoints: [String] {
        coordinator.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    /// The ZeroMQ context to connect in (an in-process cluster's, whose owner terminates it);
    /// nil: one of the worker's own.
    package var context: ZMQContext?
    /// Pages recognised at the same time: one engine thread each. Default: the number of cores.
    package var slots: Int
    /// How often the worker heartbeats when it has sent nothing else (announced in `Ready`).
    package var heartbeatInterval: Duration = .seconds(1)
    /// Heartbeat intervals of silence after which the coordinator is dead.
    package var liveness: Int = 3
    /// First reconnect delay; doubles on each failed connection up to `reconnectMax`.
    package var reconnectInitial: Duration = .milliseconds(250)
    package var reconnectMax: Duration = .seconds(8)
    /// On SIGTERM, how long held pages may run before they are given back (UNAVAILABLE).
    package var drainTimeout: Duration = .seconds(30)
    /// Announced in `Ready`.
    package var version: String = WorkerRuntime.version
    package var hostname: String = WorkerRuntime.localHostname()
    package var labels: [String: String] = [:]
    /// CURVE towards the coordinator (its public key and ours); nil: plain TCP.
    package var security: CurveClientSecurity?
    /// Tasks held (queued or running) beyond which new ones are refused with UNAVAILABLE; `nil`:
    /// `slots + 64`, above the coordinator's adaptive window (at most slots + 32 by default).
    /// Announced in `Ready.max_tasks`, so a coordinator never sends more.
    package var maxHeldTasks: Int?
    /// The longest one page may run on an engine thread before it is stopped with
    /// DEADLINE_EXCEEDED (whatever its task allows); nil: no limit of the worker's own.
    package var maxPageTime: Duration? = .seconds(600)
    /// How long an engine may keep running after its page was asked to stop before the worker
    /// takes it for wedged in native code: it then fails that page, gives back the others and
    /// stops with `WorkerRuntime.wedged` set (ocr-worker exits 70 for its supervisor to restart it).
    package var stuckGrace: Duration = .seconds(60)

    package init(coordinator: String, slots: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.coordinator = coordinator
        self.slots = max(1, slots)
    }
}

/// A worker process's runtime: the link to the coordinator on a `SocketLoop` thread (one DEALER,
/// replaced by a fresh one on every reconnect) and one dedicated engine thread per slot.
///
/// ```swift
/// let worker = try WorkerRuntime(configuration: .init(coordinator: "tcp://host:5556"),
///                                engine: .null, logger: logger)
/// try worker.start()                 // engines made, Ready sent
/// let signals = ShutdownSignals { _ in worker.shutdown() }   // OCRCommandLine
/// worker.wait()                      // returns once drained and disconnected
/// ```
///
/// The protocol logic lives in `WorkerLink` (a value: events in, directives out); this class only
/// carries out its directives and feeds it events from the socket, the timer, the engine threads
/// and `shutdown()`.
package final class WorkerRuntime: Sendable {
    /// The ocr-worker version announced in `Ready`: the product's, as `--version` prints it.
    package static let version = ProductVersion.current

    package let configuration: WorkerConfiguration
    package let engine: PageEngineFactory
    /// The `worker_uid` this process announces on every connection.
    package let workerID: UInt64
    let logger: Logger
    private let context: ZMQContext
    private let loop: SocketLoop
    private let shell: LoopBound<Shell>
    private let threads = Locked<EngineThreads?>(nil)
    private let stopped = DispatchSemaphore(value: 0)
    private let waited = Locked(false)
    private let startCalled = Locked(false)
    private let wedgedFlag = Locked(false)

    /// Whether the worker stopped because an engine ignored a stop (see
    /// `WorkerConfiguration.stuckGrace`); read it after `wait()`.
    package var wedged: Bool { wedgedFlag.withLock { $0 } }

    /// - Parameter workerID: the `worker_uid` this process announces on every connection
    ///   (random and non-zero by default).
    package init(configuration: WorkerConfiguration, engine: PageEngineFactory, logger: Logger,
                workerID: UInt64 = UInt64.random(in: 1...UInt64.max)) throws {
        self.configuration = configuration
        self.engine = engine
        self.workerID = workerID
        self.logger = logger
        self.context = try configuration.context ?? ZMQContext()
        let link = WorkerLink(configuration: .init(
            slots: configuration.slots, languages: engine.languages, version: configuration.version,
            hostname: configuration.hostname, labels: configuration.labels,
            heartbeatInterval: max(configuration.heartbeatInterval, .milliseconds(1)),
            liveness: max(1, configuration.liveness),
            reconnectInitial: configuration.reconnectInitial, reconnectMax: configuration.reconnectMax,
            drainTimeout: configuration.drainTimeout,
            maxHeldTasks: configuration.maxHeldTasks ?? (configuration.slots + 64),
            maxPageTime: configuration.maxPageTime, stuckGrace: configuration.stuckGrace), workerID: workerID)
        let logger = logger
        let loop = SocketLoop(context: context, name: "ocr.worker.io") { error in
            logger.warning("socket loop", ["error": error])
        }
        self.loop = loop
        self.shell = LoopBound(Shell(link: link), loop: loop)
    }

    /// Makes the engines (one thread per slot, each engine made on its thread), then connects and
    /// sends `Ready`. Throws if an engine cannot be made or the endpoint is malformed.
    package func start() throws {
        let first = startCalled.withLock { called -> Bool in
            defer { called = true }
            return !called
        }
        guard first else { throw TransportError(code: .invalidState, message: "WorkerRuntime.start called twice") }
        let finished: @Sendable (EngineWork, Result<PageResult, OCRError>) -> Void = { [loop, shell, logger] work, outcome in
            loop.execute { control in
                shell.value.process(.finished(work.key, connection: work.connection, outcome), control: control, runtime: self, logger: logger)
            }
        }
        let began: @Sendable (EngineWork) -> Void = { [loop, shell, logger] work in
            loop.execute { control in
                shell.value.process(.began(work.key, connection: work.connection), control: control, runtime: self, logger: logger)
            }
        }
        let tick = max(.milliseconds(5), min(.milliseconds(100), configuration.heartbeatInterval / 10))
        do {
            let threads = try EngineThreads(slots: configuration.slots, factory: engine, began: began, finished: finished)
            self.threads.withLock { $0 = threads }
            try loop.start { [shell, logger] control in
                shell.value.process(.start, control: control, runtime: self, logger: logger)
                if let error = shell.value.startupError { throw error }
                control.scheduleRepeating(every: tick) { control in
                    shell.value.process(.tick, control: control, runtime: self, logger: logger)
                }
            }
        } catch {
            threads.withLock { $0?.close() }
            stopped.signal()
            throw error
        }
        logger.info("worker started", ["coordinator": configuration.coordinator, "slots": configuration.slots,
                                       "engine": engine.name, "heartbeat_ms": configuration.heartbeatInterval.milliseconds,
                                       "liveness": configuration.liveness])
    }

    /// Begins a graceful shutdown from any thread (a signal handler): no new tasks, held pages
    /// finish (up to the drain timeout), their results go out, then `Disconnect`. Calling it
    /// again gives back the pages still running at once.
    package func shutdown() {
        loop.execute { [shell, logger] control in
            shell.value.process(.shutdown, control: control, runtime: self, logger: logger)
        }
    }

    /// Blocks until the worker has stopped (drained and disconnected), then releases the engine
    /// threads, the loop and the ZeroMQ context. Idempotent; returns at once if `start` was never
    /// called (or failed).
    package func wait() {
        if !startCalled.withLock({ $0 }) { stopped.signal() }
        stopped.wait()
        stopped.signal()
        let first = waited.withLock { waited -> Bool in
            defer { waited = true }
            return !waited
        }
        guard first else { return }
        loop.stop()
        threads.withLock { $0?.close() }
        // A wedged engine thread will not end: do not wait for it.
        if let threads = threads.withLock({ $0 }), !threads.join(timeout: wedged ? .milliseconds(100) : .seconds(5)) {
            logger.warning("an engine thread is still busy after shutdown; leaving it behind")
        }
        if configuration.context == nil { context.terminate() }
        logger.info("worker stopped")
    }

    /// `start()` then `wait()`.
    package func run() throws {
        try start()
        wait()
    }

    fileprivate func enqueue(_ work: EngineWork) { threads.withLock { $0 }?.push(work) }
    fileprivate func markStopped(wedged: Bool) {
        wedgedFlag.withLock { $0 = wedged }
        threads.withLock { $0?.close() }
        stopped.signal()
    }

    /// This machine's host name (`gethostname`), "" if unknown.
    package static func localHostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The loop thread's state: the link and the current socket, bound to the loop thread
/// (`LoopBound`: inside `SocketLoop` handlers, timers and submitted work).
private final class Shell {
    var link: WorkerLink
    var socket: SocketID?
    /// The monitor of `socket`, which says when the coordinator refuses our handshake.
    var monitor: SocketID?
    /// Set when the very first connect fails (a malformed endpoint): `start` throws it.
    var startupError: (any Error)?
    private var started = false
    /// The link's time zero: it sees `now` as the time since.
    private let epoch = ContinuousClock.now

    init(link: WorkerLink) {
        self.link = link
    }

    /// Feeds `event` to the link and carries out its directives, and those of any follow-up
    /// events (a socket that could not be opened).
    func process(_ event: WorkerLink.Event, control: SocketLoop.Control, runtime: WorkerRuntime, logger: Logger) {
        var events = [event]
        while !events.isEmpty {
            let directives = link.handle(events.removeFirst(), now: control.now - epoch)
            for directive in directives {
                if let followUp = execute(directive, control: control, runtime: runtime, logger: logger) {
                    events.append(followUp)
                }
            }
        }
    }

    private func closeSocket(_ control: SocketLoop.Control, linger: Int) {
        if let socket { control.close(socket, lingerMilliseconds: linger) }
        if let monitor { control.close(monitor, lingerMilliseconds: 0) }
        socket = nil
        monitor = nil
    }

    /// Logs (once per socket) when the coordinator's authenticator turns our handshake down:
    /// libzmq retries silently, and the operator would otherwise see a worker that never joins.
    /// With `failover` (several coordinators), a connection that drops ends the link's
    /// connection at once, so that the next one tries the next coordinator without waiting for
    /// the heartbeats to fall silent.
    private func watchConnection(_ dealer: ZMQSocket, control: SocketLoop.Control, runtime: WorkerRuntime, logger: Logger,
                                 failover: Bool) throws -> SocketID {
        let endpoint = "inproc://ocr.worker.monitor.\(UInt64.random(in: 1...UInt64.max))"
        try dealer.monitor(endpoint, events: failover ? [.handshakeFailedAuth, .disconnected] : .handshakeFailedAuth)
        let pair = try control.context.makeSocket(.pair)
        try pair.set(.linger(0))
        _ = try pair.connect(endpoint)
        var logged = false
        return control.register(pair, closeLingerMilliseconds: 0) { [unowned self] control, _, frames in
            guard let event = SocketEvent(frames: frames) else { return }
            if event.event == .disconnected {
                self.process(.connectionFailed("the coordinator closed the connection"), control: control, runtime: runtime, logger: logger)
                return
            }
            guard !logged, event.event == .handshakeFailedAuth else { return }
            logged = true
            logger.error(event.value == 400
                            ? "the coordinator refused this worker's CURVE key (not on its --allow-worker-keys list); retrying"
                            : "the coordinator refused the connection (at its connection limit); retrying",
                         ["zap_status": event.value])
        }
    }

    private func execute(_ directive: WorkerLink.Directive, control: SocketLoop.Control,
                         runtime: WorkerRuntime, logger: Logger) -> WorkerLink.Event? {
        switch directive {
        case .connect(let connection):
            closeSocket(control, linger: 0)
            // Several coordinators (one leads): each connection tries the next.
            let endpoints = runtime.configuration.coordinatorEndpoints
            let endpoint = endpoints.isEmpty ? runtime.configuration.coordinator : endpoints[Int((connection - 1) % UInt64(endpoints.count))]
            do {
                let dealer = try control.context.makeSocket(.dealer)
                try runtime.configuration.security?.apply(to: dealer)
                try dealer.connect(endpoint)
                socket = control.register(dealer, closeLingerMilliseconds: 0) { [unowned self] control, id, frames in
                    guard id == self.socket else { return }
                    self.process(Self.decode(frames), control: control, runtime: runtime, logger: logger)
                }
                monitor = try watchConnection(dealer, control: control, runtime: runtime, logger: logger, failover: endpoints.count > 1)
            } catch {
                if !started { startupError = error }
                started = true
                return .connectionFailed("cannot connect \(endpoint) (connection \(connection)): \(error)")
            }
            started = true
        case .closeSocket(let linger):
            closeSocket(control, linger: linger)
        case .send(let message):
            guard let socket else { break }
            do {
                if try !control.send(WorkerEnvelope(message).frames, on: socket) {
                    logger.warning("send would block; message dropped", ["command": Self.name(message)])
                }
            } catch {
                return .connectionFailed("send failed: \(error)")
            }
        case .run(let task, let key, let connection, let pageControl, let deadline):
            pageControl.arm(deadline: deadline.map { epoch + $0 }, maxRunTime: runtime.configuration.maxPageTime)
            runtime.enqueue(EngineWork(task: task, key: key, connection: connection, workerID: runtime.workerID, control: pageControl, receivedAt: control.now))
        case .cancel(let pageControl, let code):
            pageControl.cancel(code)
        case .log(let write):
            write(logger)
        case .stop:
            if let socket { control.close(socket, lingerMilliseconds: 1_000) }
            socket = nil
            control.stop()
            runtime.markStopped(wedged: link.wedged)
        }
        return nil
    }

    static func decode(_ frames: [[UInt8]]) -> WorkerLink.Event {
        do {
            return .received(try WorkerEnvelope(frames: frames).decodeCoordinatorMessage())
        } catch {
            return .malformed("\(error)")
        }
    }

    static func name(_ message: WorkerMessage) -> String {
        switch message.command {
        case .ready: "ready"
        case .heartbeat: "heartbeat"
        case .result: "result"
        case .disconnect: "disconnect"
        case nil: "none"
        }
    }
}
