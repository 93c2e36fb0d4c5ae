import Foundation

/// State behind a lock, shared between threads.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer on Linux cannot see `Mutex`'s
/// futex-based locking and reports every guarded access as a race (checked with this toolchain,
/// Swift 6.3); `NSLock` is a pthread mutex, which TSan understands. Keeping the transport
/// TSan-clean lets the coordinator, worker and client run their tests under `--sanitize=thread`.
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `lock` held.
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
