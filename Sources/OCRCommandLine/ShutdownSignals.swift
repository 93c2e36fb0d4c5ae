import Foundation
import Synchronization

/// SIGTERM and SIGINT turned into ordinary calls, with no moment in which one is lost.
///
/// Call `ShutdownSignals.block()` first thing in `main`, before any thread starts: the signals
/// are then blocked in every thread the process creates, so one that arrives while the process
/// is still starting stays pending instead of killing it half-started or being dropped. Then
/// `ShutdownSignals { signal in ... }` starts a thread that takes them with `sigwait` (a pending
/// one at once) and calls the handler for each, on that thread.
///
/// (Ignoring the signals and listening with a dispatch signal source instead leaves a window
/// between the two in which a signal is discarded: a worker that got SIGTERM while it finished
/// starting then ran on and its supervisor waited for ever.)
package final class ShutdownSignals: Sendable {
    package static let defaultSignals: [Int32] = [SIGTERM, SIGINT]
    private let active: Cancelled

    /// Blocks `signals` in the calling thread and in the threads it creates from now on.
    package static func block(_ signals: [Int32] = defaultSignals) {
        var set = signalSet(signals)
        // pthread_sigmask: 0, or an error number (EINVAL for a bad `how`, which this is not).
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks `signals` (see `block`) and calls `handler` with each one that arrives, on a
    /// thread of its own, until `cancel()`.
    package init(_ signals: [Int32] = defaultSignals, handler: @escaping @Sendable (Int32) -> Void) {
        Self.block(signals)
        let active = Cancelled()
        self.active = active
        let thread = Thread {
            var set = Self.signalSet(signals)
            while true {
                var number: Int32 = 0
                // sigwait: 0 with the signal taken off the pending set, or an error number.
                guard sigwait(&set, &number) == 0 else { continue }
                if !active.flag.load(ordering: .acquiring) { handler(number) }
            }
        }
        thread.name = "ocr.signals"
        thread.start()
    }

    /// Waits on the calling thread for the next of `signals` (blocked since `block()`) and
    /// returns its number. For a `main` that has nothing else to do: never `dispatchMain()`,
    /// whose main thread waits in `sigsuspend` with every signal unblocked, so SIGTERM would
    /// take its default action there (exit 143) instead of reaching a handler.
    package static func next(_ signals: [Int32] = defaultSignals) -> Int32 {
        block(signals)
        var set = signalSet(signals)
        while true {
            var number: Int32 = 0
            // sigwait: 0 with the signal taken off the pending set, or an error number.
            if sigwait(&set, &number) == 0 { return number }
        }
    }

    /// Stops calling the handler (the signals stay blocked and are taken and dropped).
    package func cancel() { active.flag.store(true, ordering: .releasing) }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}

/// Set by `cancel()`, read by the signal thread.
private final class Cancelled: Sendable {
    let flag = Atomic<Bool>(false)
}
