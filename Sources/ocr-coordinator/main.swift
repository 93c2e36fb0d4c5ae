// ocr-coordinator: accepts jobs from clients, splits them into pages, schedules the pages onto
// workers and streams results back. Option parsing and wiring only; the logic is in
// OCRCoordinator.
import Foundation
import OCRCommandLine
import OCRBasics
import OCRCoordinator
import OCRGateway
import OCRWebhook
import OCRHTTP
import OCRLog
import OCRZeroMQ

// Before any thread starts: a SIGTERM during startup waits for the handler (see ShutdownSignals).
ShutdownSignals.block()
let openFiles = FileDescriptorLimit.raiseToHardLimit()

let spec = CommandSpec(
    name: coordinatorName,
    summary: "the job and page scheduler of an ocr-cluster",
    usage: """
    ocr-coordinator [--client-endpoint ENDPOINT] [--worker-endpoint ENDPOINT] [options]
           ocr-coordinator keygen FILE     (writes a CURVE key pair: FILE, secret, and FILE.pub)
    """,
    options: [
        .option("--client-endpoint", value: "ENDPOINT", help: "ZeroMQ endpoint to bind for clients (ocr-submit, OCRClient). Default: tcp://*:5555 with CURVE, tcp://127.0.0.1:5555 without."),
        .option("--worker-endpoint", value: "ENDPOINT", help: "ZeroMQ endpoint to bind for workers. Default: tcp://*:5556 with CURVE, tcp://127.0.0.1:5556 without."),
        .flag("--allow-insecure-bind", help: "Without CURVE, bind an endpoint that is not loopback anyway (anyone who can reach it submits, reads and cancels jobs, and any process can pose as a worker; logged as a warning)."),
        .option("--heartbeat-ms", value: "MS", default: "1000", help: "Heartbeat interval towards workers."),
        .option("--liveness", value: "N", default: "3", help: "Missed heartbeats before a worker is declared dead and its pages requeued."),
        .option("--prefetch", value: "N", default: "1", help: "Tasks a worker may hold beyond its slots."),
        .option("--prefetch-limit", value: "N", default: "32", help: "Adaptive prefetch: a worker whose results come more often than every 300 ms may hold about 300 ms of its work, up to N beyond its slots (N <= --prefetch: off)."),
        .option("--max-attempts", value: "N", default: "3", help: "Attempts per page before it is FAILED (when a job does not say)."),
        .option("--max-queued-pages", value: "N", default: "100000", help: "Pages waiting across all jobs; beyond, SubmitJob gets RESOURCE_EXHAUSTED."),
        .option("--max-message-mb", value: "MB", default: "512", help: "Largest message accepted on either endpoint."),
        .option("--curve-secret-key", value: "FILE", help: "CURVE: encrypt both endpoints with this secret key (make one with 'ocr-coordinator keygen FILE')."),
        .option("--allow-client-keys", value: "FILE", help: "CURVE: only clients whose public key is listed (one Z85 key per line)."),
        .option("--allow-worker-keys", value: "FILE", help: "CURVE: only workers whose public key is listed (required with CURVE, unless --allow-any-worker)."),
        .flag("--allow-any-worker", help: "CURVE without --allow-worker-keys: any key pair may serve as a worker, and so receive page images and return text."),
        .option("--admin-client-keys", value: "FILE", help: "Client keys that see, watch and cancel every job; any other client only its own (one Z85 key per line)."),
        .option("--max-worker-slots", value: "N", default: "256", help: "Most slots a worker may announce (a larger Ready is capped)."),
        .option("--max-pages-per-client", value: "N", default: "25000", help: "Unfinished pages one client (CURVE key; all clients without CURVE) may have; beyond, SubmitJob gets RESOURCE_EXHAUSTED."),
        .option("--max-connections", value: "N", default: "10000", help: "Connections each endpoint holds at once; beyond, a handshake is refused and logged (lowered to fit the open-file limit)."),
        .option("--max-streams-per-client", value: "N", default: "64", help: "WatchJob streams one client may have open at once."),
        .option("--journal", value: "PATH|URI", help: "Journal of jobs, pages and results: a SQLite file (created if missing), or a PostgreSQL connection URI (postgresql://user@host/db) that several coordinators share, one leading and the others standing by. On start its jobs are restored: unfinished ones resume, finished ones stay for GetJob/WatchJob. Default: none (in memory only)."),
        .option("--leader-lease-ms", value: "MS", default: "5000", help: "With a PostgreSQL journal: a leader that has not renewed its lease for this long (a stopped or cut-off process) is replaced by a standby; one whose process ended is replaced at once."),
        .option("--retention", value: "AGE", default: "7d", help: "Finished jobs are forgotten (and their journal rows deleted) this long after they finished: 90m, 12h, 7d; 0 keeps them until --max-finished-jobs pushes them out."),
        .option("--max-finished-jobs", value: "N", default: "10000", help: "Finished jobs kept at most for GetJob and WatchJob; the oldest go first."),
        .option("--journal-max-mb", value: "MB", default: "8192", help: "Budget of the journal, its log and its upload spool: at it, new jobs get RESOURCE_EXHAUSTED (running ones finish), /readyz says not ready and the oldest finished jobs are dropped; 0: no budget."),
        .option("--journal-sync", value: "MODE", default: "normal", help: "normal: a commit survives a coordinator crash (kill -9); full: also an OS crash or power cut (one fsync per commit; commits group the events that came meanwhile)."),
        .option("--http-endpoint", value: "HOST:PORT", default: "127.0.0.1:8080", help: "HTTP endpoint: REST API, /metrics, /healthz, /readyz and the status page at /; 'none' for no HTTP; port 0 picks a free one."),
        .option("--http-probe-endpoint", value: "HOST:PORT", help: "A listener of its own for /healthz and /readyz (no token needed), for liveness and readiness probes: they answer even while the API's connections are all taken."),
        .option("--http-tokens", value: "FILE", help: "Bearer tokens for HTTP, one 'NAME TOKEN [admin]' per line: every path but /healthz and /readyz then needs 'Authorization: Bearer TOKEN'; jobs belong to NAME (required to bind HTTP beyond loopback, unless --allow-insecure-bind)."),
        .option("--http-cert", value: "FILE", help: "Serve HTTPS with this PEM certificate chain (with --http-key)."),
        .option("--http-key", value: "FILE", help: "The PEM private key of --http-cert."),
        .option("--max-http-body-mb", value: "MB", help: "Largest HTTP request body; beyond, 413 at once. Default: --max-message-mb less 1 MB."),
        .option("--webhook-allow", value: "URL", help: "Jobs may name a callback_url starting with this http(s) URL prefix (scheme, host and port exact; repeatable); others are refused at submit."),
        .option("--webhook-secret", value: "FILE", help: "The key (16+ bytes, the file's first line) that signs webhook bodies: X-OCR-Signature: sha256=HMAC-SHA256(body). Required with --webhook-allow."),
        .option("--log-level", value: "LEVEL", default: "info", help: "trace, debug, info, warning or error."),
    ],
    footer: """
    Logs are key=value lines on stderr. SIGTERM or SIGINT stops the coordinator (jobs in memory are lost
    unless --journal is given; with it, restarting on the same journal resumes every accepted job and
    clients re-attach with WatchJob(job_id, from_page)).
    Exit codes: 0 stopped by a signal, 64 bad usage, 70 could not start (e.g. endpoint in use).
    """)

