import Dispatch
import Foundation
import Testing
import OCRZeroMQ
import Synchronization

// Shared by the test targets: waiting with a bound that only a failing test reaches, and a
// value shared between a test and the threads it starts.

/// Generous upper bound for anything that should take milliseconds; only hit when a test fails.
package let generous: DispatchTimeInterval = .seconds(20)

/// A value shared between the test thread and a loop thread.
package final class Box<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    package init(_ value: Value) { self.value = Mutex(value) }
    package func with<R: Sendable>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
    package var current: Value { value.withLock { $0 } }
}

/// Runs CPU-bound `body` on a thread of its own and awaits its value, so a long computation
/// does not hold one of the cooperative pool's threads (as many as cores) and starve the other
/// tests' waiting tasks.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Runs `body` on its own thread and waits for it at most `timeout`. Returns `false` (and
/// records an issue) if it did not finish: the test fails instead of hanging the suite.
@discardableResult
package func finishes(within timeout: DispatchTimeInterval = generous, _ what: String,
              sourceLocation: SourceLocation = #_sourceLocation,
              _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    if done.wait(timeout: .now() + timeout) == .timedOut {
        Issue.record("\(what) did not finish within \(timeout)", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// Waits for a semaphore with the generous timeout, recording an issue when it expires.
package func wait(_ semaphore: DispatchSemaphore, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if semaphore.wait(timeout: .now() + generous) == .timedOut {
        Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    }
}

extension ZMQSocket {
    /// A blocking receive that gives up after the generous timeout instead of hanging a test.
    package func receiveOrFail(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[UInt8]] {
        try set(.receiveTimeout(20_000))
        guard let frames = try receive() else {
            Issue.record("no message within 20 s", sourceLocation: sourceLocation)
            throw TransportError(code: .system, message: "test receive timed out")
        }
        return frames
    }
}

package func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
