import OCRBasics
import OCRPageEngine
import OCRLog
import OCRWire

/// The worker's side of the worker link (PROTOCOL.md section 2) as a value: events and the
/// current time in, directives out. It does no I/O and reads no clock (time is a `Duration` since
/// the shell started, and an engine thread beginning a page reaches it as an event); the
/// `PageControl`s it hands out are only the flags engines read. `WorkerRuntime` is the shell
/// that owns the socket, the timers and the engine threads and carries out the directives.
///
/// States and the legal moves between them:
///
/// ```
/// idle --start--> connected(connection) --silence >= liveness x interval--> backingOff(until)
///                   |   ^   \--Disconnect received / socket failure--> backingOff(until)
///                   |   \--------------- tick at `until` (new socket, next connection) --/
///                   \--drained (shutdown and nothing held)--> stopped
/// draining: no new tasks (refused with UNAVAILABLE), no reconnect; a lost connection -> stopped.
/// ```
///
/// The worker announces one `worker_uid` for the life of its process, on every connection, so
/// that logs, `ClusterStatus` and documents name it the same way throughout. Connections are
/// numbered 1, 2, ... inside the link.
/// A task belongs to the connection it arrived on. When that connection ends, its tasks are
/// cancelled with UNAVAILABLE and forgotten: the coordinator requeues them, and a result that
/// comes back later is dropped.
///
/// **Wedged engines.** A page asked to stop (cancelled, past its deadline or past the worker's
/// `maxPageTime`, counted from the engine's `began` event) whose engine thread has not returned
/// `stuckGrace` later is stuck in native code
/// that no one can interrupt, and its slot is lost for good. The link then fails that page with
/// DEADLINE_EXCEEDED (or the code it was stopped with), gives back every other page at once
/// (pages queued behind a stuck engine thread would never run), says Disconnect, which has the
/// coordinator requeue them without counting a failure, and stops with `wedged` set, so the
/// process exits non-zero and its supervisor starts a fresh one.
struct WorkerLink {
    struct Configuration: Sendable {
        var slots: Int
        var languages: [String]
        var version: String
        var hostname: String
        var labels: [String: String] = [:]
        var heartbeatInterval: Duration
        var liveness: Int
        var reconnectInitial: Duration = .milliseconds(250)
        var reconnectMax: Duration = .seconds(8)
        var drainTimeout: Duration
        /// Tasks beyond this many (a coordinator ignoring credits) are refused with UNAVAILABLE.
        var maxHeldTasks: Int
        /// The longest one page may run on an engine thread; nil: no limit of the worker's own.
        var maxPageTime: Duration? = nil
        /// How long an engine may take to return after its page was asked to stop before the
        /// worker takes it for wedged and restarts.
        var stuckGrace: Duration = .seconds(60)
    }

    /// One task as the worker holds it: the page and the attempt.
    struct TaskKey: Hashable, Sendable, CustomStringConvertible {
        var jobID: String
        var pageIndex: UInt32
        var attempt: UInt32
        var description: String { "\(jobID)/\(pageIndex)#\(attempt)" }
    }

    /// A task queued for or running on an engine thread, and what the link knows of its timing.
    struct Held {
        var connection: UInt64
        var control: PageControl
        /// When the task is due (its `remaining_ms` from arrival); nil: no deadline.
        var deadline: Duration?
        /// When an engine thread began it (the `began` event); nil while it waits for one.
        var beganAt: Duration?
        /// When the link asked it to stop (cancel or give back), and with which code.
        var stopAskedAt: Duration?
        var stopCode: StatusCode?

        /// Since when its engine has been expected to stop: the earliest of the stop asked,
        /// the deadline and the end of `maxPageTime` that has passed, but never before the engine
        /// began it (a page queued behind long pages is not stuck); nil while it may run on.
        func stopExpected(asOf now: Duration, maxPageTime: Duration?) -> Duration? {
            guard let beganAt else { return nil }
            let limit = maxPageTime.map { beganAt + $0 }
            let due = [deadline, limit].compactMap { $0 }.filter { $0 <= now }
            guard let asked = (due + [stopAskedAt].compactMap { $0 }).min() else { return nil }
            return max(asked, beganAt)
        }
    }