let arguments: ParsedArguments
var insecureEndpoints: [String] = []
var configuration = CoordinatorConfiguration(logger: .disabled)
var gatewayConfiguration: GatewayConfiguration?
var postgresJournal: String?
var leaderLease = Duration.seconds(5)
do {
    arguments = try spec.parse(Array(CommandLine.arguments.dropFirst()))
    arguments.answerHelpOrVersion()
    if arguments.positionals.first == "keygen" {
        guard arguments.positionals.count == 2 else { throw UsageError("keygen takes one FILE", command: spec.name) }
        do {
            let pair = try CurveKeyFile.generate(at: arguments.positionals[1])
            print("public key \(pair.publicKey.z85) written to \(arguments.positionals[1]).pub; secret key in \(arguments.positionals[1])")
            exit(ExitCode.success.rawValue)
        } catch {
            Diagnostics.write("ocr-coordinator: keygen: \(error)")
            exit(ExitCode.software.rawValue)
        }
    }
    guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: spec.name) }
    guard let level = LogLevel(name: arguments.string("--log-level")!) else {
        throw UsageError("--log-level must be one of trace, debug, info, warning, error", command: spec.name)
    }
    configuration.logger = Logger(component: "coordinator", level: level)
    configuration.scheduler.heartbeatInterval = .milliseconds(try arguments.int("--heartbeat-ms", range: 10...600_000)!)
    configuration.scheduler.liveness = try arguments.int("--liveness", range: 1...1000)!
    configuration.scheduler.prefetch = try arguments.int("--prefetch", range: 0...1000)!
    let prefetchLimit = try arguments.int("--prefetch-limit", range: 0...1000)!
    configuration.scheduler.adaptivePrefetchLimit = prefetchLimit > configuration.scheduler.prefetch ? prefetchLimit : nil
    configuration.scheduler.defaultMaxAttempts = UInt32(try arguments.int("--max-attempts", range: 1...100)!)
    configuration.scheduler.maxQueuedPages = try arguments.int("--max-queued-pages", range: 1...100_000_000)!
    configuration.maxMessageBytes = try arguments.int("--max-message-mb", range: 1...4096)! << 20
    if let journal = arguments.string("--journal") {
        if journal.hasPrefix("postgresql://") || journal.hasPrefix("postgres://") {
            postgresJournal = journal
        } else {
            configuration.journalPath = journal
        }
    }
    leaderLease = .milliseconds(try arguments.int("--leader-lease-ms", range: 500...600_000)!)
    guard let sync = JournalSync(rawValue: arguments.string("--journal-sync")!) else {
        throw UsageError("--journal-sync must be normal or full", command: spec.name)
    }
    configuration.journalSync = sync
    configuration.scheduler.retention = try retention(arguments.string("--retention")!)
    configuration.scheduler.retainedFinishedJobs = try arguments.int("--max-finished-jobs", range: 0...10_000_000)!
    let budgetMB = try arguments.int("--journal-max-mb", range: 0...100_000_000)!
    configuration.journalBudgetBytes = budgetMB == 0 ? nil : UInt64(budgetMB) << 20
    if let secret = arguments.string("--curve-secret-key") {
        do {
            configuration.logger.info("curve secret key", ["from": try CurveKeyFile.source(of: secret)])
            configuration.security = CurveServerSecurity(
                keyPair: try CurveKeyFile.keyPair(secretKey: secret),
                allowedClients: try arguments.string("--allow-client-keys").map(CurveKeyFile.allowList),
                allowedWorkers: try arguments.string("--allow-worker-keys").map(CurveKeyFile.allowList))
        } catch {
            throw UsageError("\(error)", command: spec.name)
        }
        if configuration.security?.allowedWorkers == nil, !arguments.flag("--allow-any-worker") {
            throw UsageError("with CURVE, give --allow-worker-keys FILE (the workers that may receive page images), or --allow-any-worker", command: spec.name)
        }
        do {
            configuration.adminClients = Set(try arguments.string("--admin-client-keys").map(CurveKeyFile.allowList)?.keys.map(\.z85) ?? [])
        } catch {
            throw UsageError("\(error)", command: spec.name)
        }
    } else if arguments.string("--allow-client-keys") != nil || arguments.string("--allow-worker-keys") != nil
                || arguments.string("--admin-client-keys") != nil {
        throw UsageError("key allow-lists and admin keys need --curve-secret-key", command: spec.name)
    }
    let curve = configuration.security != nil
    configuration.clientEndpoint = arguments.string("--client-endpoint") ?? (curve ? "tcp://*:5555" : "tcp://127.0.0.1:5555")
    configuration.workerEndpoint = arguments.string("--worker-endpoint") ?? (curve ? "tcp://*:5556" : "tcp://127.0.0.1:5556")
    for endpoint in [configuration.clientEndpoint, configuration.workerEndpoint] where !curve && !EndpointExposure.isLocal(endpoint) {
        guard arguments.flag("--allow-insecure-bind") else {
            throw UsageError("\(endpoint) is reachable from other machines and there is no CURVE: give --curve-secret-key "
                             + "(see 'ocr-coordinator keygen'), bind 127.0.0.1, or pass --allow-insecure-bind", command: spec.name)
        }
        insecureEndpoints.append(endpoint)
    }
    configuration.scheduler.maxWorkerSlots = try arguments.int("--max-worker-slots", range: 1...65_536)!
    configuration.scheduler.maxPagesPerPrincipal = try arguments.int("--max-pages-per-client", range: 1...100_000_000)!
    configuration.maxStreamsPerPrincipal = try arguments.int("--max-streams-per-client", range: 1...100_000)!
    configuration.maxConnections = try arguments.int("--max-connections", range: 1...1_000_000)!
    configuration.webhooks = try webhookConfiguration(arguments)
    gatewayConfiguration = try httpConfiguration(arguments, logger: configuration.logger, maxMessageBytes: configuration.maxMessageBytes,
                                                 insecure: &insecureEndpoints)
    for principal in gatewayConfiguration?.tokens?.adminPrincipals ?? [] { configuration.adminClients.insert(principal) }
} catch let error as UsageError {
    Diagnostics.write(usage: error)
    exit(ExitCode.usage.rawValue)
}

