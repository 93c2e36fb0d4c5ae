import OCRBasics
import Dispatch
import Foundation

/// Identifies a socket registered with a `SocketLoop`. Plain data: any thread may hold one and
/// pass it to `SocketLoop.send(_:on:)`.
package struct SocketID: Hashable, Sendable, CustomStringConvertible {
    let raw: UInt64
    package var description: String { "socket#\(raw)" }
}

/// A dedicated thread that owns ZeroMQ sockets and runs a `zmq_poll` loop over them.
///
/// ZeroMQ sockets are not thread-safe, so every socket of a coordinator, worker or client lives on
/// one such loop. The loop thread:
/// - polls its sockets and hands each incoming message to that socket's handler;
/// - runs timers (heartbeats, deadlines): the poll timeout is the time to the next deadline, and
///   due timers run after the messages already waiting are read, so a heartbeat that arrived
///   while the thread had no CPU counts before any peer is judged silent;
/// - runs work submitted by other threads and async tasks (`execute`, `perform`, `send`), in
///   submission order, woken through an `inproc://` PUSH/PULL pair.
///
/// Everything that touches a socket happens on the loop thread, through `SocketLoop.Control`,
/// which handlers, timers and submitted work receive and which never leaves that thread.
/// Handlers must not block: hand long work (OCR, disk) to other threads and come back with
/// `execute`/`send`.
///
/// ```swift
/// let loop = SocketLoop(context: context, name: "coordinator.io")
/// let (clients, endpoint) = try loop.start { control in
///     let router = try control.context.makeSocket(.router)
///     let endpoint = try router.bind("tcp://127.0.0.1:*")
///     let id = control.register(router) { control, id, frames in /* on the loop thread */ }
///     return (id, endpoint)
/// }
/// loop.send(frames, on: clients)           // from any thread
/// loop.stop()                              // runs queued work, closes the sockets, joins
/// ```
package final class SocketLoop: Sendable {
    /// A name for the thread (shown by debuggers and `ps -L`).
    package let name: String
    /// The context the loop's sockets belong to.
    package let context: ZMQContext
    /// The most messages read from one socket before the others get a turn.
    package let receiveBatch: Int

    private let shared: Locked<Shared>
    private let wakeEndpoint: String
    private let exited = DispatchGroup()
    private let errorHandler: @Sendable (TransportError) -> Void

    private enum Phase { case idle, starting, running, stopping, stopped }

    /// Work for the loop thread; exactly one of `run` and `cancel` is called.
    private struct Work: Sendable {
        var run: @Sendable (Control) -> Void
        var cancel: @Sendable () -> Void
    }

    private struct Shared {
        var phase = Phase.idle
        var queue: [Work] = []
        /// A wake-up message is in flight; the loop clears this when it takes the queue.
        var wakePending = false
        /// PUSH end of the wake-up pair, used by submitters under this lock.
        var waker: Waker?
        var thread: pthread_t?
    }

    /// Creates a loop; nothing runs until `start`.
    /// - Parameters:
    ///   - errorHandler: called on the loop thread with failures nobody else can see: a
    ///     fire-and-forget `send` that failed or was dropped, a socket that failed to receive.
    package init(context: ZMQContext, name: String = "ocr.socket-loop", receiveBatch: Int = 256,
                errorHandler: @escaping @Sendable (TransportError) -> Void = { _ in }) {
        self.context = context
        self.name = name
        self.receiveBatch = max(1, receiveBatch)
        self.errorHandler = errorHandler
        self.wakeEndpoint = context.uniqueInprocEndpoint("wake")
        self.shared = Locked(Shared())
    }

    // MARK: Lifecycle

    /// Starts the loop thread, runs `setup` on it (create, configure, bind and register sockets
    /// there) and returns what `setup` returns, for example the socket ids and bound endpoints.
    /// If `setup` throws, the loop closes whatever it registered, stops, and the error is
    /// rethrown here. A loop starts once.
    @discardableResult
    package func start<T: Sendable>(_ setup: @escaping @Sendable (Control) throws -> T) throws -> T {
        let canStart = shared.withLock { shared in
            guard case .idle = shared.phase else { return false }
            shared.phase = .starting
            return true
        }
        guard canStart else {
            throw TransportError(code: .invalidState, message: "SocketLoop \(name) was already started")
        }
        let handoff = Handoff<T>()
        exited.enter()
        let thread = Thread { [self] in
            self.run { control in
                let result = Result { try setup(control) }
                handoff.result.withLock { $0 = result }
                if case .failure = result { return false }
                return true
            } started: {
                handoff.ready.signal()
            } startupFailed: { error in
                handoff.result.withLock { $0 = .failure(error) }
                handoff.ready.signal()
            }
            self.exited.leave()
        }
        thread.name = name
        thread.start()
        handoff.ready.wait()
        return try handoff.result.withLock { $0! }.get()
    }

    /// Asks the loop to stop and waits until it has: work submitted before this call still runs,
    /// later submissions are refused, then every registered socket is closed with its linger.
    /// Called on the loop thread (from a handler), it only requests the stop. Idempotent.
    package func stop() {
        let (wasIdle, refused) = shared.withLock { shared -> (Bool, [Work]) in
            switch shared.phase {
            case .idle:
                shared.phase = .stopped
                let refused = shared.queue
                shared.queue = []
                return (true, refused)
            case .starting, .running:
                shared.phase = .stopping
                wakeLocked(&shared, force: true)
                return (false, [])
            case .stopping, .stopped:
                return (false, [])
            }
        }
        for work in refused { work.cancel() }
        if wasIdle || isOnLoopThread { return }
        exited.wait()
    }

    /// Whether the caller runs on this loop's thread.
    package var isOnLoopThread: Bool {
        shared.withLock { shared in
            guard let thread = shared.thread else { return false }
            return pthread_equal(thread, pthread_self()) != 0
        }
    }

    // MARK: Submitting work

    /// Runs `body` on the loop thread after the work submitted before it. Returns `false` (and
    /// drops `body`) if the loop has stopped or is stopping.
    @discardableResult
    package func execute(_ body: @escaping @Sendable (Control) -> Void) -> Bool {
        enqueue(Work(run: body, cancel: {}))
    }

    /// Runs `body` on the loop thread and returns its result to the awaiting task.
    /// Throws `.loopStopped` if the loop stops before running it.
    package func perform<T: Sendable>(_ body: @escaping @Sendable (Control) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work = Work(
                run: { control in continuation.resume(with: Result { try body(control) }) },
                cancel: { continuation.resume(throwing: TransportError.loopStopped) })
            if !enqueue(work) { work.cancel() }
        }
    }

    /// Runs `body` on the loop thread and blocks the calling (non-loop, non-async) thread until
    /// it has run. Throws `.invalidState` on the loop thread itself (it would wait for itself).
    package func performAndWait<T: Sendable>(_ body: @escaping @Sendable (Control) throws -> T) throws -> T {
        if isOnLoopThread {
            throw TransportError(code: .invalidState, message: "performAndWait called on the loop thread of \(name)")
        }
        let handoff = Handoff<T>()
        let work = Work(
            run: { control in
                let result = Result { try body(control) }
                handoff.result.withLock { $0 = result }
                handoff.ready.signal()
            },
            cancel: {
                handoff.result.withLock { $0 = .failure(TransportError.loopStopped) }
                handoff.ready.signal()
            })
        if !enqueue(work) { work.cancel() }
        handoff.ready.wait()
        return try handoff.result.withLock { $0! }.get()
    }

    /// Queues `frames` for sending on `socket`, from any thread, without waiting. The loop sends
    /// without blocking; if the message cannot be queued (high-water mark, unknown ROUTER peer
    /// with `routerMandatory`, socket gone) it is dropped and `errorHandler` is told.
    /// Returns `false` if the loop has stopped.
    @discardableResult
    package func send(_ frames: [[UInt8]], on socket: SocketID) -> Bool {
        execute { control in
            do {
                if try !control.send(frames, on: socket) {
                    control.report(TransportError(code: .messageDropped,
                                                  message: "send on \(socket): would block; message dropped"))
                }
            } catch {
                control.report(error)
            }
        }
    }

    /// Sends `frames` on `socket` from the loop thread and reports the outcome: `true` when
    /// queued, `false` when it would have blocked (nothing was sent).
    @discardableResult
    package func send(_ frames: [[UInt8]], on socket: SocketID) async throws -> Bool {
        try await perform { control in try control.send(frames, on: socket) }
    }

    private func enqueue(_ work: Work) -> Bool {
        shared.withLock { shared in
            switch shared.phase {
            case .idle, .starting, .running:
                shared.queue.append(work)
                wakeLocked(&shared, force: false)
                return true
            case .stopping, .stopped:
                return false
            }
        }
    }

    /// Sends one wake-up message unless one is already on its way. Called with the lock held, so
    /// the PUSH socket is only ever used by one thread at a time.
    private func wakeLocked(_ shared: inout Shared, force: Bool) {
        guard force || !shared.wakePending, let waker = shared.waker else { return }
        shared.wakePending = true
        // DONTWAIT: a full pipe means the loop has wake-ups queued already.
        _ = try? waker.socket.send([[]], dontWait: true)
    }

    // MARK: The loop thread

    /// The thread's body. `setup` runs the caller's setup; `started` is called once the phase
    /// reflects its outcome (running, or stopping after a failure), so `start` returns to a loop
    /// that already accepts or already refuses work.
    private func run(setup: (Control) -> Bool, started: () -> Void, startupFailed: (any Error) -> Void) {
        let control = Control(loop: self)
        let wake: ZMQSocket
        do {
            wake = try context.makeSocket(.pull)
            try wake.bind(wakeEndpoint)
            let waker = try context.makeSocket(.push)
            try waker.connect(wakeEndpoint)
            let locked = Waker(socket: waker)
            shared.withLock { shared in
                shared.waker = locked
                shared.thread = pthread_self()
            }
        } catch {
            shared.withLock { shared in
                shared.waker?.socket.close(lingerMilliseconds: 0)
                shared.waker = nil
                shared.phase = .stopped
            }
            startupFailed(error)
            finish(control, wake: nil)
            return
        }

        let setupSucceeded = setup(control)
        let proceed = shared.withLock { shared -> Bool in
            guard setupSucceeded else {
                shared.phase = .stopping
                return false
            }
            guard case .starting = shared.phase else { return false }
            shared.phase = .running
            return true
        }
        started()
        if proceed {
            loop(control, wake: wake)
        }
        finish(control, wake: wake)
    }

    private func loop(_ control: Control, wake: ZMQSocket) {
        let poller = ZMQPoller()
        var polled: [SocketID] = []
        while !control.stopRequested {
            if control.socketsChanged {
                control.socketsChanged = false
                poller.removeAll()
                poller.register(wake)
                polled = control.order.filter { control.entries[$0]?.socket.isOpen == true }
                for id in polled { poller.register(control.entries[id]!.socket) }
            }

            let timeout = control.timers.nextDeadline().map { ZMQPoller.milliseconds(until: $0) } ?? -1
            do {
                try poller.poll(timeoutMilliseconds: timeout)
            } catch where error.code == .closed {
                // A handler closed a registered socket itself; forget it and poll again.
                control.dropClosedSockets()
                continue
            } catch {
                if error.code != .contextTerminated { control.report(error) }
                return
            }

            if poller.events(at: 0).contains(.readable) {
                while (try? wake.receive(dontWait: true)) != nil {}
            }
            let (work, stopping) = shared.withLock { shared -> ([Work], Bool) in
                let work = shared.queue
                shared.queue = []
                shared.wakePending = false
                if case .stopping = shared.phase { return (work, true) }
                return (work, false)
            }
            for item in work { item.run(control) }
            if stopping { return }

            func readable() -> [SocketID] { polled.indices.filter { poller.events(at: $0 + 1).contains(.readable) }.map { polled[$0] } }
            guard receive(from: readable(), control) else { return }
            // Timers after input: a loop that was starved of CPU past a peer's heartbeat expiry
            // first hears the heartbeats waiting in its sockets (those that came while work and
            // handlers ran too, after the poll: polled again without waiting), and only then
            // judges who is silent. Not when a handler changed the sockets (the poller's are
            // stale); a poll that fails is left to the next turn's.
            if let due = control.timers.nextDeadline(), due <= control.now, !control.socketsChanged,
               (try? poller.poll(timeoutMilliseconds: 0)) != nil {
                guard receive(from: readable(), control) else { return }
            }
            control.runDueTimers()
        }
    }

    /// Hands up to `receiveBatch` waiting messages of each of `sockets` to its handler, without
    /// waiting; false when the context is terminating.
    private func receive(from sockets: [SocketID], _ control: Control) -> Bool {
        for id in sockets {
            for _ in 0..<receiveBatch {
                guard !control.stopRequested, let entry = control.entries[id], entry.socket.isOpen else { break }
                do {
                    guard let (frames, kept) = try entry.socket.receive(dontWait: true, keepingFramesOver: entry.keepingFramesOver) else { break }
                    entry.handler(control, id, frames, kept)
                } catch where error.code == .contextTerminated {
                    return false
                } catch {
                    control.report(error)
                    break
                }
            }
        }
        return true
    }

    private func finish(_ control: Control, wake: ZMQSocket?) {
        // Refuse new work; whatever was submitted before the stop still runs, sockets still open.
        let remaining = shared.withLock { shared -> [Work] in
            shared.phase = .stopped
            let work = shared.queue
            shared.queue = []
            shared.waker?.socket.close(lingerMilliseconds: 0)
            shared.waker = nil
            return work
        }
        for item in remaining { item.run(control) }
        control.closeAll()
        wake?.close(lingerMilliseconds: 0)
        // No user code runs on this thread for this loop any more; forget its id (pthread ids
        // are reused by later threads).
        shared.withLock { $0.thread = nil }
    }

    // MARK: The loop thread's view

    /// The loop thread's handle on its sockets and timers. Handlers, timers and submitted work
    /// receive it; it must not leave the loop thread (it is not `Sendable`, so the compiler
    /// enforces this for `@Sendable` closures).
    package final class Control {
        /// A message handler: runs on the loop thread for every message read from the socket.
        package typealias Handler = (_ control: Control, _ socket: SocketID, _ frames: [[UInt8]]) -> Void
        /// A handler that also gets the frames kept uncopied (by index; their place in `frames`
        /// holds `[]`), for sockets registered with `keepingFramesOver`.
        package typealias KeptFramesHandler = (_ control: Control, _ socket: SocketID, _ frames: [[UInt8]],
                                               _ kept: [Int: ZMQFrame]) -> Void

        struct Entry {
            var socket: ZMQSocket
            var handler: KeptFramesHandler
            var keepingFramesOver: Int
            var closeLinger: Int
        }

        /// The loop, to hand to other threads (it is `Sendable`).
        package let loop: SocketLoop
        var entries: [SocketID: Entry] = [:]
        var order: [SocketID] = []
        var timers = TimerQueue<(Control) -> Void>()
        var socketsChanged = true
        var stopRequested = false
        private var nextSocketID: UInt64 = 0

        init(loop: SocketLoop) { self.loop = loop }

        /// The loop's context, for creating sockets on the loop thread.
        package var context: ZMQContext { loop.context }

        /// The current time, as timers see it.
        package var now: ContinuousClock.Instant { .now }

        // Sockets

        /// Gives `socket` to the loop: from now on it is polled and every incoming message goes to
        /// `handler`. The loop closes it (with `closeLingerMilliseconds`) when it is unregistered
        /// with `close` or the loop stops.
        @discardableResult
        package func register(_ socket: ZMQSocket, closeLingerMilliseconds: Int = 100,
                             handler: @escaping Handler) -> SocketID {
            register(socket, closeLingerMilliseconds: closeLingerMilliseconds, keepingFramesOver: .max) { control, id, frames, _ in
                handler(control, id, frames)
            }
        }

        /// As `register(_:closeLingerMilliseconds:handler:)`, but frames larger than `threshold`
        /// bytes reach the handler uncopied, as `ZMQFrame`s (see `ZMQSocket.receive(dontWait:
        /// keepingFramesOver:)`): copying a large upload would hold the loop.
        @discardableResult
        package func register(_ socket: ZMQSocket, closeLingerMilliseconds: Int = 100, keepingFramesOver threshold: Int,
                             handler: @escaping KeptFramesHandler) -> SocketID {
            nextSocketID += 1
            let id = SocketID(raw: nextSocketID)
            entries[id] = Entry(socket: socket, handler: handler, keepingFramesOver: threshold, closeLinger: closeLingerMilliseconds)
            order.append(id)
            socketsChanged = true
            return id
        }

        /// The registered socket, for options or a direct `send`.
        package func socket(_ id: SocketID) -> ZMQSocket? {
            entries[id]?.socket
        }

        /// Stops polling the socket and hands it back, still open (the caller owns it now).
        /// The ZAP user id (CURVE public key, Z85) of the peer whose message the loop handed to
        /// the handler running now on `id`; "" without ZAP. Only meaningful inside that handler.
        package func peerUserID(_ id: SocketID) -> String {
            entries[id]?.socket.lastUserID ?? ""
        }

        package func unregister(_ id: SocketID) -> ZMQSocket? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            order.removeAll { $0 == id }
            socketsChanged = true
            return entry.socket
        }

        /// Stops polling the socket and closes it (a reconnecting worker then registers a fresh
        /// socket).
        package func close(_ id: SocketID, lingerMilliseconds: Int? = nil) {
            let linger = lingerMilliseconds ?? entries[id]?.closeLinger ?? 0
            unregister(id)?.close(lingerMilliseconds: linger)
        }

        /// Sends without blocking. `true` when queued, `false` when it would block (high-water
        /// mark, or no connected peer yet for a DEALER). Throws `.closed` for an unknown id, and
        /// whatever `ZMQSocket.send` throws (`.hostUnreachable` with `routerMandatory`).
        @discardableResult
        package func send(_ frames: [[UInt8]], on id: SocketID) throws(TransportError) -> Bool {
            guard let socket = entries[id]?.socket else { throw TransportError.closed("send on \(id)") }
            return try socket.send(frames, dontWait: true)
        }

        // Timers

        /// Runs `body` on the loop thread at `deadline` (at once if it has passed).
        @discardableResult
        package func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping (Control) -> Void) -> TimerID {
            timers.schedule(at: deadline, body)
        }

        /// Runs `body` on the loop thread after `delay`.
        @discardableResult
        package func schedule(after delay: Duration, _ body: @escaping (Control) -> Void) -> TimerID {
            timers.schedule(at: now + delay, body)
        }

        /// Runs `body` every `interval` (at least 1 ms), first after one interval. A stalled loop
        /// skips missed ticks instead of firing them in a burst.
        @discardableResult
        package func scheduleRepeating(every interval: Duration, _ body: @escaping (Control) -> Void) -> TimerID {
            let interval = max(interval, .milliseconds(1))
            return timers.schedule(at: now + interval, every: interval, body)
        }

        /// Cancels a timer; `false` if it already ran (one-shot) or was cancelled.
        @discardableResult
        package func cancelTimer(_ id: TimerID) -> Bool {
            timers.cancel(id)
        }

        // Lifecycle

        /// Stops the loop after the current pass (queued work still runs, then sockets close).
        package func stop() {
            stopRequested = true
        }

        /// Hands an error to the loop's `errorHandler`.
        package func report(_ error: TransportError) {
            loop.errorHandler(error)
        }

        func report(_ error: any Error) {
            if let error = error as? TransportError {
                report(error)
            } else {
                report(TransportError(code: .system, message: "\(error)"))
            }
        }

        func runDueTimers() {
            let now = self.now
            let mark = timers.sequenceMark
            while !stopRequested, let (_, body) = timers.popDue(now: now, sequenceLimit: mark) {
                body(self)
            }
        }

        func dropClosedSockets() {
            for id in order where entries[id]?.socket.isOpen == false {
                _ = unregister(id)
            }
            socketsChanged = true
        }

        func closeAll() {
            for id in order {
                if let entry = entries[id] { entry.socket.close(lingerMilliseconds: entry.closeLinger) }
            }
            entries = [:]
            order = []
            timers = TimerQueue()
        }
    }
}

/// The wake-up PUSH socket. `@unchecked Sendable` because it is only touched with
/// `SocketLoop.shared` locked: the mutex serialises its users and provides the full memory barrier
/// libzmq requires when a socket is used by more than one thread.
private struct Waker: @unchecked Sendable {
    let socket: ZMQSocket
}

/// A result passed from one thread to a waiting one.
private final class Handoff<T: Sendable>: Sendable {
    let result = Locked<Result<T, any Error>?>(nil)
    let ready = DispatchSemaphore(value: 0)
}