    enum Phase: Equatable {
        case idle
        case connected(connection: UInt64)
        case backingOff(until: Duration)
        case stopped
    }

    enum Event {
        case start
        /// Time passes (a repeating timer, several times per heartbeat interval).
        case tick
        /// A decoded message from the coordinator on the current connection.
        case received(CoordinatorMessage)
        /// Frames from the coordinator that are not a valid envelope.
        case malformed(String)
        /// An engine thread began a task that arrived on `connection`.
        case began(TaskKey, connection: UInt64)
        /// An engine thread finished a task that arrived on `connection`.
        case finished(TaskKey, connection: UInt64, Result<PageResult, OCRError>)
        /// SIGTERM/SIGINT: drain. A second one gives back what is still running.
        case shutdown
        /// The shell could not open or use the socket: the connection is lost.
        case connectionFailed(String)
    }

    enum Directive {
        /// Close the current socket (if any), open a new DEALER and connect it.
        case connect(connection: UInt64)
        /// Close the current socket; `lingerMilliseconds` gives queued messages time to leave.
        case closeSocket(lingerMilliseconds: Int)
        case send(WorkerMessage)
        /// Queue the task for an engine thread, due at `deadline` (nil: no deadline; the shell
        /// turns it into the control's clock time) and limited to `maxPageTime` once begun.
        case run(PageTask, TaskKey, connection: UInt64, PageControl, deadline: Duration?)
        case cancel(PageControl, StatusCode)
        case log(@Sendable (Logger) -> Void)
        /// Everything is done: stop the loop and the engine threads.
        case stop
    }

    let configuration: Configuration
    /// The `worker_uid` every `Ready` of this process announces (non-zero).
    let workerID: UInt64
    private var connections: UInt64 = 0
    private(set) var phase = Phase.idle
    private(set) var held: [TaskKey: Held] = [:]
    /// Tasks given back with their connection whose engine has not returned yet.
    private var abandoned: [TaskKey: Held] = [:]
    /// An engine did not stop: the worker stops so that a fresh process replaces it.
    private(set) var wedged = false
    private(set) var draining: Duration?
    private var drainCancelled = false
    private(set) var backoff: Duration
    private var lastSent: Duration?
    private var lastReceived: Duration?
    private var heartbeatSequence: UInt32 = 0
    /// The link's heartbeat rules: ours until the coordinator's `Welcome` says its own.
    private(set) var linkInterval: Duration
    private(set) var linkLiveness: Int

    /// - Parameter workerID: this process's `worker_uid`, random and non-zero (injected so tests
    ///   can predict it).
    init(configuration: Configuration, workerID: UInt64) {
        self.configuration = configuration
        self.workerID = workerID
        self.backoff = configuration.reconnectInitial
        self.linkInterval = configuration.heartbeatInterval
        self.linkLiveness = configuration.liveness
    }

    /// Silence after which the coordinator is dead.
    var silenceLimit: Duration { linkInterval * linkLiveness }

    /// The number of the current connection, `nil` while not connected.
    var currentConnection: UInt64? {
        if case .connected(let connection) = phase { return connection }
        return nil
    }

    mutating func handle(_ event: Event, now: Duration) -> [Directive] {
        if phase == .stopped { return [] }
        switch event {
        case .start:
            guard phase == .idle else { return [] }
            return connect(now: now)
        case .tick:
            return tick(now: now)
        case .received(let message):
            guard case .connected(let connection) = phase else { return [] }
            lastReceived = now
            backoff = configuration.reconnectInitial
            return received(message, connection: connection, now: now)
        case .malformed(let why):
            guard currentConnection != nil else { return [] }
            // Still a sign of life; a worker does not assert on its peer's input.
            lastReceived = now
            return [.log { $0.warning("ignored a malformed message from the coordinator", ["error": why]) }]
        case .began(let key, let connection):
            if held[key]?.connection == connection { held[key]!.beganAt = held[key]!.beganAt ?? now }
            if abandoned[key]?.connection == connection { abandoned[key]!.beganAt = abandoned[key]!.beganAt ?? now }
            return []
        case .finished(let key, let connection, let outcome):
            return finished(key, connection: connection, outcome, now: now)
        case .shutdown:
            return shutdown(now: now)
        case .connectionFailed(let why):
            return lose(now: now, reason: why, level: .error)
        }
    }

