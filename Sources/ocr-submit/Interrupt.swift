import Dispatch
import Foundation
import OCRBasics
import OCRClient
import OCRCommandLine

/// Ctrl-C while ocr-submit waits for its job: the job is cancelled on the coordinator (not left
/// running for nobody), stderr says so, and the exit status is 130. Before the job has an id the
/// interrupt is remembered and acted on as soon as it has one; a second Ctrl-C exits at once.
///
/// The SIGINT handler only writes a byte to a pipe (all a handler may safely do); a thread of its
/// own reads it and does the rest. (A dispatch signal source needs SIGINT blocked in every thread,
/// which an async `main` cannot arrange: its threads exist before it runs.)
final class Interrupt: Sendable {
    private struct State: Sendable {
        var jobID: String?
        var bar: ProgressBar?
        var interrupted = false
        var stopped = false
    }

    private let state = Locked(State())
    private let client: OCRClient

    init(client: OCRClient) {
        self.client = client
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }  // without a pipe, Ctrl-C keeps its default: exit at once
        interruptPipe = fds[1]
        let readEnd = fds[0]
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { fired() }
        }
        thread.name = "ocr.submit.interrupt"
        thread.start()
        signal(SIGINT) { _ in
            var byte: UInt8 = 1
            _ = write(interruptPipe, &byte, 1)
        }
        // A process started with signals blocked (some supervisors, test runners) still hears it here.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The job is accepted: an interrupt from now on (or one that came already) cancels it.
    func follow(_ jobID: String, bar: ProgressBar? = nil) {
        let cancelNow = state.withLock { state -> Bool in
            state.jobID = jobID
            state.bar = bar
            return state.interrupted
        }
        if cancelNow { cancelAndExit(jobID) }
    }

    /// After an interrupt the interrupt thread cancels the job and exits 130: the caller, whose
    /// wait for the job just ended (the cancel ends it), must not go on to exit otherwise or
    /// close the client the cancel uses. Returns at once when there was no interrupt.
    func holdIfInterrupted() async {
        guard state.withLock({ $0.interrupted }) else { return }
        while true { try? await Task.sleep(for: .seconds(60)) }  // suspended, holding no thread
    }

    /// The job is over: Ctrl-C is the default again.
    func stop() {
        state.withLock { $0.stopped = true }
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
        state.withLock { $0.bar }?.stop()  // the cancel's sentence is the last line
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

/// The pipe the SIGINT handler writes to (set once, before the handler is installed).
nonisolated(unsafe) private var interruptPipe: Int32 = -1
