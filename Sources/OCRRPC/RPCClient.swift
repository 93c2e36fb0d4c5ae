import OCRBasics
import OCRWire
import OCRZeroMQ

/// The client side of the gRPC-style link (PROTOCOL.md section 1): one DEALER socket on its own
/// `SocketLoop`, calls multiplexed by `call_id`, unary calls as `async` functions and
/// server-streaming calls as `AsyncThrowingStream`s.
///
/// A DEALER "connects" even when nobody listens, so an unreachable coordinator shows up as
/// silence: unary calls fail with UNAVAILABLE after `timeout`, streams after `idleTimeout`
/// without any message. When an established connection drops (the coordinator stopped or
/// crashed; libzmq's socket monitor says so at once) every call in flight fails with
/// UNAVAILABLE right away: the server that held them is gone, and callers can re-attach
/// (`WatchJob` from a page) or retry (with a job key) as soon as the link is back.
package final class RPCClient: Sendable {
    package let endpoint: String
    private let loop: SocketLoop
    private let ownsContext: Bool
    private let socketID: SocketID
    private let state: Locked<State>

    private struct State {
        var nextCallID: UInt64 = 0
        var closed = false
    }

    /// Pending calls, bound to the loop thread (`LoopBound`: closures carry them there).
    private final class Pending {
        enum Waiter {
            case unary(CheckedContinuation<[UInt8], any Error>)
            case stream(AsyncThrowingStream<[UInt8], any Error>.Continuation, idle: Duration?)
        }
        struct Call {
            var waiter: Waiter
            var timer: TimerID?
            var method: String
        }
        let endpoint: String
        var calls: [UInt64: Call] = [:]
        /// The ZAP status of the last refused handshake, until one succeeds: a refused socket has
        /// no connection to queue on, so a call made meanwhile is told why.
        var refusal: UInt32?
        init(endpoint: String) { self.endpoint = endpoint }
    }
    private let pending: LoopBound<Pending>

    /// Connects to `endpoint` (e.g. "tcp://127.0.0.1:5555"). With `context`, the client uses it
    /// and leaves it to its owner; without, it makes its own and terminates it on `close()`.
    ///
    /// Several endpoints separated by commas are coordinators that share a journal, of which
    /// one leads and the others do not bind: the socket connects to all of them, sends only on
    /// connections whose handshake completed (`ZMQ_IMMEDIATE`: the leader's; a call waits for one
    /// meanwhile), and drops a connection whose peer stops answering ZeroMQ heartbeats (a
    /// stopped leader whose kernel still holds the TCP connection), so calls go to whichever
    /// coordinator leads now.
    package init(endpoint: String, context: ZMQContext? = nil, configure: @escaping @Sendable (ZMQSocket) throws -> Void = { _ in }) throws {
        self.ownsContext = context == nil
        let context = try context ?? ZMQContext()
        self.endpoint = endpoint
        self.loop = SocketLoop(context: context, name: "ocr.rpc-client")
        self.state = Locked(State())
        let pending = LoopBound(Pending(endpoint: endpoint), loop: loop)
        self.pending = pending
        self.socketID = try loop.start { control in
            let socket = try control.context.makeSocket(.dealer)
            try socket.set(.linger(0))
            try socket.set(.sendHighWaterMark(100_000))
            try socket.set(.receiveHighWaterMark(100_000))
            try configure(socket)
            let endpoints = endpoint.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if endpoints.count > 1 {
                try socket.set(.immediate(true))
                try socket.set(.heartbeatInterval(1_000))
                try socket.set(.heartbeatTimeout(3_000))
            }
            // The monitor's PAIR is bound by zmq_socket_monitor, so connect ours after it; both
            // before the socket connects, since libzmq drops events no peer takes (a refusal
            // that came before the monitor was there was lost, and the call waited for its
            // deadline: seen once on a loaded CI machine).
            let monitorEndpoint = "inproc://ocr.rpc-client.monitor.\(UInt64.random(in: 1...UInt64.max))"
            try socket.monitor(monitorEndpoint, events: [.disconnected, .handshakeFailedAuth, .handshakeSucceeded])
            let monitor = try control.context.makeSocket(.pair)
            try monitor.set(.linger(0))
            _ = try monitor.connect(monitorEndpoint)
            _ = control.register(monitor, closeLingerMilliseconds: 0) { control, _, frames in
                guard let event = SocketEvent(frames: frames) else { return }
                if event.event == .handshakeFailedAuth {
                    RPCClient.connectionRefused(pending, control, zapStatus: event.value)
                } else if event.event == .handshakeSucceeded {
                    pending.value.refusal = nil
                } else if event.event == .disconnected {
                    RPCClient.connectionLost(pending, control)
                }
            }
            for endpoint in endpoints.isEmpty ? [endpoint] : endpoints { _ = try socket.connect(endpoint) }
            return control.register(socket, closeLingerMilliseconds: 0) { control, _, frames in
                RPCClient.receive(frames, pending: pending, control: control)
            }
        }
    }

    deinit {
        close()
    }

    /// Fails every call in flight with CANCELLED and closes the socket. Idempotent.
    package func close() {
        let wasOpen = state.withLock { s in
            defer { s.closed = true }
            return !s.closed
        }
        guard wasOpen else { return }
        loop.execute { [pending] _ in
            for (_, entry) in pending.value.calls {
                Self.finish(entry.waiter, with: .failure(OCRError(.cancelled, "client closed")))
            }
            pending.value.calls = [:]
        }
        loop.stop()
        if ownsContext { loop.context.terminate() }
    }

    // MARK: Calls

    /// A unary call. Throws `OCRError` with the server's status, or UNAVAILABLE when nothing
    /// came back within `timeout` (the deadline is also sent to the server).
    package func unary(_ method: String, request: [UInt8], timeout: Duration = .seconds(30),
                      metadata: [String: String] = [:]) async throws -> [UInt8] {
        let callID = try nextCallID()
        let header = Self.requestHeader(callID, method, timeout: timeout, metadata: metadata)
        return try await withCheckedThrowingContinuation { continuation in
            let queued = loop.execute { [socketID, pending] control in
                let timer = control.schedule(after: timeout + .milliseconds(250)) { _ in
                    // The server enforces the deadline itself; silence past it means it is not there.
                    guard let entry = pending.value.calls.removeValue(forKey: callID) else { return }
                    Self.finish(entry.waiter, with: .failure(OCRError(.unavailable,
                        "no answer from the coordinator at \(pending.value.endpoint) within \(timeout) (\(method))")))
                }
                pending.value.calls[callID] = Pending.Call(waiter: .unary(continuation), timer: timer, method: method)
                Self.send([header.serializedBytes(), request], socketID, control, callID, pending)
            }
            if !queued { continuation.resume(throwing: OCRError(.cancelled, "client closed")) }
        }
    }

    /// A server-streaming call. The stream ends normally on STREAM_END with OK, throws
    /// `OCRError` on an error status, and throws UNAVAILABLE after `idleTimeout` without any
    /// message. Stopping iteration sends CANCEL.
    package func serverStream(_ method: String, request: [UInt8], idleTimeout: Duration? = .seconds(60),
                             metadata: [String: String] = [:]) -> AsyncThrowingStream<[UInt8], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream(bufferingPolicy: .unbounded)
        let callID: UInt64
        do { callID = try nextCallID() } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let header = Self.requestHeader(callID, method, timeout: nil, metadata: metadata)
        let socketID = self.socketID
        let queued = loop.execute { [pending] control in
            pending.value.calls[callID] = Pending.Call(waiter: .stream(continuation, idle: idleTimeout), timer: nil, method: method)
            Self.armIdleTimer(callID, pending, control)
            Self.send([header.serializedBytes(), request], socketID, control, callID, pending)
        }
        if !queued { continuation.finish(throwing: OCRError(.cancelled, "client closed")) }
        continuation.onTermination = { [loop, pending] termination in
            guard case .cancelled = termination else { return }
            loop.execute { control in
                guard let entry = pending.value.calls.removeValue(forKey: callID) else { return }
                if let timer = entry.timer { control.cancelTimer(timer) }
                let cancel = RpcHeader.with { $0.callId = callID; $0.kind = .cancel }
                _ = try? control.send([cancel.serializedBytes(), []], on: socketID)
            }
        }
        return stream
    }

    /// Calls in flight (for tests); waits for the loop thread.
    func debugPendingCalls() -> Int {
        (try? loop.performAndWait { [pending] _ in pending.value.calls.count }) ?? 0
    }

    // MARK: Loop-thread helpers

    private func nextCallID() throws -> UInt64 {
        try state.withLock { s in
            guard !s.closed else { throw OCRError(.cancelled, "client closed") }
            s.nextCallID += 1
            return s.nextCallID
        }
    }

    private static func requestHeader(_ callID: UInt64, _ method: String, timeout: Duration?, metadata: [String: String]) -> RpcHeader {
        RpcHeader.with {
            $0.callId = callID
            $0.method = method
            $0.kind = .request
            if let timeout {
                let (s, atto) = timeout.components
                $0.timeoutMs = s * 1000 + atto / 1_000_000_000_000_000
            }
            $0.metadata = metadata
        }
    }

    /// Sends a call's request. A socket that cannot queue it (its connection was just refused or
    /// dropped and libzmq is reconnecting, or its send queue is full) is tried again every 50 ms
    /// while the call waits: the monitor's refusal, the call's deadline or room on a connection
    /// settles it, whichever comes first.
    private static func send(_ frames: [[UInt8]], _ socketID: SocketID, _ control: SocketLoop.Control,
                             _ callID: UInt64, _ pending: LoopBound<Pending>) {
        guard let entry = pending.value.calls[callID] else { return }  // settled meanwhile
        // A refusal since the last handshake that succeeded stands: libzmq will be refused again.
        if ((try? control.send(frames, on: socketID)) ?? false), pending.value.refusal == nil { return }
        if let refusal = pending.value.refusal {
            pending.value.calls[callID] = nil
            if let timer = entry.timer { control.cancelTimer(timer) }
            finish(entry.waiter, with: .failure(refusalError(refusal, pending.value.endpoint, entry.method)))
            return
        }
        _ = control.schedule(after: .milliseconds(50)) { control in send(frames, socketID, control, callID, pending) }
    }

    private static func armIdleTimer(_ callID: UInt64, _ pending: LoopBound<Pending>, _ control: SocketLoop.Control) {
        guard let entry = pending.value.calls[callID], case .stream(_, let idle?) = entry.waiter else { return }
        if let old = entry.timer { control.cancelTimer(old) }
        let timer = control.schedule(after: idle) { control in
            guard let entry = pending.value.calls.removeValue(forKey: callID) else { return }
            finish(entry.waiter, with: .failure(OCRError(.unavailable,
                "no message from the coordinator at \(pending.value.endpoint) for \(idle) (\(entry.method))")))
        }
        pending.value.calls[callID]?.timer = timer
    }

    /// The connection to the server dropped: every call in flight fails with UNAVAILABLE.
    private static func connectionLost(_ pending: LoopBound<Pending>, _ control: SocketLoop.Control) {
        failAll(pending, control) { method in
            OCRError(.unavailable, "the connection to the coordinator at \(pending.value.endpoint) was lost (\(method))")
        }
    }

    /// The server's authenticator turned the handshake down: say why at once rather than let the
    /// calls wait for their deadline (libzmq keeps reconnecting; each refusal fails the calls
    /// made meanwhile).
    private static func connectionRefused(_ pending: LoopBound<Pending>, _ control: SocketLoop.Control, zapStatus: UInt32) {
        pending.value.refusal = zapStatus
        failAll(pending, control) { method in refusalError(zapStatus, pending.value.endpoint, method) }
    }

    private static func refusalError(_ zapStatus: UInt32, _ endpoint: String, _ method: String) -> OCRError {
        zapStatus == 400
            ? OCRError(.unauthenticated, "the coordinator at \(endpoint) refused this client's CURVE key "
                       + "(it is not on the coordinator's --allow-client-keys list) (\(method))")
            : OCRError(.unavailable, "the coordinator at \(endpoint) refused the connection "
                       + "(ZAP status \(zapStatus): it is at its connection limit) (\(method))")
    }

    private static func failAll(_ pending: LoopBound<Pending>, _ control: SocketLoop.Control, _ error: (String) -> OCRError) {
        let calls = pending.value.calls
        pending.value.calls = [:]
        for (_, entry) in calls.sorted(by: { $0.key < $1.key }) {
            if let timer = entry.timer { control.cancelTimer(timer) }
            finish(entry.waiter, with: .failure(error(entry.method)))
        }
    }

    private static func receive(_ frames: [[UInt8]], pending: LoopBound<Pending>, control: SocketLoop.Control) {
        // A malformed reply cannot be matched to a call; drop it rather than guess.
        guard let envelope = try? RpcEnvelope(frames: frames[...]),
              let header = try? RpcHeader(serializedBytes: envelope.header),
              let entry = pending.value.calls[header.callId] else { return }
        let status = header.status ?? Status()
        switch (header.kind, entry.waiter) {
        case (.response, .unary), (.streamEnd, .stream), (.response, .stream):
            pending.value.calls[header.callId] = nil
            if let timer = entry.timer { control.cancelTimer(timer) }
            if status.code == .ok {
                finish(entry.waiter, with: .success(envelope.payload))
            } else {
                finish(entry.waiter, with: .failure(OCRError(status)))
            }
        case (.streamMessage, .stream(let continuation, _)):
            continuation.yield(envelope.payload)
            armIdleTimer(header.callId, pending, control)
        default:
            break
        }
    }

    private static func finish(_ waiter: Pending.Waiter, with result: Result<[UInt8], any Error>) {
        switch (waiter, result) {
        case (.unary(let c), _):
            c.resume(with: result)
        case (.stream(let c, _), .success):
            c.finish()
        case (.stream(let c, _), .failure(let error)):
            c.finish(throwing: error)
        }
    }
}