    // MARK: Connection

    private mutating func connect(now: Duration) -> [Directive] {
        connections += 1
        let connection = connections
        phase = .connected(connection: connection)
        lastReceived = now
        linkInterval = configuration.heartbeatInterval
        linkLiveness = configuration.liveness
        let ready = WorkerMessage.with {
            $0.command = .ready(Ready.with {
                $0.workerUid = workerID
                $0.slots = UInt32(clamping: configuration.slots)
                $0.languages = configuration.languages
                $0.version = configuration.version
                $0.heartbeatIntervalMs = UInt32(clamping: configuration.heartbeatInterval.milliseconds)
                $0.hostname = configuration.hostname
                $0.labels = configuration.labels
                $0.maxTasks = UInt32(clamping: configuration.maxHeldTasks)
            })
        }
        let slots = configuration.slots, worker = workerID.paddedHex
        return [.connect(connection: connection), send(ready, now: now),
                .log { $0.info("connecting", ["worker": worker, "connection": connection, "slots": slots]) }]
    }

    /// Ends the current connection: its tasks are given back (cancelled with UNAVAILABLE, their
    /// results dropped) and, unless draining, the worker reconnects after the backoff.
    private mutating func lose(now: Duration, reason: String, level: LogLevel) -> [Directive] {
        guard case .connected(let connection) = phase else { return [] }
        let worker = workerID.paddedHex
        var directives: [Directive] = [.closeSocket(lingerMilliseconds: 0)]
        let lost = held.filter { $0.value.connection == connection }
        for key in lost.keys {
            directives.append(stop(key, .unavailable, now: now))
            abandoned[key] = held.removeValue(forKey: key)
        }
        let count = lost.count
        if draining != nil {
            phase = .stopped
            directives.append(.log { $0.log(level, "connection lost while draining; stopping",
                                            ["worker": worker, "connection": connection, "reason": reason, "abandoned": count]) })
            directives.append(.stop)
            return directives
        }
        let delay = backoff
        phase = .backingOff(until: now + delay)
        backoff = min(backoff * 2, configuration.reconnectMax)
        directives.append(.log { $0.log(level, "connection lost; reconnecting",
                                        ["worker": worker, "connection": connection, "reason": reason, "abandoned": count,
                                         "backoff_ms": delay.milliseconds]) })
        return directives
    }

    private mutating func tick(now: Duration) -> [Directive] {
        var directives = checkWedged(now: now)
        if phase == .stopped { return directives }
        if let draining, now >= draining, !drainCancelled {
            drainCancelled = true
            let count = held.count
            directives.append(.log { $0.warning("drain timeout; giving back the pages still held", ["held": count]) })
            directives += held.keys.sorted(by: Self.order).map { stop($0, .unavailable, now: now) }
        }
        switch phase {
        case .idle, .stopped:
            return directives
        case .backingOff(let until):
            if now >= until { directives += connect(now: now) }
            return directives
        case .connected:
            if let lastReceived, now - lastReceived >= silenceLimit {
                let limit = silenceLimit
                return directives + lose(now: now, reason: "coordinator silent for \(limit)", level: .warning)
            }
            if let lastSent, now - lastSent >= min(configuration.heartbeatInterval, linkInterval) {
                heartbeatSequence &+= 1
                let heartbeat = WorkerMessage.with {
                    $0.command = .heartbeat(Heartbeat.with {
                        $0.sequence = heartbeatSequence
                        $0.busy = UInt32(clamping: held.count)
                    })
                }
                directives.append(send(heartbeat, now: now))
            }
            return directives
        }
    }