configuration.logger.info("open file limit", ["nofile": openFiles])
// Both endpoints at their maximum, plus the journal, spool files and subprocesses, must fit.
let fittingConnections = max(1, (Int(clamping: openFiles) - 256) / 2)
if openFiles > 0, configuration.maxConnections > fittingConnections {
    configuration.logger.warning("--max-connections lowered to fit the open-file limit",
                                 ["asked": configuration.maxConnections, "max_connections": fittingConnections, "nofile": openFiles])
    configuration.maxConnections = fittingConnections
}
for endpoint in insecureEndpoints {
    configuration.logger.warning("endpoint without CURVE reachable from other machines (--allow-insecure-bind)", ["endpoint": endpoint])
}
// HTTP first, so that /healthz answers (and /readyz says why not) while the journal is restored
// or, with a shared journal, while this coordinator stands by.
var gateway: HTTPGateway?
do {
    if let gatewayConfiguration {
        let started = try HTTPGateway(gatewayConfiguration)
        gateway = started
        let scheme = gatewayConfiguration.server.tls == nil ? "http" : "https"
        var address = gatewayConfiguration.server.address
        address.port = started.port
        configuration.logger.info("http listening", ["url": "\(scheme)://\(address)", "auth": gatewayConfiguration.tokens == nil ? "none" : "bearer"])
        if var probes = gatewayConfiguration.probeAddress, let port = started.probePort {
            probes.port = port
            configuration.logger.info("http probes listening", ["url": "http://\(probes)/healthz"])
        }
    }
} catch {
    configuration.logger.error("cannot start", ["error": error])
    Diagnostics.write("ocr-coordinator: cannot start: \(error)")
    exit(ExitCode.software.rawValue)
}

