import Foundation
import Synchronization
import OCRBasics
import OCRClient
import OCRMath
import OCRCommandLine
import OCRAPIJSON
import OCRLocalCluster
import OCRLog
import OCRPages
import OCRZeroMQ
import OCRWire
import OCREngine
import OCRPageEngine
import OCRWorker

/// What one invocation of ocr-submit does, validated before anything starts.
struct SubmitCommand: Sendable {
    enum Action: Sendable {
        case submit([URL]), status, jobs, cancel(String), delete(String), watch(String), result(String)

        /// The subcommands, which look at a coordinator's jobs: an embedded cluster has none.
        var needsCoordinator: Bool {
            if case .submit = self { return false }
            return true
        }
    }
    /// The input path that means standard input, and the name its file gets in the document.
    static let standardInputPath = "-", standardInputName = "stdin"

    let action: Action
    let endpoint: String?      // nil: embedded cluster
    let localWorkers: Int
    let localEngine: PageEngineFactory
    /// The documents to write: each format with its file (nil: standard output). One
    /// recognition gives them all, as `tesseract in out pdf txt` does.
    let documents: [(format: DocumentFormat, path: String?)]
    /// `--pdfa`: the searchable PDF as PDF/A-2b.
    let pdfa: Bool
    let options: RecognitionOptions
    let timeout: Duration?
    let priority: Int
    let jobKey: String?
    /// `--detach`: print the job id and return once the job is accepted.
    let detach: Bool
    let callbackURL: URL?
    /// `--json` for status and jobs.
    let json: Bool
    let showProgress: Bool
    let quiet: Bool
    /// Set with --math: solve arithmetic instead of printing the document.
    let math: MathSolver?
    let logLevel: LogLevel
    let security: CurveClientSecurity?

