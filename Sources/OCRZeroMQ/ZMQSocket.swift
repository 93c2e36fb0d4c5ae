import CZeroMQ

/// One ZeroMQ socket, owned by one thread.
///
/// ZeroMQ sockets are not thread-safe, so `ZMQSocket` is deliberately not `Sendable`: create it
/// on the thread that uses it (inside `SocketLoop.start`/`perform` for loop-owned sockets) and
/// never share it. Close it explicitly with `close(lingerMilliseconds:)`; `deinit` closes a
/// forgotten socket with linger 0 so it cannot block `ZMQContext.terminate()`.
///
/// Messages are multipart: `[[UInt8]]`, one array per frame, empty frames allowed.
package final class ZMQSocket {
    /// The ZeroMQ socket types (values as in zmq.h).
    package enum SocketType: Int32, Sendable, CustomStringConvertible {
        case pair = 0, pub = 1, sub = 2, req = 3, rep = 4, dealer = 5, router = 6
        case pull = 7, push = 8, xpub = 9, xsub = 10, stream = 11

        package var description: String {
            switch self {
            case .pair: "PAIR"
            case .pub: "PUB"
            case .sub: "SUB"
            case .req: "REQ"
            case .rep: "REP"
            case .dealer: "DEALER"
            case .router: "ROUTER"
            case .pull: "PULL"
            case .push: "PUSH"
            case .xpub: "XPUB"
            case .xsub: "XSUB"
            case .stream: "STREAM"
            }
        }
    }

    /// The context this socket belongs to (kept alive by the socket).
    package let context: ZMQContext
    /// The socket type.
    package let type: SocketType
    /// `nil` once closed.
    private(set) var handle: UnsafeMutableRawPointer?
    /// Reused for every received frame; allocated once, freed on close.
    private var message: UnsafeMutablePointer<zmq_msg_t>?
    /// The ZAP user id of the connection the last received message came from (the CURVE key in
    /// Z85 that `ZAPHandler` authorised), or "" without ZAP. Set by `receive`, read on the same
    /// thread right after it.
    package private(set) var lastUserID = ""

    init(context: ZMQContext, handle: UnsafeMutableRawPointer, type: SocketType) {
        self.context = context
        self.handle = handle
        self.type = type
        self.message = .allocate(capacity: 1)
    }

    deinit {
        // Forgotten socket: close it without lingering so context termination cannot hang.
        close(lingerMilliseconds: 0)
    }

    /// `true` until `close` is called.
    package var isOpen: Bool { handle != nil }

    func openHandle(_ operation: String) throws(TransportError) -> UnsafeMutableRawPointer {
        guard let handle else { throw TransportError.closed(operation) }
        return handle
    }

    // MARK: Endpoints

    /// Binds to `endpoint` and returns the endpoint actually bound (`ZMQ_LAST_ENDPOINT`), so
    /// `tcp://127.0.0.1:*` comes back as `tcp://127.0.0.1:PORT`.
    @discardableResult
    package func bind(_ endpoint: String) throws(TransportError) -> String {
        let socket = try openHandle("zmq_bind")
        // zmq_bind: 0, or -1 with EINVAL (malformed endpoint), EPROTONOSUPPORT / ENOCOMPATPROTO
        // (transport unknown or not allowed for this socket type), EADDRINUSE, EADDRNOTAVAIL,
        // ENODEV (unknown interface), ETERM, ENOTSOCK, EMTHREAD (no I/O thread).
        try zmqCheck("zmq_bind(\(endpoint))") { zmq_bind(socket, endpoint) }
        return try lastEndpoint()
    }

    /// Connects to `endpoint` (asynchronously: the peer need not exist yet) and returns the
    /// endpoint as libzmq recorded it (`ZMQ_LAST_ENDPOINT`).
    @discardableResult
    package func connect(_ endpoint: String) throws(TransportError) -> String {
        let socket = try openHandle("zmq_connect")
        // zmq_connect: 0, or -1 with EINVAL (malformed endpoint), EPROTONOSUPPORT,
        // ENOCOMPATPROTO, ETERM, ENOTSOCK, EMTHREAD.
        try zmqCheck("zmq_connect(\(endpoint))") { zmq_connect(socket, endpoint) }
        return try lastEndpoint()
    }

    /// Stops listening on `endpoint` (as returned by `bind`).
    package func unbind(_ endpoint: String) throws(TransportError) {
        let socket = try openHandle("zmq_unbind")
        // zmq_unbind: 0, or -1 with EINVAL (malformed), ETERM, ENOTSOCK, ENOENT (not bound).
        try zmqCheck("zmq_unbind(\(endpoint))") { zmq_unbind(socket, endpoint) }
    }

    /// Drops the connection to `endpoint` (as passed to `connect`).
    package func disconnect(_ endpoint: String) throws(TransportError) {
        let socket = try openHandle("zmq_disconnect")
        // zmq_disconnect: 0, or -1 with EINVAL (malformed), ETERM, ENOTSOCK, ENOENT (not connected).
        try zmqCheck("zmq_disconnect(\(endpoint))") { zmq_disconnect(socket, endpoint) }
    }

    /// The endpoint of the last `bind` or `connect` (`ZMQ_LAST_ENDPOINT`), "" if none.
    package func lastEndpoint() throws(TransportError) -> String {
        let bytes = try bytesOption(ZMQ_LAST_ENDPOINT, name: "ZMQ_LAST_ENDPOINT", capacity: 1024)
        // The option is a NUL-terminated string; drop the terminator (and anything after it).
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    // MARK: Sending and receiving

    /// Sends one multipart message (`frames` must not be empty).
    ///
    /// - Parameter dontWait: do not block when the message cannot be queued (high-water mark
    ///   reached, or no peer yet for DEALER/PUSH).
    /// - Returns: `true` when the message was queued, `false` when it could not be queued now
    ///   (`EAGAIN`: only with `dontWait` or a `sendTimeout`). Nothing was sent in that case.
    /// - Throws: `.hostUnreachable` for a ROUTER with `routerMandatory` and an unknown identity
    ///   in the first frame; `.incompleteMessage` if a later frame failed after the first was
    ///   queued; `.closed`, `.contextTerminated`, `.notSupported`, `.invalidState`.
    @discardableResult
    package func send(_ frames: [[UInt8]], dontWait: Bool = false) throws(TransportError) -> Bool {
        let socket = try openHandle("zmq_send")
        guard !frames.isEmpty else {
            throw TransportError(code: .invalidArgument, message: "zmq_send: a message needs at least one frame")
        }
        let last = frames.count - 1
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = index < last ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            let result: Result<Int32?, TransportError> = frame.withUnsafeBytes { buffer in
                // zmq_send (copies the bytes): the frame size, or -1 with EAGAIN (cannot queue
                // now, with DONTWAIT or after SNDTIMEO), ENOTSUP (socket type cannot send), EFSM
                // (REQ/REP state), ETERM, ENOTSOCK, EINTR (retried), EHOSTUNREACH (ROUTER with
                // ROUTER_MANDATORY and an unknown identity).
                Result { () throws(TransportError) in
                    try zmqCall("zmq_send") { zmq_send(socket, buffer.baseAddress, buffer.count, flags) }
                }
            }
            if try result.get() == nil {
                if index == 0 { return false }
                throw TransportError(code: .incompleteMessage,
                                     message: "zmq_send: frame \(index) of \(frames.count) could not be queued")
            }
        }
        return true
    }

    /// Receives one multipart message.
    ///
    /// - Parameter dontWait: return `nil` at once when no message is waiting.
    /// - Returns: the frames, or `nil` when no message is waiting (`EAGAIN`: only with `dontWait`
    ///   or after a `receiveTimeout`).
    /// - Throws: `.closed`, `.contextTerminated`, `.notSupported` (socket type cannot receive),
    ///   `.invalidState`.
    package func receive(dontWait: Bool = false) throws(TransportError) -> [[UInt8]]? {
        try receive(dontWait: dontWait, keepingFramesOver: .max)?.frames
    }

    /// Receives one multipart message, keeping frames larger than `threshold` bytes uncopied.
    ///
    /// - Returns: the frames (a kept frame's place holds `[]`) and the kept frames by index, or
    ///   `nil` as `receive(dontWait:)`.
    package func receive(dontWait: Bool = false, keepingFramesOver threshold: Int)
        throws(TransportError) -> (frames: [[UInt8]], kept: [Int: ZMQFrame])? {
        let socket = try openHandle("zmq_msg_recv")
        guard let message else { throw TransportError.closed("zmq_msg_recv") }
        var frames: [[UInt8]] = []
        var kept: [Int: ZMQFrame] = [:]
        // Frames of one message arrive together (ZeroMQ delivers messages atomically), so the
        // second and later frames never wait; DONTWAIT keeps a broken peer from blocking us.
        var flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
        while true {
            // zmq_msg_init: always 0.
            zmq_msg_init(message)
            defer {
                // zmq_msg_close: 0, or -1 with EFAULT (invalid message; not possible here).
                zmq_msg_close(message)
            }
            // zmq_msg_recv: the frame size, or -1 with EAGAIN (nothing waiting, with DONTWAIT
            // or after RCVTIMEO), ENOTSUP (socket type cannot receive), EFSM (REQ/REP state),
            // ETERM, ENOTSOCK, EINTR (retried), EFAULT (invalid message).
            guard let size = try zmqCall("zmq_msg_recv", { zmq_msg_recv(message, socket, flags) }) else {
                if frames.isEmpty { return nil }
                throw TransportError(code: .incompleteMessage, message: "zmq_msg_recv: message ended after \(frames.count) frames")
            }
            // zmq_msg_more: 1 if another frame of this message follows, else 0. Read before a
            // kept frame's content is moved out of `message`.
            let more = zmq_msg_more(message) == 1
            if frames.count == 1 || (frames.isEmpty && !more) {
                // zmq_msg_gets: the property's value, valid until zmq_msg_close, or NULL
                // (EINVAL) when the connection has none (no ZAP handler authorised it). Read
                // from a frame that came off the wire: a ROUTER's own routing-id frame has none.
                lastUserID = zmq_msg_gets(message, "User-Id").map { String(cString: $0) } ?? ""
            }
            if size == 0 {
                frames.append([])
            } else if Int(size) > threshold {
                kept[frames.count] = ZMQFrame(movingFrom: message)
                frames.append([])
            } else {
                // zmq_msg_data: the frame's bytes, valid until zmq_msg_close.
                frames.append(Array(UnsafeRawBufferPointer(start: zmq_msg_data(message), count: Int(size))))
            }
            guard more else { return (frames, kept) }
            flags = ZMQ_DONTWAIT
        }
    }

    // MARK: Options

    /// Sets one socket option. Options that affect connections (`routingID`, high-water marks,
    /// heartbeats, CURVE) must be set before `bind`/`connect`.
    package func set(_ option: SocketOption) throws(TransportError) {
        switch option {
        case .linger(let ms): try setInt32(ZMQ_LINGER, "ZMQ_LINGER", ms)
        case .receiveHighWaterMark(let n): try setInt32(ZMQ_RCVHWM, "ZMQ_RCVHWM", n)
        case .sendHighWaterMark(let n): try setInt32(ZMQ_SNDHWM, "ZMQ_SNDHWM", n)
        case .routingID(let id): try setBytes(ZMQ_ROUTING_ID, "ZMQ_ROUTING_ID", id)
        case .routerMandatory(let on): try setInt32(ZMQ_ROUTER_MANDATORY, "ZMQ_ROUTER_MANDATORY", on ? 1 : 0)
        case .routerHandover(let on): try setInt32(ZMQ_ROUTER_HANDOVER, "ZMQ_ROUTER_HANDOVER", on ? 1 : 0)
        case .maxMessageSize(let bytes):
            var value = Int64(bytes)
            try setRaw(ZMQ_MAXMSGSIZE, "ZMQ_MAXMSGSIZE", &value, MemoryLayout<Int64>.size)
        case .heartbeatInterval(let ms): try setInt32(ZMQ_HEARTBEAT_IVL, "ZMQ_HEARTBEAT_IVL", ms)
        case .heartbeatTimeout(let ms): try setInt32(ZMQ_HEARTBEAT_TIMEOUT, "ZMQ_HEARTBEAT_TIMEOUT", ms)
        case .heartbeatTTL(let ms): try setInt32(ZMQ_HEARTBEAT_TTL, "ZMQ_HEARTBEAT_TTL", ms)
        case .reconnectInterval(let ms): try setInt32(ZMQ_RECONNECT_IVL, "ZMQ_RECONNECT_IVL", ms)
        case .reconnectIntervalMax(let ms): try setInt32(ZMQ_RECONNECT_IVL_MAX, "ZMQ_RECONNECT_IVL_MAX", ms)
        case .immediate(let on): try setInt32(ZMQ_IMMEDIATE, "ZMQ_IMMEDIATE", on ? 1 : 0)
        case .receiveTimeout(let ms): try setInt32(ZMQ_RCVTIMEO, "ZMQ_RCVTIMEO", ms)
        case .sendTimeout(let ms): try setInt32(ZMQ_SNDTIMEO, "ZMQ_SNDTIMEO", ms)
        case .subscribe(let prefix): try setBytes(ZMQ_SUBSCRIBE, "ZMQ_SUBSCRIBE", prefix)
        case .unsubscribe(let prefix): try setBytes(ZMQ_UNSUBSCRIBE, "ZMQ_UNSUBSCRIBE", prefix)
        case .zapDomain(let domain): try setBytes(ZMQ_ZAP_DOMAIN, "ZMQ_ZAP_DOMAIN", Array(domain.utf8))
        case .handshakeInterval(let ms): try setInt32(ZMQ_HANDSHAKE_IVL, "ZMQ_HANDSHAKE_IVL", ms)
        case .curveServer(let secretKey):
            try setInt32(ZMQ_CURVE_SERVER, "ZMQ_CURVE_SERVER", 1)
            try setBytes(ZMQ_CURVE_SECRETKEY, "ZMQ_CURVE_SECRETKEY", secretKey.bytes)
        case .curveClient(let serverKey, let keyPair):
            try setBytes(ZMQ_CURVE_SERVERKEY, "ZMQ_CURVE_SERVERKEY", serverKey.bytes)
            try setBytes(ZMQ_CURVE_PUBLICKEY, "ZMQ_CURVE_PUBLICKEY", keyPair.publicKey.bytes)
            try setBytes(ZMQ_CURVE_SECRETKEY, "ZMQ_CURVE_SECRETKEY", keyPair.secretKey.bytes)
        }
    }

    /// The socket's routing id (`ZMQ_ROUTING_ID`): set by `.routingID`, empty otherwise.
    package func routingID() throws(TransportError) -> [UInt8] {
        try bytesOption(ZMQ_ROUTING_ID, name: "ZMQ_ROUTING_ID", capacity: 255)
    }

    /// The current `ZMQ_LINGER` in milliseconds (-1: forever).
    package func linger() throws(TransportError) -> Int {
        Int(try int32Option(ZMQ_LINGER, name: "ZMQ_LINGER"))
    }

    private func setInt32(_ option: Int32, _ name: String, _ value: Int) throws(TransportError) {
        var v = Int32(clamping: value)
        try setRaw(option, name, &v, MemoryLayout<Int32>.size)
    }

    private func setBytes(_ option: Int32, _ name: String, _ value: [UInt8]) throws(TransportError) {
        let socket = try openHandle("zmq_setsockopt(\(name))")
        let result: Result<Void, TransportError> = value.withUnsafeBytes { buffer in
            // zmq_setsockopt: 0, or -1 with EINVAL (unknown option or bad value/length), ETERM,
            // ENOTSOCK, EINTR (retried).
            Result { () throws(TransportError) in
                try zmqCheck("zmq_setsockopt(\(name))") { zmq_setsockopt(socket, option, buffer.baseAddress, buffer.count) }
            }
        }
        try result.get()
    }

    private func setRaw(_ option: Int32, _ name: String, _ value: UnsafeRawPointer, _ size: Int) throws(TransportError) {
        let socket = try openHandle("zmq_setsockopt(\(name))")
        // zmq_setsockopt: 0, or -1 with EINVAL (unknown option or bad value/length), ETERM,
        // ENOTSOCK, EINTR (retried).
        try zmqCheck("zmq_setsockopt(\(name))") { zmq_setsockopt(socket, option, value, size) }
    }

    private func int32Option(_ option: Int32, name: String) throws(TransportError) -> Int32 {
        let socket = try openHandle("zmq_getsockopt(\(name))")
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        // zmq_getsockopt: 0, or -1 with EINVAL (unknown option or buffer too small), ETERM,
        // ENOTSOCK, EINTR (retried).
        try zmqCheck("zmq_getsockopt(\(name))") { zmq_getsockopt(socket, option, &value, &size) }
        return value
    }

    private func bytesOption(_ option: Int32, name: String, capacity: Int) throws(TransportError) -> [UInt8] {
        let socket = try openHandle("zmq_getsockopt(\(name))")
        var buffer = [UInt8](repeating: 0, count: capacity)
        var size = capacity
        let result: Result<Void, TransportError> = buffer.withUnsafeMutableBytes { raw in
            // zmq_getsockopt: 0 with `size` set to the value's length, or -1 with EINVAL
            // (unknown option or buffer too small), ETERM, ENOTSOCK, EINTR (retried).
            Result { () throws(TransportError) in
                try zmqCheck("zmq_getsockopt(\(name))") { zmq_getsockopt(socket, option, raw.baseAddress, &size) }
            }
        }
        try result.get()
        return Array(buffer.prefix(size))
    }

    // MARK: Closing

    /// Closes the socket. Messages still queued are given up to `lingerMilliseconds` to be sent
    /// in the background (the call itself never blocks); `ZMQContext.terminate()` waits at most
    /// that long for them. Idempotent.
    package func close(lingerMilliseconds: Int = 100) {
        guard let socket = handle else { return }
        handle = nil
        var linger = Int32(clamping: lingerMilliseconds)
        // zmq_setsockopt(ZMQ_LINGER): 0, or -1 with ETERM (context terminating: the socket still
        // has to be closed, so the failure is ignored), EINVAL, ENOTSOCK.
        _ = zmq_setsockopt(socket, ZMQ_LINGER, &linger, MemoryLayout<Int32>.size)
        // zmq_close: 0, or -1 with ENOTSOCK (already closed; impossible here). Never blocks.
        _ = zmq_close(socket)
        message?.deallocate()
        message = nil
    }
}

