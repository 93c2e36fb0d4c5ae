import Foundation
import Synchronization
import OCRClient
import OCRMath
import OCRCommandLine
import OCRWire

/// `--math` and `--all-lines`: MathSolver from the command line.
enum MathFlags {
    static func make(_ a: ParsedArguments, options: RecognitionOptions) throws(UsageError) -> MathSolver? {
        guard a.flag("--math") else {
            if a.flag("--all-lines") { throw UsageError("--all-lines needs --math", command: "ocr-submit") }
            return nil
        }
        if a.string("--output") != nil || a.string("--format") != "txt" {
            throw UsageError("--math prints answers: --output and --format do not apply", command: "ocr-submit")
        }
        var solver = MathSolver(selection: a.flag("--all-lines") ? .allLines : .largestRegion)
        solver.baseOptions = options
        return solver
    }
}

extension SubmitCommand {
    /// Recognises `files` for MathSolver, prints the answers and maps the outcome to an exit code.
    func solve(_ files: [URL], _ client: OCRClient, _ solver: MathSolver) async throws -> ExitCode {
        guard let inputs = await loadInputs(files) else { return .noInput }
        let bar = ProgressBar(enabled: showProgress)
        let counts = ProgressCounts()
        let total = PageTotal()
        let answers = try await solver.solve(inputs: inputs, using: client) { event in
            counts.update(event)
            if let p = event.progress { total.value = Int(p.pageCount) }
            bar.update(done: counts.done, failed: counts.failed, total: max(1, total.value))
        }
        bar.finish()
        let report = MathReport(answers)
        FileHandle.standardOutput.write(Data(report.output.utf8))
        for problem in report.problems {
            Diagnostics.write("ocr-submit: \(problem)")
        }
        switch counts.finalState {
        case .succeeded?, .partial?: break
        default:
            Diagnostics.write("ocr-submit: the job ended \(counts.finalState.map { "\($0)" } ?? "without a final state")")
            return .jobFailed
        }
        if report.failedPages > 0 { return .somePagesFailed }
        return report.unsolvedLines > 0 ? .dataError : .success
    }
}

/// The job's page count as progress events report it.
final class PageTotal: Sendable {
    private let stored = Mutex(0)
    var value: Int {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