    // MARK: Messages

    private mutating func received(_ message: CoordinatorMessage, connection: UInt64, now: Duration) -> [Directive] {
        switch message.command {
        case .task(let task):
            let key = TaskKey(jobID: task.jobId, pageIndex: task.pageIndex, attempt: task.attempt)
            if draining != nil {
                return [refuse(task, .unavailable, "worker is shutting down", now: now)]
            }
            if held[key] != nil {
                return [.log { $0.warning("ignored a duplicate task", ["task": key]) }]
            }
            if held.count >= configuration.maxHeldTasks {
                let count = held.count
                return [refuse(task, .unavailable, "worker already holds \(count) tasks", now: now)]
            }
            let deadline = task.remainingMs > 0 ? now + .milliseconds(Int64(clamping: task.remainingMs)) : nil
            let control = PageControl()
            held[key] = Held(connection: connection, control: control, deadline: deadline)
            return [.run(task, key, connection: connection, control, deadline: deadline), .log { $0.debug("task received", ["task": key]) }]
        case .cancel(let cancel):
            let matching = held.filter {
                $0.key.jobID == cancel.jobId && $0.key.pageIndex == cancel.pageIndex && $0.value.connection == connection
            }
            return matching.keys.sorted(by: Self.order).map { stop($0, .cancelled, now: now) }
        case .disconnect(let disconnect):
            return lose(now: now, reason: "coordinator sent Disconnect: \(disconnect.reason)", level: .warning)
        case .welcome(let welcome):
            // The coordinator's rules for this link (bounded: peer input).
            if welcome.heartbeatIntervalMs > 0 {
                linkInterval = .milliseconds(Int64(min(welcome.heartbeatIntervalMs, 600_000)))
            }
            if welcome.liveness > 0 { linkLiveness = Int(min(welcome.liveness, 1000)) }
            let interval = linkInterval.milliseconds, liveness = linkLiveness
            return [.log { $0.debug("welcomed", ["heartbeat_ms": interval, "liveness": liveness]) }]
        case .heartbeat, nil:
            return []
        }
    }

    private mutating func refuse(_ task: PageTask, _ code: StatusCode, _ why: String, now: Duration) -> Directive {
        let error = OCRError(code, why, file: task.file.isEmpty ? nil : task.file, page: Int(task.pageIndex))
        let key = TaskKey(jobID: task.jobId, pageIndex: task.pageIndex, attempt: task.attempt)
        return send(Self.result(for: key, .failure(error)), now: now)
    }

    // MARK: Tasks

    private mutating func finished(_ key: TaskKey, connection: UInt64, _ outcome: Result<PageResult, OCRError>,
                                   now: Duration) -> [Directive] {
        var directives: [Directive] = []
        if let task = held[key], task.connection == connection {
            held[key] = nil
            if currentConnection == connection { directives.append(send(Self.result(for: key, outcome), now: now)) }
        } else {
            abandoned[key] = nil
            directives.append(.log { $0.debug("dropped the result of an abandoned task", ["task": key, "connection": connection]) })
        }
        if draining != nil, held.isEmpty { directives += finish() }
        return directives
    }

    static func result(for key: TaskKey, _ outcome: Result<PageResult, OCRError>) -> WorkerMessage {
        WorkerMessage.with {
            $0.command = .result(TaskResult.with {
                $0.jobId = key.jobID
                $0.pageIndex = key.pageIndex
                $0.attempt = key.attempt
                switch outcome {
                case .success(let page): $0.outcome = .result(page)
                case .failure(let error): $0.outcome = .error(error.status)
                }
            })
        }
    }

    // MARK: Wedged engines

