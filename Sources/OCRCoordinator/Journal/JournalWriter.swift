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
/// A journal that cannot be written stops the coordinator (fail-stop): carrying on would tell
/// clients about state that a restart would not have; the restart replays what was committed.
final class JournalWriter: Sendable {
    private struct Pending: Sendable {
        var changes: [JobChange] = []
        /// Sequence of the last batch in `changes`.
        var through: UInt64 = 0
        var stopping = false
    }

    /// The journal, touched only by the writer thread once `init` has returned.
    private final class Owned: @unchecked Sendable {
        let journal: Journal
        init(_ journal: Journal) { self.journal = journal }
    }

    private let pending = Mutex(Pending())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private let owned: Owned
    private let logger: Logger

    init(_ journal: Journal, logger: Logger) {
        owned = Owned(journal)
        self.logger = logger
    }

    /// Starts the writer thread (changes appended before are committed first). `committed` is
    /// called on that thread with the sequence of the last batch of each commit, in increasing
    /// order.
    func start(committed: @escaping @Sendable (UInt64) -> Void) {
        let thread = Thread { [self] in serve(owned, logger: logger, committed: committed) }
        thread.name = "ocr.coordinator.journal"
        thread.start()
    }

    private func serve(_ owned: Owned, logger: Logger, committed: @Sendable (UInt64) -> Void) {
        while true {
            wake.wait()
            let (changes, through, stopping) = pending.withLock { state in
                defer { state.changes.removeAll(keepingCapacity: true) }
                return (state.changes, state.through, state.stopping)
            }
            if !changes.isEmpty {
                do {
                    try owned.journal.append(changes)
                } catch {
                    logger.error("journal write failed; stopping", ["error": error])
                    fatalError("ocr-coordinator: journal write failed: \(error)")
                }
                committed(through)
            }
            if stopping { break }
        }
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
