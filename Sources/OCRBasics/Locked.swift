import Synchronization

/// A `Mutex` that closures and threads can share: `Mutex` cannot be copied or captured, so state
/// that several closures guard lives in one of these. `Sendable` is checked: `State` must be
/// `Sendable` itself.
package final class Locked<State: Sendable>: Sendable {
    private let mutex: Mutex<State>

    package init(_ state: State) {
        mutex = Mutex(state)
    }

    package func withLock<Result, Failure: Error>(_ body: (inout sending State) throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
}
