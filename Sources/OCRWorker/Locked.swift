import Foundation

/// State behind a lock, shared between threads. `NSLock` (a pthread mutex) rather than
/// `Synchronization.Mutex` so ThreadSanitizer on Linux can see the locking (as in OCRTransport).
final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `lock` held.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