/// A socket option for `ZMQSocket.set(_:)`. Durations are milliseconds, as in libzmq.
package enum SocketOption: Sendable, Hashable {
    /// How long `close` keeps unsent messages (ms; -1 forever, 0 drop at once).
    case linger(Int)
    /// Incoming messages queued per peer before the socket stops reading (0: unlimited).
    case receiveHighWaterMark(Int)
    /// Outgoing messages queued per peer before sends block / fail / drop (0: unlimited).
    case sendHighWaterMark(Int)
    /// The identity a ROUTER peer sees for this socket (1...255 bytes, not starting with 0).
    case routingID([UInt8])
    /// ROUTER: sending to an unknown identity fails with `.hostUnreachable` instead of dropping.
    case routerMandatory(Bool)
    /// ROUTER: a new peer with an identity already in use takes it over.
    case routerHandover(Bool)
    /// Peers sending a larger frame are disconnected (bytes; -1: unlimited).
    case maxMessageSize(Int)
    /// ZMTP heartbeat PING interval (ms; 0 off).
    case heartbeatInterval(Int)
    /// Close the connection when no traffic arrives this long after a PING (ms).
    case heartbeatTimeout(Int)
    /// Remote TTL advertised in PINGs (ms, rounded to 100 ms).
    case heartbeatTTL(Int)
    /// First reconnect delay (ms; -1: no reconnect).
    case reconnectInterval(Int)
    /// Upper bound of the exponential reconnect backoff (ms; 0: no backoff).
    case reconnectIntervalMax(Int)
    /// Queue messages only to completed connections.
    case immediate(Bool)
    /// Blocking receive gives up after this long and returns `nil` (ms; -1: forever).
    case receiveTimeout(Int)
    /// Blocking send gives up after this long and returns `false` (ms; -1: forever).
    case sendTimeout(Int)
    /// SUB: receive messages starting with this prefix.
    case subscribe([UInt8])
    /// SUB: stop receiving messages starting with this prefix.
    case unsubscribe([UInt8])
    /// The ZAP domain this socket authenticates in.
    case zapDomain(String)
    /// A connection that has not finished the ZMTP handshake this long after it was accepted
    /// is closed (ms; 0: never).
    case handshakeInterval(Int)
    /// Become a CURVE server with this secret key (set before `bind`).
    case curveServer(secretKey: CurveKey)
    /// Become a CURVE client of the server with public key `serverKey` (set before `connect`).
    case curveClient(serverKey: CurveKey, keyPair: CurveKeyPair)
}
