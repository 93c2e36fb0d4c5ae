import Foundation
import OCRAPIJSON
import OCRBasics
import OCRClient
import OCRCoordinator
import OCRHTTP
import OCRLog
import OCRWire

/// How the coordinator's HTTP endpoint is served (`--http-*` options).
package struct GatewayConfiguration: Sendable {
    package var server: HTTPServerConfiguration
    /// nil: no authentication (every request is the anonymous principal "", as plain ZeroMQ
    /// clients are); else every path but `/healthz` and `/readyz` needs a token.
    package var tokens: BearerTokens?
    package var version: String
    package var logger: Logger
    /// A listener of its own for `/healthz` and `/readyz` only (`--http-probe-endpoint`), so that
    /// the probes answer while the API's connections are all taken; nil: none.
    package var probeAddress: HTTPListenAddress?

    package init(server: HTTPServerConfiguration, tokens: BearerTokens?, version: String, logger: Logger) {
        self.server = server
        self.tokens = tokens
        self.version = version
        self.logger = logger
    }
}

/// The coordinator's HTTP endpoint: health probes, Prometheus metrics, the REST API over the
/// same RPCs ZeroMQ clients use (through the coordinator's in-process endpoint), and the status
/// page. It starts before the coordinator has restored its journal (`/healthz` answers,
/// `/readyz` says why it is not ready) and serves the rest once `attach` gave it the coordinator.
package final class HTTPGateway: Sendable {
    package let configuration: GatewayConfiguration
    private let server: Locked<HTTPServer?>
    private let probeServer: Locked<HTTPServer?>
    private let attached = Locked<Attached?>(nil)
    /// Why nothing is attached (what `/readyz` and the API say meanwhile).
    private let waiting = Locked("restoring the journal")

    private struct Attached: Sendable {
        let coordinator: CoordinatorServer
        let link: OCRClient
    }

    /// The port listened on.
    package let port: Int
    /// The probe listener's port, when there is one.
    package let probePort: Int?

    package init(_ configuration: GatewayConfiguration) throws(HTTPServerError) {
        self.configuration = configuration
        let box = Locked(WeakGateway())
        var serverConfiguration = configuration.server
        serverConfiguration.tooLarge = { declared, limit in
            let size = declared.map { "\($0) bytes" } ?? "more than \(limit) bytes"
            return APIJSON.error(OCRError(.resourceExhausted, "the request body is \(size); the limit is \(limit) bytes (--max-http-body-mb)",
                                          details: ["max_body_bytes": "\(limit)"]), httpStatus: 413)
        }
        let server = try HTTPServer(serverConfiguration) { request in
            guard let gateway = box.withLock({ $0.gateway }) else { return HTTPResponse(status: 503, contentType: "text/plain", text: "starting\n") }
            return gateway.logged(request) { gateway.handle(request) }
        }
        var probes: HTTPServer?
        if let probeAddress = configuration.probeAddress {
            var probeConfiguration = HTTPServerConfiguration(address: probeAddress, maxBodyBytes: 0)
            probeConfiguration.maxConnections = 32
            probeConfiguration.requestHeaderSeconds = 2
            do {
                probes = try HTTPServer(probeConfiguration) { request in
                    guard let gateway = box.withLock({ $0.gateway }) else { return HTTPResponse(status: 503, contentType: "text/plain", text: "starting\n") }
                    return gateway.logged(request) { gateway.probe(request) }
                }
            } catch {
                server.stop()
                throw error
            }
        }
        self.server = Locked(server)
        self.probeServer = Locked(probes)
        self.port = server.port
        self.probePort = probes?.port
        box.withLock { $0.gateway = self }
    }

    /// Serves the API of `coordinator` from now on.
    package func attach(_ coordinator: CoordinatorServer) throws {
        let link = try OCRClient(endpoint: coordinator.gatewayEndpoint, context: coordinator.context)
        attached.withLock { $0 = Attached(coordinator: coordinator, link: link) }
    }

    /// Stops serving the attached coordinator (before it stops: a leader stepping down); until
    /// the next `attach`, `/readyz` and the API answer 503 with `reason` ("standby: ...").
    package func detach(because reason: String) {
        waiting.withLock { $0 = reason }
        let link = attached.withLock { attached -> OCRClient? in
            defer { attached = nil }
            return attached?.link
        }
        link?.close()
    }

    /// What `/readyz` and the API say while nothing is attached (a standby names its leader).
    package func setWaiting(_ reason: String) {
        waiting.withLock { $0 = reason }
    }

    /// Stops serving: open connections close (event streams end), then the link. Call before
    /// stopping the coordinator.
    package func stop() {
        let server = server.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        let probes = probeServer.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        let link = attached.withLock { $0?.link }
        link?.close()  // ends the event streams' WatchJob calls, so their connection threads return
        server?.stop()
        probes?.stop()
    }

    // MARK: Routing

    /// Paths outside `/v1`, all read-only.
    private static let staticPaths: Set<String> = ["/", "/healthz", "/readyz", "/metrics", "/openapi.json", "/status.js"]

    /// Serves `request` with `serve` and logs one access line: method, path (never the query,
    /// which may carry an access token), status, principal, body bytes and milliseconds to the
    /// response (to its start, for an event stream).
    private func logged(_ request: HTTPRequest, _ serve: () -> HTTPResponse) -> HTTPResponse {
        let start = ContinuousClock.now
        let response = serve()
        let principal = (try? authenticate(request).get()).map { $0.isEmpty ? "-" : $0 } ?? "-"
        let bytes: String = switch response.body {
        case .bytes(let body): "\(body.count)"
        case .stream: "stream"
        }
        configuration.logger.info("http request", ["method": request.method, "path": request.path, "status": response.status,
                                                   "principal": principal, "bytes": bytes,
                                                   "ms": (ContinuousClock.now - start).milliseconds])
        return response
    }

    /// The probe listener: `/healthz` and `/readyz`, nothing else.
    private func probe(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path.hasSuffix("/") && request.path.count > 1 ? String(request.path.dropLast()) : request.path
        guard path == "/healthz" || path == "/readyz" else {
            return APIJSON.error(.notFound, "this listener serves /healthz and /readyz only")
        }
        return handle(request)
    }

    private func handle(_ request: HTTPRequest) -> HTTPResponse {
        var request = request
        if request.method == "HEAD" { request.method = "GET" }  // libmicrohttpd sends no body for HEAD
        let path = request.path.hasSuffix("/") && request.path.count > 1 ? String(request.path.dropLast()) : request.path
        if Self.staticPaths.contains(path), request.method != "GET" {
            return APIJSON.response(405, JobJSON.status(OCRError(.unimplemented, "\(request.method) is not allowed on \(path)").status),
                                    headers: [("Allow", "GET, HEAD")])
        }
        switch path {
        case "/healthz": return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", text: "ok\n")
        case "/readyz": return readiness()
        case "/status.js":
            // The status page's code holds no data, and a browser loads it by a <script> tag,
            // which sends no Authorization header: it is public, the data it fetches is not.
            return HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", text: StatusPage.script, headers: [("Cache-Control", "no-store")])
        default: break
        }
        let principal: String
        switch authenticate(request) {
        case .success(let name): principal = name
        case .failure(let error): return APIJSON.error(error)
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        switch (request.method, segments) {
        case ("GET", []) where path == "/":
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", text: StatusPage.html,
                                headers: [("Cache-Control", "no-store"), ("Content-Security-Policy", StatusPage.contentSecurityPolicy)])
        case ("GET", ["openapi.json"]):
            return HTTPResponse(status: 200, contentType: "application/json", text: OpenAPIDocument.json + "\n")
        case ("GET", ["metrics"]):
            return metrics()
        default:
            break
        }
        guard segments.first == "v1" else { return APIJSON.error(.notFound, "no such path: \(request.path)") }
        guard let attached = attached.withLock({ $0 }) else {
            return APIJSON.error(.unavailable, "the coordinator is not serving (\(waiting.withLock { $0 })); try again shortly")
        }
        let api = JobsAPI(link: attached.link, coordinator: attached.coordinator, principal: principal, logger: configuration.logger)
        guard let route = Route(Array(segments.dropFirst())) else { return APIJSON.error(.notFound, "no such path: \(request.path)") }
        switch (request.method, route) {
        case ("POST", .jobs): return api.submit(request)
        case ("GET", .jobs): return api.list(request)
        case ("GET", .job(let id)): return api.get(id, request)
        case ("DELETE", .job(let id)): return api.delete(id)
        case ("POST", .cancel(let id)): return api.cancel(id)
        case ("GET", .events(let id)): return api.events(id, request)
        case ("GET", .document(let id)): return api.document(id, request)
        case ("GET", .cluster): return api.cluster()
        default:
            return APIJSON.response(405, JobJSON.status(OCRError(.unimplemented, "\(request.method) is not allowed on \(request.path)").status),
                                    headers: [("Allow", route.allowedMethods)])
        }
    }

    /// The resources under `/v1`.
    private enum Route {
        case jobs, job(String), cancel(String), events(String), document(String), cluster

        init?(_ segments: [String]) {
            switch segments.count {
            case 1 where segments[0] == "jobs": self = .jobs
            case 1 where segments[0] == "cluster": self = .cluster
            // Google's custom-method form, as google.longrunning's `operations/{id}:cancel`.
            case 2 where segments[0] == "jobs" && segments[1].hasSuffix(":cancel"): self = .cancel(String(segments[1].dropLast(":cancel".count)))
            case 2 where segments[0] == "jobs": self = .job(segments[1])
            case 3 where segments[0] == "jobs" && segments[2] == "cancel": self = .cancel(segments[1])
            case 3 where segments[0] == "jobs" && segments[2] == "events": self = .events(segments[1])
            case 3 where segments[0] == "jobs" && segments[2] == "document": self = .document(segments[1])
            default: return nil
            }
        }

        var allowedMethods: String {
            switch self {
            case .jobs: "GET, POST"
            case .job: "GET, DELETE"
            case .cancel: "POST"
            default: "GET"
            }
        }
    }

    /// The principal of a request: "" without tokens; `http:NAME` for a valid bearer token.
    private func authenticate(_ request: HTTPRequest) -> Result<String, OCRError> {
        guard let tokens = configuration.tokens else { return .success("") }
        let presented: String
        if let header = request.header("Authorization"), header.lowercased().hasPrefix("bearer ") {
            presented = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        } else if let token = request.query["access_token"] {
            presented = token  // RFC 6750 section 2.3: for the status page, which a browser opens by URL
        } else {
            return .failure(OCRError(.unauthenticated, "this endpoint needs 'Authorization: Bearer TOKEN'"))
        }
        guard let entry = tokens.entry(presenting: presented) else {
            return .failure(OCRError(.unauthenticated, "the bearer token is not valid"))
        }
        return .success(BearerTokens.principal(entry.name))
    }

    // MARK: Probes and metrics

    private func readiness() -> HTTPResponse {
        guard let coordinator = attached.withLock({ $0?.coordinator }) else {
            return HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", text: "not ready: \(waiting.withLock { $0 })\n")
        }
        guard let gauges = coordinator.gauges(timeout: .seconds(2)) else {
            return HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", text: "not ready: the scheduler loop does not answer\n")
        }
        if gauges.overBudget {
            return HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", text: "not ready: the journal is at its size budget (--journal-max-mb); new jobs are refused\n")
        }
        if let trouble = gauges.journalTrouble {
            return HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8", text: "not ready: the journal cannot be written (\(trouble))\n")
        }
        return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", text: "ready\n")
    }

    private func metrics() -> HTTPResponse {
        guard let coordinator = attached.withLock({ $0?.coordinator }) else {
            return APIJSON.error(.unavailable, "the coordinator is not serving (\(waiting.withLock { $0 }))")
        }
        guard var gauges = coordinator.gauges() else { return APIJSON.error(.unavailable, "the scheduler loop does not answer") }
        gauges.version = configuration.version
        gauges.journalBytes = coordinator.journalBytes()
        gauges.httpConnections = server.withLock { $0?.openConnections ?? 0 }
        return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", text: coordinator.metrics.exposition(gauges))
    }
}

/// The server's handler reaches the gateway through this, weakly: the gateway owns the server.
private struct WeakGateway: Sendable {
    weak var gateway: HTTPGateway?
}