/// Starts the server (binding its endpoints) and gives it to the gateway; exits 70 when it cannot.
@MainActor func serve(_ configuration: CoordinatorConfiguration) -> CoordinatorServer {
    do {
        let server = try CoordinatorServer(configuration)
        try gateway?.attach(server)
        return server
    } catch {
        configuration.logger.error("cannot start", ["error": error])
        Diagnostics.write("ocr-coordinator: cannot start: \(error)")
        exit(ExitCode.software.rawValue)
    }
}

// Stop on SIGTERM/SIGINT (blocked since the first line, so none is lost during startup), taken
// on this thread: a clean stop ends open calls with UNAVAILABLE and commits the journal.
guard let postgresJournal else {
    let server = serve(configuration)
    let signal = ShutdownSignals.next()
    configuration.logger.info("stopping", ["signal": signal])
    gateway?.stop()
    server.stop()
    configuration.logger.info("stopped")
    exit(ExitCode.success.rawValue)
}

// A shared journal: stand by until this coordinator leads, serve while it does, and stand by
// again when it is deposed (another coordinator took over while this one could not renew).
let http = gateway
let election = PostgreSQLLeaderElection(uri: postgresJournal, holder: LeaderHolder.describe(clientEndpoint: configuration.clientEndpoint),
                                        lease: leaderLease)
let events = LeadershipEvents()
let signals = ShutdownSignals { events.post(.signal($0)) }
while true {
    http?.setWaiting("standby: looking for the journal's leader")
    let leadership = election.lead(standing: { standing in
        switch standing {
        case .standby(let leader, let epoch):
            configuration.logger.info("standing by", ["leader": leader, "epoch": epoch])
            http?.setWaiting("standby: the leader is \(leader) (epoch \(epoch))")
        case .unreachable(let why):
            configuration.logger.warning("journal database unreachable; standing by", ["error": why])
            http?.setWaiting("standby: the journal database cannot be reached (\(why))")
        }
    }, stopped: { events.signalled })
    guard let leadership else { break }
    configuration.logger.info("leading", ["epoch": leadership.epoch, "holder": election.holder])
    var leading = configuration
    leading.leadership = leadership
    leading.deposed = { events.post(.deposed($0)) }
    http?.setWaiting("restoring the journal")
    let server: CoordinatorServer
    do {
        server = try CoordinatorServer(leading)
        try http?.attach(server)
    } catch let error as PostgreSQLError {
        // The database went away while this coordinator restored the journal: stand by again
        // (nothing was served; whoever leads next restores it).
        configuration.logger.warning("could not restore the journal; standing by", ["error": error])
        continue
    } catch {
        configuration.logger.error("cannot start", ["error": error])
        Diagnostics.write("ocr-coordinator: cannot start: \(error)")
        exit(ExitCode.software.rawValue)
    }
    switch events.next() {
    case .signal(let signal):
        configuration.logger.info("stopping", ["signal": signal])
        http?.stop()
        server.stop()
        configuration.logger.info("stopped")
        exit(ExitCode.success.rawValue)
    case .deposed(let reason):
        http?.detach(because: "standby: stepped down (\(reason))")
        server.stop()
        configuration.logger.warning("stepped down; standing by", ["reason": reason, "epoch": leadership.epoch])
    }
}
signals.cancel()
configuration.logger.info("stopped")
exit(ExitCode.success.rawValue)
