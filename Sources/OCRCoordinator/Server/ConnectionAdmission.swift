import OCRLog
import OCRZeroMQ

/// The coordinator's authenticator (ZAP, on the I/O loop): refuses a handshake when its endpoint
/// already has `maxConnections` connections open (ZAP 500, with a log line at most once a
/// second), then applies CURVE's key allow-lists; without CURVE any NULL handshake is accepted.
///
/// Counts are per endpoint, so a flood of client connections never locks workers out, nor the
/// reverse. Confined to the loop thread.
final class ConnectionAdmission {
    private let security: CurveServerSecurity?
    private let maxConnections: Int
    private let logger: Logger
    private var counters: [String: ConnectionCounter] = [:]
    /// Handshakes refused per domain since the last log line, and that domain's open count.
    private var refusedSinceLog: [String: (refused: Int, open: Int)] = [:]
    private var lastLog: ContinuousClock.Instant?

    init(security: CurveServerSecurity?, maxConnections: Int, logger: Logger) {
        self.security = security
        self.maxConnections = maxConnections
        self.logger = logger
    }

    /// Gives `socket` (not yet bound) its ZAP domain and CURVE options and starts counting its
    /// connections. `domain` is one of `CurveServerSecurity`'s two domains.
    func prepare(_ socket: ZMQSocket, domain: String, control: SocketLoop.Control) throws {
        try socket.set(.zapDomain(domain))
        // Connections that never finish the handshake hold a descriptor: 10 s is ample for a
        // CURVE handshake across a slow link.
        try socket.set(.handshakeInterval(10_000))
        try security?.apply(to: socket)
        counters[domain] = try ConnectionCounter(watching: socket, name: domain, control: control)
    }

    func decide(_ request: ZAPRequest) -> ZAPDecision {
        let open = counters[request.domain]?.count ?? 0
        // The counter already holds this connection (accepted before its handshake).
        if open > maxConnections {
            refused(request.domain, open: open)
            return .refuse("connection limit reached")
        }
        guard let security else { return request.mechanism == "NULL" ? .allow : .deny("only NULL security here") }
        guard security.authorize(request) else {
            logger.warning("refused a connection", ["domain": request.domain, "address": request.address,
                                                     "key": request.clientKey?.z85 ?? "none"])
            return .deny("key not allowed")
        }
        return .allow
    }

    private func refused(_ domain: String, open: Int) {
        refusedSinceLog[domain] = ((refusedSinceLog[domain]?.refused ?? 0) + 1, open)
        let now = ContinuousClock.now
        if let lastLog, now - lastLog < .seconds(1) { return }
        lastLog = now
        for (domain, figures) in refusedSinceLog.sorted(by: { $0.key < $1.key }) {
            logger.warning("refused connections: connection limit reached (--max-connections)",
                           ["domain": domain, "refused": figures.refused, "open": figures.open, "max": maxConnections])
        }
        refusedSinceLog = [:]
    }
}
