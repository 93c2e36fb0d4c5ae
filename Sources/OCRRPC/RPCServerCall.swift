import OCRWire
import OCRZeroMQ

/// A request's bytes as they came off the socket: copied when small, still in libzmq's frame
/// when larger than `RPCServer.largeRequestBytes`, so that the copy of a large upload is made by
/// whoever reads it (the coordinator's split pool for SubmitJob), not on the loop thread.
package enum RequestPayload: Sendable {
    case inline([UInt8])
    case kept(ZMQFrame)

    /// Size in bytes.
    package var count: Int {
        switch self {
        case .inline(let bytes): bytes.count
        case .kept(let frame): frame.count
        }
    }

    /// The bytes (a copy, for a kept frame: read it off the loop thread when large).
    package func bytes() -> [UInt8] {
        switch self {
        case .inline(let bytes): bytes
        case .kept(let frame): frame.bytes()
        }
    }

    /// Decodes the payload as `M`, a kept frame in place (no copy of the whole request first).
    package func decode<M: ProtoMessage>(as type: M.Type) throws(WireDecodingError) -> M {
        switch self {
        case .inline(let bytes):
            return try M(serializedBytes: bytes)
        case .kept(let frame):
            let outcome = frame.withUnsafeBytes { buffer -> Result<M, WireDecodingError> in
                do throws(WireDecodingError) { return .success(try M(serializedBuffer: buffer)) } catch { return .failure(error) }
            }
            return try outcome.get()
        }
    }
}

/// One call in flight on an `RPCServer`: its request and the means to answer it.
///
/// Any thread may answer: the methods hop to the server's loop thread when called elsewhere. Its
/// mutable state is bound to that thread (`LoopBound`, checked); the type stays `@unchecked
/// Sendable` for its `server`, which it too uses only there. After the final answer (a RESPONSE,
/// a STREAM_END, or an error) further answers are ignored.
package final class RPCServerCall: @unchecked Sendable {
    package let key: RPCServer.CallKey
    package let method: String
    package let metadata: [String: String]
    /// Who is calling: the client's CURVE public key in Z85 as the ZAP handler authorised it, or
    /// "" on a socket without CURVE (every local client is the same anonymous principal).
    package let principal: String
    /// The request message's bytes; decode with `request(as:)`.
    package let payload: RequestPayload
    /// Absolute deadline from the header's `timeout_ms`, if any.
    package let deadline: ContinuousClock.Instant?
    package let isStreaming: Bool

    private unowned let server: RPCServer
    private let loop: SocketLoop
    /// Whether the call has ended, and what runs when it does.
    private struct State {
        var ended = false
        var cancelHandler: (() -> Void)?
        var endHandlers: [() -> Void] = []
    }
    private let state: LoopBound<State>

    init(server: RPCServer, loop: SocketLoop, key: RPCServer.CallKey, method: String, metadata: [String: String],
         principal: String, payload: RequestPayload, deadline: ContinuousClock.Instant?, isStreaming: Bool) {
        self.principal = principal
        self.server = server
        self.loop = loop
        self.state = LoopBound(State(), loop: loop)
        self.key = key
        self.method = method
        self.metadata = metadata
        self.payload = payload
        self.deadline = deadline
        self.isStreaming = isStreaming
    }

    /// Decodes the request; a payload that does not parse ends the call with INVALID_ARGUMENT
    /// and returns nil. It decodes on the calling thread (handlers run on the loop), so a large
    /// payload (`.kept`) is refused here with INVALID_ARGUMENT: a method that takes large requests
    /// reads `payload.bytes()` on another thread.
    package func request<M: ProtoMessage>(as type: M.Type) -> M? {
        if case .kept(let frame) = payload {
            fail(OCRError(.invalidArgument, "\(method): a request of \(frame.count) bytes is too large for this method "
                          + "(at most \(RPCServer.largeRequestBytes))"))
            return nil
        }
        do {
            return try M(serializedBytes: payload.bytes())
        } catch {
            fail(OCRError(.invalidArgument, "\(method): request does not parse as \(M.self): \(error)"))
            return nil
        }
    }

    /// Called once, on the loop thread, if the call ends without the handler's final answer:
    /// the client cancelled, the deadline passed, or the client vanished. Set it on the loop
    /// thread (in the handler).
    package func onCancel(_ body: @escaping () -> Void) {
        state.value.cancelHandler = body
    }

    /// Runs `body` on the loop thread once the call has ended, however it ended (after any
    /// `onCancel` handler). Loop thread only.
    package func onEnd(_ body: @escaping () -> Void) {
        state.value.endHandlers.append(body)
    }

    /// Bytes of this call's messages waiting for room in the client's queue (loop thread only):
    /// a stream that sends a long replay paces itself by it.
    package var waitingBytes: Int { server.backlogBytes(of: self) }

    /// Whether the call is still waiting for answers (loop thread only).
    package var isActive: Bool { !state.value.ended }

    /// The unary answer.
    package func respond(_ message: some ProtoMessage) {
        let bytes = message.serializedBytes()
        onLoop { [self] in
            server.send(self, header: header(.response, status: Status()), payload: bytes, final: true)
        }
    }

    /// One stream message (server-streaming calls).
    package func send(_ message: some ProtoMessage) {
        let bytes = message.serializedBytes()
        onLoop { [self] in
            server.send(self, header: header(.streamMessage, status: nil), payload: bytes, final: false)
        }
    }

    /// Ends a stream with OK.
    package func finish() {
        onLoop { [self] in
            server.send(self, header: header(.streamEnd, status: Status()), payload: [], final: true)
        }
    }

    /// How long a client should wait before trying again after RESOURCE_EXHAUSTED or
    /// UNAVAILABLE, when the handler gave no hint of its own: `details["retry_after_ms"]`, as
    /// gRPC's RetryInfo and the HTTP API's Retry-After say it.
    package static let defaultRetryAfterMs = 5_000

    /// Ends the call with an error status: a RESPONSE for unary calls, a STREAM_END for streams.
    /// RESOURCE_EXHAUSTED and UNAVAILABLE carry `retry_after_ms` (``defaultRetryAfterMs`` unless
    /// the error has its own).
    package func fail(_ error: OCRError) {
        var error = error
        if error.code == .resourceExhausted || error.code == .unavailable, error.details["retry_after_ms"] == nil {
            error.details["retry_after_ms"] = "\(Self.defaultRetryAfterMs)"
        }
        let status = error.status
        onLoop { [self] in
            server.send(self, header: header(isStreaming ? .streamEnd : .response, status: status), payload: [], final: true)
        }
    }

    func finished(notifyCancel: Bool) {
        guard !state.value.ended else { return }
        state.value.ended = true
        let handler = state.value.cancelHandler
        state.value.cancelHandler = nil
        if notifyCancel { handler?() }
        let ends = state.value.endHandlers
        state.value.endHandlers = []
        for end in ends { end() }
    }

    private func header(_ kind: RpcHeader.Kind, status: Status?) -> RpcHeader {
        RpcHeader.with {
            $0.callId = key.callID
            $0.kind = kind
            $0.status = status
        }
    }

    private func onLoop(_ body: @escaping @Sendable () -> Void) {
        if loop.isOnLoopThread {
            body()
        } else {
            loop.execute { _ in body() }
        }
    }
}
