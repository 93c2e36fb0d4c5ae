import OCRBasics
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
        /// Messages the client's queue had no room for (its high-water mark), in order, and their bytes.
        var backlog = Deque<[[UInt8]]>()
        var backlogBytes = 0
        /// The call's last message (RESPONSE or STREAM_END) is in `backlog`: it ends when that is
        /// sent (telling the handler of a cancel when it carried an error); nothing more is taken.
        var endsWithCancel: Bool?
    }

    let control: SocketLoop.Control
    let socketID: SocketID
    /// The endpoint actually bound (the real port when bound to `:*`).
    package let endpoint: String
    private var handlers: [String: Handler] = [:]
    private var active: [CallKey: ActiveCall] = [:]
    private let streaming: Set<String>
    private let maxBacklogBytes: Int
    private let principalMetadataKey: String?
    private var flushTimer: TimerID?

    /// Binds a ROUTER at `endpoint` on the loop of `control`.
    /// - Parameters:
    ///   - maxMessageBytes: messages larger than this are dropped by ZeroMQ (`ZMQ_MAXMSGSIZE`).
    ///   - streamingMethods: methods answered with STREAM_MESSAGE/STREAM_END instead of RESPONSE
    ///     (their CANCEL and deadline replies are STREAM_ENDs).
    ///   - sendHighWaterMark: messages ZeroMQ queues towards one client before sends would block.
    ///   - maxBacklogBytes: bytes a call may have waiting beyond that (a client that does not
    ///     read); beyond, the call ends with RESOURCE_EXHAUSTED and its messages are dropped.
    ///   - principalMetadataKey: for an `inproc://` endpoint only (reachable from this process
    ///     alone): each call's principal is its metadata value under this key, as the in-process
    ///     caller (the HTTP gateway) authenticated it, instead of the connection's CURVE key.
    package init(bind endpoint: String, control: SocketLoop.Control, maxMessageBytes: Int = 512 << 20,
                streamingMethods: Set<String>, sendHighWaterMark: Int = 1_000, maxBacklogBytes: Int = 16 << 20,
                principalMetadataKey: String? = nil, configure: (ZMQSocket) throws -> Void = { _ in }) throws {
        precondition(principalMetadataKey == nil || endpoint.hasPrefix("inproc://"),
                     "a principal from metadata is only trusted on an in-process endpoint")
        let socket = try control.context.makeSocket(.router)
        try socket.set(.routerMandatory(true))   // a vanished client is an error we can act on, not a silent drop
        try socket.set(.maxMessageSize(maxMessageBytes))
        try socket.set(.sendHighWaterMark(sendHighWaterMark))
        try socket.set(.receiveHighWaterMark(100_000))
        try configure(socket)
        self.endpoint = try socket.bind(endpoint)
        self.control = control
        self.streaming = streamingMethods
        self.maxBacklogBytes = maxBacklogBytes
        self.principalMetadataKey = principalMetadataKey
        var me: RPCServer?
        self.socketID = control.register(socket, keepingFramesOver: Self.largeRequestBytes) { _, _, frames, kept in
            me?.receive(frames, kept: kept)
        }
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

    /// Request payloads larger than this stay in libzmq's frame until a handler reads them
    /// (`RequestPayload.kept`), so a large upload is copied off the loop thread.
    package static let largeRequestBytes = 1 << 20

    private func receive(_ frames: [[UInt8]], kept: [Int: ZMQFrame]) {
        let routed: Routed<RpcEnvelope>
        do {
            routed = try Routed<RpcEnvelope>(frames: frames)
            // [identity][header][payload]: only the payload may be large.
            if let index = kept.keys.first(where: { $0 != 2 }) {
                throw OCRError(.invalidArgument, "frame \(index) is \(kept[index]!.count) bytes; only the payload may exceed \(Self.largeRequestBytes)")
            }
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
            start(key, header, payload: kept[2].map(RequestPayload.kept) ?? .inline(routed.envelope.payload))
        case .cancel:
            if let entry = active[key] {
                entry.call.fail(OCRError(.cancelled, "cancelled by the client"))
            }
        default:
            reply(to: peer, header: Self.errorHeader(callID: header.callId,
                  OCRError(.invalidArgument, "a client may send REQUEST or CANCEL, not kind \(header.kind.rawValue)")))
        }
    }

    private func start(_ key: CallKey, _ header: RpcHeader, payload: RequestPayload) {
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
                                 metadata: header.metadata,
                                 principal: principalMetadataKey.map { header.metadata[$0] ?? "" } ?? control.peerUserID(socketID),
                                 payload: payload, deadline: deadline, isStreaming: isStreaming)
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

    /// Sends one message of a call, after any of its messages still waiting. A client whose
    /// queue is full gets the rest later (a retry timer); one that stays full past
    /// `maxBacklogBytes` is cut off with RESOURCE_EXHAUSTED and its messages dropped; one that is
    /// gone ends the call (a vanished watcher must not keep resources).
    func send(_ call: RPCServerCall, header: RpcHeader, payload: [UInt8], final: Bool) {
        guard var entry = active[call.key], entry.endsWithCancel == nil else { return }
        let notify = header.status?.code ?? .ok != .ok
        let frames = [call.key.peer, header.serializedBytes(), payload]
        if entry.backlog.isEmpty {
            switch deliver(frames) {
            case .sent:
                if final { end(call, entry, notifyCancel: notify) }
                return
            case .gone:
                end(call, entry, notifyCancel: true)
                return
            case .full:
                break
            }
        }
        entry.backlog.append(frames)
        entry.backlogBytes += frames[1].count + payload.count
        if entry.backlogBytes > maxBacklogBytes {
            entry.backlog = Deque()
            end(call, entry, notifyCancel: true)
            _ = deliver([call.key.peer, Self.errorHeader(callID: call.key.callID, OCRError(.resourceExhausted,
                "\(call.method): the client read too slowly; more than \(maxBacklogBytes) bytes were waiting for it",
                details: ["max_backlog_bytes": "\(maxBacklogBytes)"]), kind: call.isStreaming ? .streamEnd : .response).serializedBytes(), []])
            return
        }
        if final { entry.endsWithCancel = notify }
        active[call.key] = entry
        if flushTimer == nil {
            flushTimer = control.schedule(after: .milliseconds(10)) { [weak self] _ in self?.flushBacklogs() }
        }
    }

    /// Bytes of `call`'s messages waiting for room in its client's queue (0: all sent).
    package func backlogBytes(of call: RPCServerCall) -> Int { active[call.key]?.backlogBytes ?? 0 }

    private func flushBacklogs() {
        flushTimer = nil
        var waiting = false
        for (key, var entry) in active where !entry.backlog.isEmpty {
            var gone = false
            while let frames = entry.backlog.first {
                let outcome = deliver(frames)
                if outcome == .full { break }
                _ = entry.backlog.popFirst()
                entry.backlogBytes -= frames[1].count + frames[2].count
                if outcome == .gone { gone = true; break }
            }
            if gone {
                end(entry.call, entry, notifyCancel: true)
            } else if entry.backlog.isEmpty, let notify = entry.endsWithCancel {
                end(entry.call, entry, notifyCancel: notify)
            } else {
                active[key] = entry
                waiting = waiting || !entry.backlog.isEmpty
            }
        }
        if waiting {
            flushTimer = control.schedule(after: .milliseconds(10)) { [weak self] _ in self?.flushBacklogs() }
        }
    }

    private func end(_ call: RPCServerCall, _ entry: ActiveCall, notifyCancel: Bool) {
        active[call.key] = nil
        if let timer = entry.deadlineTimer { control.cancelTimer(timer) }
        call.finished(notifyCancel: notifyCancel)
    }

    private enum Delivery { case sent, full, gone }

    private func deliver(_ frames: [[UInt8]]) -> Delivery {
        do {
            return try control.send(frames, on: socketID) ? .sent : .full
        } catch {
            return .gone  // hostUnreachable: the client went away
        }
    }

    @discardableResult
    private func reply(to peer: [UInt8], header: RpcHeader, payload: [UInt8] = []) -> Bool {
        deliver([peer, header.serializedBytes(), payload]) == .sent
    }

    static func errorHeader(callID: UInt64, _ error: OCRError, kind: RpcHeader.Kind = .response) -> RpcHeader {
        RpcHeader.with {
            $0.callId = callID
            $0.kind = kind
            $0.status = error.status
        }
    }
}
