import CMicroHTTPD
import Glibc
import OCRBasics

/// How an `HTTPServer` listens and what it accepts.
package struct HTTPServerConfiguration: Sendable {
    package var address: HTTPListenAddress
    /// A request body beyond this gets 413 (at once when Content-Length says so, else as soon
    /// as the upload passes it); the body is never kept.
    package var maxBodyBytes: Int
    /// Connections served at once (each has a thread); beyond, new ones are closed on accept.
    package var maxConnections = 256
    /// Connections from one client address at once; beyond, new ones are closed on accept, so
    /// one client cannot take every slot.
    package var maxConnectionsPerAddress = 64
    /// An idle connection is closed after this many seconds (0: never).
    package var idleTimeoutSeconds = 120
    /// A request's header must be complete this many seconds after the connection opened or
    /// its previous response was sent; its body within `requestBodySeconds` plus a second per
    /// `minimumBodyBytesPerSecond` of its length (RequestDeadlines).
    package var requestHeaderSeconds = 10
    package var requestBodySeconds = 30
    package var minimumBodyBytesPerSecond = 64 << 10
    /// PEM certificate chain and private key: serve HTTPS (GnuTLS inside libmicrohttpd).
    package var tls: (certificatePEM: String, keyPEM: String)?
    /// The answer to a body over `maxBodyBytes` (its declared length when it had one); the
    /// server adds `Connection: close`.
    package var tooLarge: @Sendable (_ declaredLength: Int?, _ limit: Int) -> HTTPResponse = { _, limit in
        HTTPResponse(status: 413, contentType: "text/plain", text: "the request body is over \(limit) bytes\n")
    }

    package init(address: HTTPListenAddress, maxBodyBytes: Int) {
        self.address = address
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why an `HTTPServer` did not start.
package struct HTTPServerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP/1.1 server on GNU libmicrohttpd: a thread per connection, so a handler may block
/// (waiting for the coordinator's answer, streaming events) without holding up other requests,
/// and never runs on an I/O loop or Swift's cooperative pool. The `MHD_Daemon` is owned here
/// and never leaves this type.
package final class HTTPServer: @unchecked Sendable {  // the daemon pointer is only used under `state`
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The port actually listened on (the real one when configured with port 0).
    package let port: Int
    package let configuration: HTTPServerConfiguration
    private let context: Unmanaged<ServerContext>
    private let state: Locked<DaemonBox>
    private let deadlines: RequestDeadlines

    private struct DaemonBox: @unchecked Sendable {
        var daemon: OpaquePointer?
        var keptStrings: [UnsafeMutablePointer<CChar>]
    }

    /// Binds and starts serving `handler`.
    package init(_ configuration: HTTPServerConfiguration, handler: @escaping Handler) throws(HTTPServerError) {
        self.configuration = configuration
        let listenSocket = try Self.bind(configuration.address)
        let deadlines = RequestDeadlines(.init(headerSeconds: configuration.requestHeaderSeconds, bodySeconds: configuration.requestBodySeconds,
                                               bodyBytesPerSecond: configuration.minimumBodyBytesPerSecond))
        let context = Unmanaged.passRetained(ServerContext(handler: handler, maxBodyBytes: configuration.maxBodyBytes, tooLarge: configuration.tooLarge,
                                                           deadlines: deadlines))
        var flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue)
        var kept: [UnsafeMutablePointer<CChar>] = []
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenSocket), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.maxConnectionsPerAddress, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
        ]
        if let tls = configuration.tls {
            flags |= UInt32(MHD_USE_TLS.rawValue)
            // libmicrohttpd keeps these pointers: they live as long as the daemon.
            let key = strdup(tls.keyPEM)!, certificate = strdup(tls.certificatePEM)!
            kept = [key, certificate]
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let daemon = options.withUnsafeMutableBufferPointer { items in
            ocr_mhd_start(flags, accessHandler, context.toOpaque(), requestCompleted, context.toOpaque(),
                          connectionNotified, context.toOpaque(), items.baseAddress)
        }
        guard let daemon else {
            deadlines.stop()
            close(listenSocket)
            context.release()
            kept.forEach { free($0) }
            throw HTTPServerError(configuration.tls == nil
                ? "libmicrohttpd could not start on \(configuration.address)"
                : "libmicrohttpd could not start HTTPS on \(configuration.address) (is the key/certificate pair valid PEM?)")
        }
        self.context = context
        self.deadlines = deadlines
        self.port = Int(ocr_mhd_bound_port(daemon))
        self.state = Locked(DaemonBox(daemon: daemon, keptStrings: kept))
    }

    /// Connections open right now.
    package var openConnections: Int {
        state.withLock { box in box.daemon.map { Int(ocr_mhd_connections($0)) } ?? 0 }
    }

    /// Stops accepting, closes every connection and waits for their threads (a streaming body's
    /// `next` must return for its thread to end). Idempotent.
    package func stop() {
        let taken = state.withLock { box -> DaemonBox in
            let taken = box
            box = DaemonBox(daemon: nil, keptStrings: [])
            return taken
        }
        guard let daemon = taken.daemon else { return }
        MHD_stop_daemon(daemon)
        deadlines.stop()
        taken.keptStrings.forEach { free($0) }
        context.release()
    }

    deinit { stop() }

    /// A listening TCP socket for `address`, so a refusal says why (libmicrohttpd only logs it).
    private static func bind(_ address: HTTPListenAddress) throws(HTTPServerError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard status == 0, let first = found else {
            throw HTTPServerError("cannot resolve \(address): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError("cannot make a socket for \(address): \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw HTTPServerError("cannot listen on \(address): \(reason)")
        }
        return fd
    }
}

/// Where an HTTP server listens: `host:port`, `[v6]:port`, or `*:port` for every interface.
package struct HTTPListenAddress: Sendable, CustomStringConvertible, Equatable {
    /// nil: every interface.
    package var host: String?
    package var port: Int

    package init(host: String?, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `127.0.0.1:8080`, `[::1]:8080`, `*:8080`, `localhost:0`; nil when malformed.
    package init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.init(host: host == "*" ? nil : host, port: port)
    }

    /// Whether only this machine can reach it (a loopback address or `localhost`).
    package var isLoopback: Bool {
        guard let host else { return false }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    package var description: String {
        guard let host else { return "*:\(port)" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

// MARK: - libmicrohttpd callbacks

/// What the callbacks share: the handler and the body limit.
private final class ServerContext: Sendable {
    let handler: HTTPServer.Handler
    let maxBodyBytes: Int
    let tooLarge: @Sendable (Int?, Int) -> HTTPResponse
    let deadlines: RequestDeadlines
    init(handler: @escaping HTTPServer.Handler, maxBodyBytes: Int, tooLarge: @escaping @Sendable (Int?, Int) -> HTTPResponse,
         deadlines: RequestDeadlines) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
        self.tooLarge = tooLarge
        self.deadlines = deadlines
    }

    func refuse(declaredLength: Int?) -> HTTPResponse {
        var response = tooLarge(declaredLength, maxBodyBytes)
        response.headers.append(("Connection", "close"))
        return response
    }
}

/// One request while its body arrives (libmicrohttpd's per-request pointer).
private final class RequestState {
    var body: [UInt8] = []
    var responded = false
    /// A chunked body passed the limit: the rest is read and dropped (libmicrohttpd 0.9.75
    /// cannot answer before the upload ends), then 413; these are the bytes dropped so far.
    var discarded: Int?
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, perRequest in
    guard let cls, let connection, let uploadSize, let perRequest else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let pointer = perRequest.pointee else {
        // First call: headers only. A declared body over the limit is refused before it is read.
        let state = RequestState()
        perRequest.pointee = Unmanaged.passRetained(state).toOpaque()
        let declared = lookupHeader(connection, "Content-Length").flatMap { Int($0) }
        context.deadlines.headerArrived(key(connection), bodyLength: min(declared ?? context.maxBodyBytes, 2 * context.maxBodyBytes))
        if let length = declared, length > context.maxBodyBytes {
            state.responded = true
            return queue(context.refuse(declaredLength: length), on: connection)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        guard !state.responded else { return .YES }
        if let discarded = state.discarded {
            // Past twice the limit the sender is not listening: drop the connection.
            state.discarded = discarded + count
            return discarded + count > 2 * context.maxBodyBytes ? .NO : .YES
        }
        if state.body.count + count > context.maxBodyBytes {
            state.discarded = state.body.count + count
            state.body = []
            return .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        }
        return .YES
    }
    guard !state.responded else { return .YES }
    state.responded = true
    context.deadlines.responding(key(connection))
    if state.discarded != nil { return queue(context.refuse(declaredLength: nil), on: connection) }
    var request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/")
    request.headers = values(connection, .HEADER_KIND, lowercasingNames: true)
    request.query = values(connection, .GET_ARGUMENT_KIND, lowercasingNames: false)
    request.body = state.body
    state.body = []
    if request.header("Content-Type")?.lowercased().hasPrefix("multipart/form-data") == true {
        if let parts = formParts(connection, request.body) { request.formParts = parts } else { request.formUnreadable = true }
    }
    return queue(context.handler(request), on: connection)
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, perRequest, _ in
    if let cls, let connection {
        Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().deadlines.requestCompleted(key(connection))
    }
    guard let perRequest, let pointer = perRequest.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    perRequest.pointee = nil
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, event in
    guard let cls, let connection else { return }
    let deadlines = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().deadlines
    if event.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
        deadlines.opened(key(connection), fd: ocr_mhd_connection_fd(connection))
    } else {
        deadlines.closed(key(connection))
    }
}

/// A connection's identity for `RequestDeadlines` while it is open.
private func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

private func lookupHeader(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

/// Collects one kind of connection values (headers or query arguments).
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercasing: Bool
    init(lowercasing: Bool) { self.lowercasing = lowercasing }
}

private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercasingNames: Bool) -> [String: String] {
    let collector = ValueCollector(lowercasing: lowercasingNames)
    let box = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
        guard let cls, let key else { return .YES }
        let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
        var name = String(cString: key)
        if collector.lowercasing { name = name.lowercased() }
        let text = value.map { String(cString: $0) } ?? ""
        if collector.lowercasing, let earlier = collector.values[name] {
            collector.values[name] = earlier + ", " + text
        } else {
            collector.values[name] = text
        }
        return .YES
    }, box)
    return withExtendedLifetime(collector) { collector.values }
}

/// The parts of a form body, decoded by libmicrohttpd's post processor; nil when it does not
/// parse.
private func formParts(_ connection: OpaquePointer, _ body: [UInt8]) -> [HTTPFormPart]? {
    final class Collector {
        var parts: [HTTPFormPart] = []
    }
    let collector = Collector()
    let box = Unmanaged.passUnretained(collector).toOpaque()
    guard let processor = MHD_create_post_processor(connection, 64 << 10, { cls, _, key, filename, contentType, _, data, offset, size in
        guard let cls else { return .NO }
        let collector = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
        let name = key.map { String(cString: $0) } ?? ""
        let file = filename.map { String(cString: $0) }
        if offset == 0 || collector.parts.last?.name != name || collector.parts.last?.filename != file {
            collector.parts.append(HTTPFormPart(name: name, filename: file, contentType: contentType.map { String(cString: $0) }, data: []))
        }
        if let data, size > 0 {
            data.withMemoryRebound(to: UInt8.self, capacity: size) {
                collector.parts[collector.parts.count - 1].data.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        }
        return .YES
    }, box) else { return nil }
    let fed = body.withUnsafeBytes { raw in
        raw.baseAddress.map { MHD_post_process(processor, $0.assumingMemoryBound(to: CChar.self), raw.count) } ?? .YES
    }
    let finished = MHD_destroy_post_processor(processor)
    guard fed == .YES, finished == .YES else { return nil }
    return withExtendedLifetime(collector) { collector.parts }
}

/// A streaming body between libmicrohttpd's reader calls: the chunk being sent.
private final class StreamState {
    let stream: HTTPStream
    var pending: [UInt8] = []
    var offset = 0
    init(_ stream: HTTPStream) { self.stream = stream }
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes { raw in
            ocr_mhd_response_copying(raw.count, raw.baseAddress)
        }
    case .stream(let stream):
        let state = Unmanaged.passRetained(StreamState(stream)).toOpaque()
        made = MHD_create_response_from_callback(UInt64.max, 16 << 10, { cls, _, buffer, max in
            guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
            let state = Unmanaged<StreamState>.fromOpaque(cls).takeUnretainedValue()
            while state.offset >= state.pending.count {
                guard let chunk = state.stream.next() else { return MHD_CONTENT_READER_END_OF_STREAM }
                state.pending = chunk
                state.offset = 0
            }
            let count = min(max, state.pending.count - state.offset)
            state.pending.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + state.offset, byteCount: count)
            }
            state.offset += count
            return count
        }, state, { cls in
            guard let cls else { return }
            let state = Unmanaged<StreamState>.fromOpaque(cls).takeRetainedValue()
            state.stream.close()
        })
        if made == nil { Unmanaged<StreamState>.fromOpaque(state).release() }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers {
        _ = MHD_add_response_header(made, header.name, header.value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
}
