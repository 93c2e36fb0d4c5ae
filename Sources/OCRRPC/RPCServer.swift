import OCRWire
import OCRZeroMQ

/// The server side of the gRPC-style client link (PROTOCOL.md section 1) on a `SocketLoop`:
/// a ROUTER socket, a table of method handlers, the calls in flight with their deadlines, and
/// the rules for bad input (UNIMPLEMENTED, INVALID_ARGUMENT; never a crash).
///
/// It lives on its loop's thread: create it inside `SocketLoop.start` or `execute`. Handlers run
/// on the loop thread and must not block; they answer through the `RPCServerCall` they get,
/// at once or later from any thread.
package final class RPCServer {
    /// Runs on the loop thread for each REQUEST whose method has this handler.
    package typealias Handler = (RPCServerCall) -> Void

    /// A call in flight is named by the client's routing identity and its `call_id`.
    package struct CallKey: Hashable, Sendable, CustomStringConvertible {
        package let peer: [UInt8]
        package let callID: UInt64
        package var description: String { "call \(callID) from \(peer.prefix(8).map { String($0, radix: 16) }.joined())" }
    }

    struct ActiveCall {
        let call: RPCServerCall
        var deadlineTimer: TimerID?
    }

    let control: SocketLoop.Control
    let socketID: SocketID
    /// The endpoint actually bound (the real port when bound to `:*`).
    package let endpoint: String
    private var handlers: [String: Handler] = [:]
    private var active: [CallKey: ActiveCall] = [:]
    private let streaming: Set<String>

    /// Binds a ROUTER at `endpoint` on the loop of `control`.
    /// - Parameters:
    ///   - maxMessageBytes: messages larger than this are dropped by ZeroMQ (`ZMQ_MAXMSGSIZE`).
    ///   - streamingMethods: methods answered with STREAM_MESSAGE/STREAM_END instead of RESPONSE
    ///     (their CANCEL and deadline replies are STREAM_ENDs).
    package init(bind endpoint: String, control: SocketLoop.Control, maxMessageBytes: Int = 512 << 20,
                streamingMethods: Set<String>, configure: (ZMQSocket) throws -> Void = { _ in }) throws {
        let socket = try control.context.makeSocket(.router)
        try socket.set(.routerMandatory(true))   // a vanished client is an error we can act on, not a silent drop
        try socket.set(.maxMessageSize(maxMessageBytes))
        try socket.set(.sendHighWaterMark(100_000))
        try socket.set(.receiveHighWaterMark(100_000))
        try configure(socket)
        self.endpoint = try socket.bind(endpoint)
        self.control = control
        self.streaming = streamingMethods
        var me: RPCServer?
        self.socketID = control.register(socket) { _, _, frames in me?.receive(frames) }
        me = self
    }

    /// Installs the handler for a full method path such as "/ocr.v1.Coordinator/Health".
    package func handle(_ method: String, _ handler: @escaping Handler) {
        handlers[method] = handler
    }

    /// Number of calls in flight (for status pages and tests).
    package var activeCallCount: Int { active.count }

    /// Stops every call in flight with `status` (used at shutdown).
    package func endAll(_ error: OCRError) {
        for entry in Array(active.values) { entry.call.fail(error) }
    }

    // MARK: Incoming

    private func receive(_ frames: [[UInt8]]) {
        let routed: Routed<RpcEnvelope>
        do {
            routed = try Routed<RpcEnvelope>(frames: frames)
        } catch {
            // Without a usable identity we cannot answer; with one we say what was wrong.
            if let peer = frames.first, !peer.isEmpty {
                reply(to: peer, header: Self.errorHeader(callID: 0, OCRError(.invalidArgument, "malformed message: \(error)")))
            }
            return
        }
        let peer = routed.identity
        let header: RpcHeader
        do {
            header = try RpcHeader(serializedBytes: routed.envelope.header)
        } catch {
            reply(to: peer, header: Self.errorHeader(callID: 0, OCRError(.invalidArgument, "RpcHeader does not parse: \(error)")))
            return
        }
        let key = CallKey(peer: peer, callID: header.callId)
        switch header.kind {
        case .request:
            start(key, header, payload: routed.envelope.payload)
        case .cancel:
            if let entry = active[key] {
                entry.call.fail(OCRError(.cancelled, "cancelled by the client"))
            }
        default:
            reply(to: peer, header: Self.errorHeader(callID: header.callId,
                  OCRError(.invalidArgument, "a client may send REQUEST or CANCEL, not kind \(header.kind.rawValue)")))
        }
    }

    private func start(_ key: CallKey, _ header: RpcHeader, payload: [UInt8]) {
        let isStreaming = streaming.contains(header.method)
        guard let handler = handlers[header.method] else {
            reply(to: key.peer, header: Self.errorHeader(callID: key.callID, OCRError(.unimplemented, "unknown method \(header.method)")))
            return
        }
        if active[key] != nil {
            reply(to: key.peer, header: Self.errorHeader(callID: key.callID, OCRError(.alreadyExists, "call_id \(key.callID) is already in flight")))
            return
        }
        let deadline = header.timeoutMs > 0 ? control.now + .milliseconds(header.timeoutMs) : nil
        let call = RPCServerCall(server: self, loop: control.loop, key: key, method: header.method,
                                 metadata: header.metadata, payload: payload, deadline: deadline, isStreaming: isStreaming)
        var entry = ActiveCall(call: call)
        if let deadline {
            entry.deadlineTimer = control.schedule(at: deadline) { _ in
                call.fail(OCRError(.deadlineExceeded, "deadline of \(header.timeoutMs) ms exceeded"))
            }
        }
        active[key] = entry
        handler(call)
    }

    // MARK: Outgoing (loop thread only; RPCServerCall hops here)

    /// Sends one frame pair to a call's peer. Returns false when the peer is gone or its queue
    /// is full; the call is then ended (a vanished watcher must not keep resources).
    func send(_ call: RPCServerCall, header: RpcHeader, payload: [UInt8], final: Bool) {
        guard let entry = active[call.key] else { return }
        if final {
            active[call.key] = nil
            if let timer = entry.deadlineTimer { control.cancelTimer(timer) }
        }
        let delivered = reply(to: call.key.peer, header: header, payload: payload)
        if final {
            call.finished(notifyCancel: header.status?.code ?? .ok != .ok)
        } else if !delivered {
            active[call.key] = nil
            if let timer = entry.deadlineTimer { control.cancelTimer(timer) }
            call.finished(notifyCancel: true)
        }
    }

    @discardableResult
    private func reply(to peer: [UInt8], header: RpcHeader, payload: [UInt8] = []) -> Bool {
        do {
            return try control.send([peer, header.serializedBytes(), payload], on: socketID)
        } catch {
            return false  // hostUnreachable: the client went away
        }
    }

    static func errorHeader(callID: UInt64, _ error: OCRError, kind: RpcHeader.Kind = .response) -> RpcHeader {
        RpcHeader.with {
            $0.callId = callID
            $0.kind = kind
            $0.status = error.status
        }
    }
}
