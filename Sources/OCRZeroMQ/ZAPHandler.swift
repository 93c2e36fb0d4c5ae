/// One CURVE handshake as ZAP (ZeroMQ RFC 27) presents it to the authenticator.
package struct ZAPRequest: Sendable, Hashable {
    /// The server socket's `zapDomain` ("" if unset).
    package var domain: String
    /// The peer's IP address as text.
    package var address: String
    /// The peer's routing id, if it set one.
    package var routingID: [UInt8]
    /// "NULL", "PLAIN" or "CURVE".
    package var mechanism: String
    /// The client's long-term public key (CURVE only).
    package var clientKey: CurveKey?
}

/// What the authenticator answers for one handshake.
package enum ZAPDecision: Sendable, Equatable {
    /// Accepted (ZAP 200).
    case allow
    /// The peer's credentials are refused (ZAP 400): the peer sees HANDSHAKE_FAILED_AUTH 400.
    case deny(String)
    /// The server turns the peer away for its own reasons, such as its connection limit (ZAP
    /// 500; libzmq closes the connection at once for 400 and 500, not for 300).
    case refuse(String)
}

/// A ZAP handler: the in-process authenticator libzmq asks, at every handshake on a server
/// socket of the context that has a ZAP domain (CURVE or NULL), whether to accept the client. DESIGN section 6: the coordinator
/// checks client and worker public keys against allow-lists here.
///
/// It is a REP socket bound to `inproc://zeromq.zap.01`, so there is at most one per context, and
/// it must be installed before the server sockets bind. It lives on a `SocketLoop` like any other
/// socket; `authorize` runs on that loop thread for each handshake and must not block.
package enum ZAPHandler {
    /// The endpoint libzmq sends ZAP requests to.
    package static let endpoint = "inproc://zeromq.zap.01"

    /// Binds the context's ZAP endpoint on this loop and answers every request with `authorize`.
    /// Malformed requests are refused (status 500), never trusted.
    @discardableResult
    package static func install(on control: SocketLoop.Control,
                               authorize: @escaping (ZAPRequest) -> ZAPDecision) throws(TransportError) -> SocketID {
        let socket = try control.context.makeSocket(.rep)
        do {
            try socket.bind(endpoint)
        } catch {
            socket.close(lingerMilliseconds: 0)
            throw error
        }
        return control.register(socket, closeLingerMilliseconds: 0) { control, id, frames in
            let reply = answer(frames, authorize: authorize)
            // A REP socket must answer every request before it can read the next one.
            do {
                _ = try control.send(reply, on: id)
            } catch {
                control.report(error)
            }
        }
    }

    /// The reply frames for one request: version, request id, status code, status text, user id
    /// (the client key's Z85 text when accepted), metadata (empty).
    static func answer(_ frames: [[UInt8]], authorize: (ZAPRequest) -> ZAPDecision) -> [[UInt8]] {
        let version = Array("1.0".utf8)
        let requestID = frames.count > 1 ? frames[1] : []
        func reply(_ code: String, _ text: String, user: String = "") -> [[UInt8]] {
            [version, requestID, Array(code.utf8), Array(text.utf8), Array(user.utf8), []]
        }
        guard frames.count >= 6, frames[0] == version else { return reply("500", "malformed ZAP request") }
        let mechanism = String(decoding: frames[5], as: UTF8.self)
        var request = ZAPRequest(domain: String(decoding: frames[2], as: UTF8.self),
                                 address: String(decoding: frames[3], as: UTF8.self),
                                 routingID: frames[4], mechanism: mechanism, clientKey: nil)
        if mechanism == "CURVE" {
            guard frames.count == 7, let key = CurveKey(bytes: frames[6]) else {
                return reply("500", "malformed CURVE credentials")
            }
            request.clientKey = key
        }
        switch authorize(request) {
        case .allow: return reply("200", "OK", user: request.clientKey?.z85 ?? "")
        case .deny(let reason): return reply("400", reason)
        case .refuse(let reason): return reply("500", reason)
        }
    }
}

/// An allow-list of client public keys, for `ZAPHandler.install(on:authorize:)`.
package struct CurveAllowList: Sendable, Hashable {
    package var keys: Set<CurveKey>

    package init(_ keys: some Sequence<CurveKey>) {
        self.keys = Set(keys)
    }

    /// Accepts CURVE clients whose key is listed; refuses everything else.
    package func allows(_ request: ZAPRequest) -> Bool {
        guard request.mechanism == "CURVE", let key = request.clientKey else { return false }
        return keys.contains(key)
    }
}