    init(_ a: ParsedArguments) throws(UsageError) {
        let name = "ocr-submit"
        let words = a.positionals
        switch words.first {
        case "status"? where words.count == 1: action = .status
        case "jobs"? where words.count == 1: action = .jobs
        case "cancel"? where words.count == 2: action = .cancel(words[1])
        case "delete"? where words.count == 2: action = .delete(words[1])
        case "watch"? where words.count == 2: action = .watch(words[1])
        case "result"? where words.count == 2: action = .result(words[1])
        case "cancel"?, "delete"?, "watch"?, "result"?: throw UsageError("\(words[0]) takes exactly one JOB id", command: name)
        case nil: throw UsageError("no input files", command: name)
        default:
            if words.filter({ $0 == Self.standardInputPath }).count > 1 {
                throw UsageError("standard input ('-') can be read once", command: name)
            }
            action = .submit(words.map { $0 == Self.standardInputPath ? URL.standardInput : URL(fileURLWithPath: $0) })
        }
        let environment = ProcessInfo.processInfo.environment["OCR_COORDINATOR"].flatMap { $0.isEmpty ? nil : $0 }
        if a.flag("--local"), a.string("--coordinator") != nil {
            throw UsageError("--local and --coordinator exclude each other", command: name)
        }
        endpoint = a.flag("--local") ? nil : (a.string("--coordinator") ?? environment)
        if let endpoint, let problem = EndpointSyntax.problem(endpoint, option: a.string("--coordinator") != nil ? "--coordinator" : "OCR_COORDINATOR") {
            throw UsageError(problem, command: name)
        }
        if action.needsCoordinator, endpoint == nil {
            throw UsageError("\(words[0]) needs a coordinator: give --coordinator ENDPOINT or set OCR_COORDINATOR "
                             + "(an embedded cluster would start empty)", command: name)
        }
        detach = a.flag("--detach")
        if detach, endpoint == nil {
            throw UsageError("--detach needs a coordinator (an embedded cluster ends with this process)", command: name)
        }
        if let text = a.string("--callback-url") {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw UsageError("--callback-url: '\(text)' is not a URL", command: name)
            }
            callbackURL = url
        } else {
            callbackURL = nil
        }
        json = a.flag("--json")
        if json, !["status", "jobs"].contains(words.first ?? "") {
            throw UsageError("--json is for status and jobs", command: name)
        }
        localWorkers = try a.int("--workers", range: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        guard let engine = PageEngineFactory.parse(a.string("--engine")!) else {
            throw UsageError("unknown --engine '\(a.string("--engine")!)'", command: name)
        }
        localEngine = engine
        var formats: [DocumentFormat] = []
        for word in a.string("--format")!.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard let format = DocumentFormat(rawValue: word) else {
                throw UsageError("--format takes \(DocumentFormat.allCases.map(\.rawValue).joined(separator: ", ")) or several joined by commas, not '\(word)'",
                                 command: name)
            }
            if !formats.contains(format) { formats.append(format) }
        }
        pdfa = a.flag("--pdfa")
        if pdfa, !formats.contains(.pdf) { throw UsageError("--pdfa is for --format pdf", command: name) }
        // "-o -" is standard output, as without -o.
        let output = a.string("--output").flatMap { $0 == "-" ? nil : $0 }
        var documents: [(format: DocumentFormat, path: String?)]
        if formats.count > 1 {
            // Several documents: -o names their base, as tesseract's outputbase does.
            guard let base = output else {
                throw UsageError("several formats need -o BASE: each is written to BASE.EXT (BASE.pdf, BASE.txt, ...)", command: name)
            }
            documents = formats.map { ($0, base + "." + $0.fileExtension) }
        } else {
            documents = [(formats[0], output)]
        }
        if formats == [.pdf], output == nil, isatty(STDOUT_FILENO) == 1, !a.flag("--detach") {
            throw UsageError("a PDF is not for a terminal: write it with -o FILE, or redirect standard output", command: name)
        }
        if let sidecar = a.string("--sidecar") {
            guard !documents.contains(where: { $0.path == sidecar }) else { throw UsageError("--sidecar \(sidecar) is also -o", command: name) }
            documents.append((.txt, sidecar == "-" ? nil : sidecar))
        }
        if documents.filter({ $0.path == nil }).count > 1 {
            throw UsageError("only one document can go to standard output", command: name)
        }
        self.documents = documents
        var options = try RecognitionFlags.make(a)
        // A searchable PDF shows each page as it was: the workers send it back with its text (a
        // detached job too, for a later `result -f pdf`).
        options.includePdfPage = formats.contains(.pdf) || a.flag("--detach")
        self.options = options
        timeout = try a.double("--timeout", range: 0.001...31_536_000).map { .milliseconds(Int64($0 * 1000)) }
        priority = try a.int("--priority", range: -1000...1000)!
        jobKey = a.string("--job-key")
        quiet = a.flag("--quiet")
        showProgress = !quiet && isatty(STDERR_FILENO) == 1
        math = try MathFlags.make(a, options: options)
        guard let level = LogLevel(name: a.string("--log-level") ?? (quiet ? "error" : "warning")) else {
            throw UsageError("--log-level must be one of trace, debug, info, warning, error", command: name)
        }
        logLevel = level
        let env = ProcessInfo.processInfo.environment
        do {
            security = try CurveClientSecurity.from(serverKey: a.string("--curve-server-key") ?? env["OCR_CURVE_SERVER_KEY"],
                                                    secretKey: a.string("--curve-secret-key") ?? env["OCR_CURVE_SECRET_KEY"])
        } catch {
            throw UsageError("\(error)", command: name)
        }
        if security != nil, endpoint == nil {
            throw UsageError("CURVE keys are for a remote coordinator; the embedded cluster needs none", command: name)
        }
    }

    func run() async -> ExitCode {
        for case let (_, output?) in documents where !detach && action.writesDocument {
            if let problem = OutputFile(output).problem {
                report("cannot create \(output): \(problem)")
                return .cannotCreate
            }
        }
        if let endpoint {
            do {
                return await run(with: try OCRClient(endpoint: endpoint, security: security))
            } catch {
                report("cannot reach the coordinator: \(error)")
                return .software
            }
        }
        // The embedded cluster starts and stops off Swift's cooperative pool (models load, pages drain).
        let cluster: LocalCluster
        do {
            cluster = try await LocalCluster.start(slots: localWorkers, engine: localEngine,
                                                   logger: Logger(component: "ocr-submit", level: logLevel))
        } catch {
            report("cannot start the embedded cluster: \(error)")
            return .software
        }
        let code: ExitCode
        do {
            code = await run(with: try cluster.client())
        } catch {
            report("cannot connect to the embedded cluster: \(error)")
            code = .software
        }
        await cluster.stopping()
        return code
    }

    /// The action with `client`, which it closes.
    private func run(with client: OCRClient) async -> ExitCode {
        defer { client.close() }
        do {
            // A DEALER connects to anything; a quick health probe turns silence into a clear error.
            do {
                _ = try await client.health(timeout: .seconds(5))
            } catch let error as OCRError where error.code == .unavailable {
                report("coordinator unreachable: \(error.message)")
                return .unavailable
            }
            switch action {
            case .submit(let files):
                if let math { return try await solve(files, client, math) }
                return try await submit(files, client)
            case .status:
                let status = try await client.clusterStatus()
                print(json ? JSON.object(JobJSON.cluster(status)).text : Report.status(status), terminator: json ? "\n" : "")
            case .jobs:
                let jobs = try await client.jobs()
                print(json ? JSON.object([("jobs", .array(jobs.map(JobJSON.job)))]).text : Report.jobs(jobs), terminator: json ? "\n" : "")
            case .cancel(let id): print(Report.jobLine(try await client.cancel(jobID: id)))
            case .delete(let id):
                try await client.delete(jobID: id)
                print("job \(id) deleted")
            case .watch(let id): return try await watch(id, client)
            case .result(let id): return try await result(id, client)
            }
            return .success
        } catch let error as OCRError {
            report(error.description)
            switch error.code {
            case .unavailable: return .unavailable
            case .unauthenticated: return .noPermission
            case .notFound where error.file != nil: return .noInput
            case .failedPrecondition where error.details["state"] != nil: return .notYet
            default: return .jobFailed
            }
        } catch {
            report("\(error)")
            return .software
        }
    }

    private func submit(_ files: [URL], _ client: OCRClient) async throws -> ExitCode {
        guard let inputs = await loadInputs(files) else { return .noInput }
        // Ctrl-C from here on cancels the job (once it has an id) instead of leaving it running.
        let interrupt = detach ? nil : Interrupt(client: client)
        let job = try await client.submit(inputs: inputs, options: options, jobKey: jobKey, priority: priority, timeout: timeout,
                                          callbackURL: callbackURL)
        if detach {
            print(job.jobId)
            if showProgress || isatty(STDERR_FILENO) == 1 { report("job \(job.jobId) accepted: \(Report.pages(Int(job.pageCount))); 'ocr-submit result \(job.jobId)' fetches its document") }
            return .success
        }
        if !quiet { report("job \(job.jobId) accepted: \(Report.pages(Int(job.pageCount)))") }
        let bar = ProgressBar(enabled: showProgress)
        interrupt?.follow(job.jobId, bar: bar)
        defer { interrupt?.stop() }
        let counts = ProgressCounts()
        bar.update(done: 0, failed: 0, total: Int(job.pageCount))
        let document: Document
        do {
            document = try await client.document(for: job) { event in
                counts.update(event)
                bar.update(done: counts.done, failed: counts.failed, total: Int(job.pageCount), running: counts.running)
            }
        } catch {
            await interrupt?.holdIfInterrupted()
            throw error
        }
        await interrupt?.holdIfInterrupted()
        bar.finish()
        if let failure = try await deliver(document, originals: inputs) { return failure }
        for gap in document.gaps {
            report("page \(gap.pageIndex + 1) failed: \(gap.error?.description ?? "missing")")
        }
        switch counts.finalState {
        case .succeeded?: return .success
        case .partial?: return .somePagesFailed
        default:
            report("job \(job.jobId) ended \(counts.finalState?.apiName ?? "without a final state")")
            return .jobFailed
        }
    }

    /// `result JOB`: the document of a finished job, written as a submission's is; exit 75 when
    /// it is still running.
    private func result(_ id: String, _ client: OCRClient) async throws -> ExitCode {
        let job = try await client.job(id)
        guard job.state.isFinal else {
            report("job \(id) is \(job.state.apiName) (\(job.pagesDone + job.pagesFailed) of \(job.pageCount) pages finished): its document is "
                   + "ready when it finishes ('ocr-submit watch \(id)' follows it)")
            return .notYet
        }
        let document = try await client.document(for: job)
        if let failure = try await deliver(document, originals: []) { return failure }
        for gap in document.gaps {
            report("page \(gap.pageIndex + 1) failed: \(gap.error?.description ?? "missing")")
        }
        switch job.state {
        case .succeeded: return .success
        case .partial: return .somePagesFailed
        default:
            report("job \(id) ended \(job.state.apiName)")
            return .jobFailed
        }
    }

    /// Renders `document` in `format` and writes it to `output` (or standard output); the exit
    /// code when that failed, nil when it was written.
    private func deliver(_ document: Document, originals: [InputFile]) async throws -> ExitCode? {
        for (format, output) in documents {
            let rendered: Data
            if format == .pdf {
                let (pdf, problems) = try await document.writingSearchablePDF(originals: originals, pdfa: pdfa)
                for problem in problems { report(problem) }
                rendered = pdf
            } else {
                rendered = try format.renderData(document)
            }
            guard let output else {
                FileHandle.standardOutput.write(rendered)
                continue
            }
            // PAGE XML is one document per page: FILE for a 1-page job, else FILE-0001.xml, ...
            let files = format == .page ? Self.numbered(output, document.pageXML().map { Data($0.utf8) })
                                        : [(output, rendered)]
            for (path, data) in files {
                do { try OutputFile(path).write(data) } catch {
                    report("cannot write \(path): \(error.localizedDescription)")
                    return .software
                }
            }
        }
        return nil
    }

    private func watch(_ id: String, _ client: OCRClient) async throws -> ExitCode {
        let counts = ProgressCounts()
        // Unbuffered, so each event shows as it happens, also through a pipe (`| grep FAILED`).
        func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
        // Follows the job across a coordinator restart (with --journal), as the submit path does.
        for try await event in client.followEvents(forJobID: id) {
            counts.update(event)
            if let page = event.pageCompleted?.result {
                line("page \(page.pageIndex + 1) done (\(page.file) p\(page.filePage))")
            } else if let failed = event.pageFailed {
                line("page \(failed.pageIndex + 1) FAILED: \(OCRError(failed.status ?? Status()).description)")
            } else if let finished = event.finished {
                line("job \(id) \(finished.state.apiName): \(finished.pagesDone) done, \(finished.pagesFailed) failed")
            }
        }
        return counts.finalState == .succeeded ? .success : (counts.finalState == .partial ? .somePagesFailed : .jobFailed)
    }

    /// The input files (standard input for "-"), or nil after saying on stderr which one cannot
    /// be read and why (the caller exits 66, EX_NOINPUT).
    func loadInputs(_ files: [URL]) async -> [InputFile]? {
        do {
            // Reading large scans (or a slow pipe) blocks.
            return try await onThreadOfItsOwn {
                let inputs = try files.flatMap { url -> [InputFile] in
                    guard url.isStandardInput else { return try InputFile.load([url]) }
                    let content = FileHandle.standardInput.readDataToEndOfFile()
                    return [InputFile.with { $0.name = Self.standardInputName; $0.content = [UInt8](content) }]
                }
                // Not a scan at all: said now, as a file that cannot be read (66), not
                // as a job that failed.
                if let odd = inputs.first(where: { ImageFormat.sniff($0.content) == nil }) {
                    throw OCRError(.invalidArgument, "\(odd.name) is not an image or a PDF (ocr-cluster reads TIFF, PNG, JPEG, "
                                   + "JPEG 2000, GIF, BMP, WebP, PNM and PDF)", file: odd.name)
                }
                return inputs
            }
        } catch {
            report("\(error)")
            return nil
        }
    }

    /// `path` for a single item, else `path` with `-0001`, `-0002`, ... before its extension.
    static func numbered(_ path: String, _ items: [Data]) -> [(String, Data)] {
        guard items.count > 1 else { return items.map { (path, $0) } }
        let ext = (path as NSString).pathExtension
        let stem = ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
        return items.enumerated().map { i, data in
            (stem + String(format: "-%04d", i + 1) + (ext.isEmpty ? "" : "." + ext), data)
        }
    }

    private func report(_ message: String) {
        Diagnostics.write("ocr-submit: \(message)")
    }
}

