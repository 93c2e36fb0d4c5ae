import Dispatch
import Foundation
import OCRBasics
import OCRClient
import OCRCommandLine

/// Ctrl-C while ocr-submit waits for its job: the job is cancelled on the coordinator (not left
/// running for nobody), stderr says so, and the exit status is 130. Before the job has an id the
/// interrupt is remembered and acted on as soon as it has one; a second Ctrl-C exits at once.
final class Interrupt: @unchecked Sendable {  // `source` is set once in init; the rest is in `state`
    private struct State: Sendable {
        var jobID: String?
        var interrupted = false
        var stopped = false
    }

    private let state = Locked(State())
    private let client: OCRClient
    private var source: (any DispatchSourceSignal)?

    init(client: OCRClient) {
        self.client = client
        // SIGINT ignored, then taken by a dispatch source: a Ctrl-C in between is lost, which
        // only means pressing it again.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "ocr.submit.interrupt"))
        source.setEventHandler { [weak self] in self?.fired() }
        source.resume()
        self.source = source
    }

    /// The job is accepted: an interrupt from now on (or one that came already) cancels it.
    func follow(_ jobID: String) {
        let cancelNow = state.withLock { state -> Bool in
            state.jobID = jobID
            return state.interrupted
        }
        if cancelNow { cancelAndExit(jobID) }
    }

    /// The job is over: Ctrl-C is the default again.
    func stop() {
        state.withLock { $0.stopped = true }
        source?.cancel()
        signal(SIGINT, SIG_DFL)
    }

    private func fired() {
        let (jobID, again, stopped) = state.withLock { state -> (String?, Bool, Bool) in
            defer { state.interrupted = true }
            return (state.jobID, state.interrupted, state.stopped)
        }
        if again || stopped { exit(ExitCode.interrupted.rawValue) }
        if let jobID { cancelAndExit(jobID) }
    }

    private func cancelAndExit(_ jobID: String) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<String>("")
        Task { [client] in
            do {
                let job = try await client.cancel(jobID: jobID)
                outcome.withLock { $0 = "interrupted: job \(jobID) cancelled (\(job.pagesDone) of \(job.pageCount) pages were done)" }
            } catch {
                outcome.withLock { $0 = "interrupted: job \(jobID) could not be cancelled: \(error); it may still run" }
            }
            done.signal()
        }
        if done.wait(timeout: .now() + .seconds(10)) == .timedOut {
            outcome.withLock { $0 = "interrupted: no answer to cancelling job \(jobID) within 10 s; it may still run" }
        }
        Diagnostics.write("ocr-submit: " + outcome.withLock { $0 })
        exit(ExitCode.interrupted.rawValue)
    }
}
