import Foundation

/// Runs blocking `body` (disk, starting engines, joining threads) on a thread of its own and
/// awaits its result, so that it never holds one of Swift's cooperative threads: there are only
/// as many as cores, and every task of the process waits while one is blocked.
package func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// `onThreadOfItsOwn` for work that cannot fail.
package func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