/// Counts pages from job events for the progress bar and the exit code (events come from the
/// client's threads).
final class ProgressCounts: Sendable {
    private struct Counts { var done = 0, failed = 0, running = 0; var state: JobState? }
    private let counts = Mutex(Counts())
    var done: Int { counts.withLock { $0.done } }
    var running: Int { counts.withLock { $0.running } }
    var failed: Int { counts.withLock { $0.failed } }
    var finalState: JobState? { counts.withLock { $0.state } }

    func update(_ event: JobEvent) {
        counts.withLock { c in
            switch event.event {
            case .pageCompleted?: c.done += 1
            case .pageFailed?: c.failed += 1
            case .progress(let p)?: (c.done, c.failed, c.running) = (Int(p.pagesDone), Int(p.pagesFailed), Int(p.pagesRunning))
            case .finished(let f)?: c.state = f.state
            case nil: break
            }
        }
    }
}

extension URL {
    /// Stands for standard input among the input files (`-` on the command line).
    static let standardInput = URL(string: "stdin:")!
    var isStandardInput: Bool { self == .standardInput }
}

extension SubmitCommand.Action {
    /// Whether this action writes a document to `--output` (checked before any work).
    var writesDocument: Bool {
        switch self {
        case .submit, .result: true
        default: false
        }
    }
}
