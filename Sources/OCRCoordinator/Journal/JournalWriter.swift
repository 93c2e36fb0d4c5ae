import Foundation
import OCRLog
import Synchronization

/// The journal's own thread, so that the coordinator's I/O loop never waits for the disk.
///
/// The loop hands over each event's changes with a sequence number (`append`); the thread takes
/// everything handed over since its last commit and writes it in one transaction (group commit:
/// while one commit waits for the disk, the next events' changes gather for the following one),
/// then reports the highest sequence that is durable (`committed`). The shell holds back every
/// directive until the commit that covers its event, so nothing is acknowledged before it is
/// durable.
///
/// A batch that cannot be written (a full disk, an I/O error) is kept and retried every second,
/// in order, with what came after it: nothing is acknowledged that is not durable, and nothing
/// is lost or reordered. `trouble` reports the failure (and nil once a commit succeeds again),
/// so the shell can refuse new submissions meanwhile; the coordinator itself keeps serving.
///
/// A shared journal (PostgreSQL) is also kept alive while idle (its leader's lease,
/// `JobJournal.keepAlive`). When it says this coordinator has lost the leadership, `deposed` is
/// called once and nothing is written or acknowledged any more: what is handed over after is
/// dropped, and the shell steps down.
final class JournalWriter: Sendable {
    private struct Pending: Sendable {
        var changes: [JobChange] = []
        /// Sequence of the last batch in `changes`.
        var through: UInt64 = 0
        var stopping = false
    }

    /// The journal, used only by the writer thread once `init` has returned (the lock is never
    /// contended; it makes that checkable); closed (nil) by that thread as it ends, so its file
    /// lock is free when `stop()` returns.
    private let journal: Mutex<(any JobJournal)?>

    private let pending = Mutex(Pending())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private let logger: Logger

    init(_ journal: sending any JobJournal, logger: Logger) {
        self.journal = Mutex(journal)
        self.logger = logger
    }

    /// Starts the writer thread (changes appended before are committed first). `committed` is
    /// called on that thread with the sequence of the last batch of each commit, in increasing
    /// order; `measured` with the time of each commit and whether it failed; `deposed` once, when
    /// the journal says another coordinator leads.
    func start(committed: @escaping @Sendable (UInt64) -> Void, measured: @escaping @Sendable (Duration, Bool) -> Void = { _, _ in },
               trouble: @escaping @Sendable (String?) -> Void = { _ in }, deposed: @escaping @Sendable (String) -> Void = { _ in }) {
        let thread = Thread { [self] in
            serve(logger: logger, committed: committed, measured: measured, trouble: trouble, deposed: deposed)
        }
        thread.name = "ocr.coordinator.journal"
        thread.start()
    }

    private func serve(logger: Logger, committed: @Sendable (UInt64) -> Void, measured: @Sendable (Duration, Bool) -> Void,
                       trouble: @Sendable (String?) -> Void, deposed: @Sendable (String) -> Void) {
        var failing: [JobChange] = []  // a batch that failed, retried ahead of everything after it
        var failingThrough: UInt64 = 0
        let keepAliveInterval = journal.withLock { $0?.keepAliveInterval }
        var lastWrite = ContinuousClock.now
        var lost = false
        var troubled = false  // the last write or keep-alive failed
        while true {
            if troubled {
                _ = wake.wait(timeout: .now() + 1)
            } else if let keepAliveInterval, !lost {
                _ = wake.wait(timeout: .now() + .milliseconds(Int(keepAliveInterval.milliseconds)))
            } else {
                wake.wait()
            }
            let (changes, through, stopping) = pending.withLock { state in
                defer { state.changes.removeAll(keepingCapacity: true) }
                return (state.changes, state.through, state.stopping)
            }
            if lost {  // deposed: nothing more is written or acknowledged
                if stopping { break }
                continue
            }
            let batch = failing + changes
            let last = changes.isEmpty ? failingThrough : through
            let start = ContinuousClock.now
            do {
                if !batch.isEmpty {
                    try journal.withLock { try $0?.append(batch) }
                    measured(ContinuousClock.now - start, false)
                    failing = []
                    committed(last)
                } else if let keepAliveInterval, !stopping, troubled || start - lastWrite >= keepAliveInterval {
                    try journal.withLock { try $0?.keepAlive() }
                } else {
                    if stopping { break }
                    continue
                }
                lastWrite = ContinuousClock.now
                if troubled {
                    logger.info("journal writable again", ["changes": batch.count])
                    trouble(nil)
                    troubled = false
                }
            } catch let error as LeadershipLost {
                logger.error("lost the leadership: another coordinator leads; stepping down (nothing more is written or sent)",
                             ["error": error, "unacknowledged_changes": batch.count])
                lost = true
                failing = []
                deposed(error.description)
                if stopping { break }
                continue
            } catch {
                if !batch.isEmpty {
                    measured(ContinuousClock.now - start, true)
                    failing = batch
                    failingThrough = last
                }
                if !troubled {
                    logger.error("journal write failed; holding back what it covers and retrying every second", ["error": error])
                    trouble("\(error)")
                    troubled = true
                }
                if stopping { break }  // what is not durable is not acknowledged; a restart replays the rest
                continue
            }
            if stopping { break }
        }
        journal.withLock { $0 = nil }
        finished.signal()
    }

    /// Queues one event's changes for the next commit.
    func append(_ changes: [JobChange], sequence: UInt64) {
        pending.withLock { state in
            state.changes += changes
            state.through = sequence
        }
        wake.signal()
    }

    /// Commits what is queued, then ends the thread; returns when it has. Idempotent.
    func stop() {
        let first = pending.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }
}