    /// Finds pages whose engine has ignored a stop for longer than `stuckGrace`; on the first,
    /// fails them, gives back the rest and drains towards a stop (see the type's documentation).
    private mutating func checkWedged(now: Duration) -> [Directive] {
        let grace = configuration.stuckGrace, limit = configuration.maxPageTime
        func stuck(_ task: Held) -> Bool {
            guard let expected = task.stopExpected(asOf: now, maxPageTime: limit) else { return false }
            return now - expected >= grace
        }
        let stuckHeld = held.filter { stuck($0.value) }.sorted { Self.order($0.key, $1.key) }
        let stuckAbandoned = abandoned.filter { stuck($0.value) }
        guard !stuckHeld.isEmpty || !stuckAbandoned.isEmpty else { return [] }
        var directives: [Directive] = []
        for (key, task) in stuckHeld {
            held[key] = nil
            let code = task.stopCode ?? .deadlineExceeded
            let error = OCRError(code, "the engine did not stop within \(grace) of being asked to (\(Self.reason(code))); "
                                 + "the worker restarts to free the slot", page: Int(key.pageIndex))
            if currentConnection == task.connection { directives.append(send(Self.result(for: key, .failure(error)), now: now)) }
        }
        for key in stuckAbandoned.keys { abandoned[key] = nil }
        let pages = (stuckHeld.map(\.key) + stuckAbandoned.map(\.key)).map(\.description)
        wedged = true
        let count = held.count
        directives.append(.log { $0.error("an engine ignored a stop: failing its page, giving back the others and restarting",
                                           ["pages": pages.joined(separator: ","), "grace_ms": grace.milliseconds, "giving_back": count]) })
        for key in held.keys.sorted(by: Self.order) {
            directives.append(stop(key, .unavailable, now: now))
            abandoned[key] = held.removeValue(forKey: key)
        }
        draining = draining ?? now
        drainCancelled = true
        return directives + finish()
    }

    /// Asks a held task to stop with `code` (the first ask counts) and says so to the shell.
    private mutating func stop(_ key: TaskKey, _ code: StatusCode, now: Duration) -> Directive {
        if held[key]!.stopAskedAt == nil {
            held[key]!.stopAskedAt = now
            held[key]!.stopCode = code
        }
        return .cancel(held[key]!.control, code)
    }

    /// Tasks in a fixed order, so the same events always give the same directives.
    static func order(_ a: TaskKey, _ b: TaskKey) -> Bool { a.description < b.description }

    private static func reason(_ code: StatusCode) -> String {
        switch code {
        case .deadlineExceeded: "its deadline passed"
        case .cancelled: "it was cancelled"
        default: "it was given back"
        }
    }

    // MARK: Shutdown

    private mutating func shutdown(now: Duration) -> [Directive] {
        let count = held.count
        if draining != nil {
            guard !drainCancelled else { return [] }
            drainCancelled = true
            return [.log { $0.warning("second shutdown signal; giving back the pages still held", ["held": count]) }]
                + held.keys.sorted(by: Self.order).map { stop($0, .unavailable, now: now) }
        }
        draining = now + configuration.drainTimeout
        let timeout = configuration.drainTimeout.milliseconds
        var directives: [Directive] = [.log { $0.info("shutting down: finishing the pages held",
                                                      ["held": count, "drain_timeout_ms": timeout]) }]
        // Nothing held also covers backing off: a lost connection's tasks were given back.
        if held.isEmpty { directives += finish() }
        return directives
    }

    /// Drained: say goodbye on a live connection, then stop.
    private mutating func finish() -> [Directive] {
        var directives: [Directive] = []
        if currentConnection != nil {
            directives.append(.send(WorkerMessage.with { $0.command = .disconnect(Disconnect.with { $0.reason = "worker shutting down" }) }))
            directives.append(.closeSocket(lingerMilliseconds: 1_000))
        }
        phase = .stopped
        directives.append(.log { $0.info("drained; stopping") })
        directives.append(.stop)
        return directives
    }

    private mutating func send(_ message: WorkerMessage, now: Duration) -> Directive {
        lastSent = now
        return .send(message)
    }
}

