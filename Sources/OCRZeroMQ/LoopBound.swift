/// A value that belongs to one `SocketLoop`'s thread, as swift-nio's `NIOLoopBound`: `Sendable`
/// so that the closures the loop runs can carry it there, and checked on every access, so a use
/// from any other thread stops the process with a message instead of racing silently. It
/// replaces classes marked `@unchecked Sendable` on the promise that only the loop touches them.
package final class LoopBound<Value>: @unchecked Sendable {
    // @unchecked: `stored` is read and written only on `loop`'s thread, which `value` checks.
    private var stored: Value
    private let loop: SocketLoop

    /// Binds `value` to `loop`. It may be made on any thread (before the loop starts); it may
    /// be used only on the loop's.
    package init(_ value: Value, loop: SocketLoop) {
        stored = value
        self.loop = loop
    }

    /// The value; a precondition failure off the loop's thread.
    package var value: Value {
        get {
            precondition(loop.isOnLoopThread, "a \(Value.self) of \(loop.name) used off its loop thread")
            return stored
        }
        _modify {
            precondition(loop.isOnLoopThread, "a \(Value.self) of \(loop.name) used off its loop thread")
            yield &stored
        }
    }
}

extension LoopBound {
    /// Runs `body` with the value on the loop's thread, from any thread: how work done elsewhere
    /// (a pool, the journal's thread) comes back to loop-bound state. False when the loop has
    /// stopped (`body` is dropped).
    @discardableResult
    package func execute(_ body: @escaping @Sendable (Value) -> Void) -> Bool {
        loop.execute { _ in body(self.value) }
    }
}
