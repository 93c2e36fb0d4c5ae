import Foundation
import OCRBasics
import OCRZeroMQ
import Testing

/// State bound to a socket loop's thread: usable there, and a use from elsewhere stops the
/// process instead of racing (checked in a child process: Swift Testing's exit tests).
@Suite struct LoopBoundTests {
    @Test func onItsLoopTheValueReadsAndChanges() throws {
        let context = try ZMQContext()
        let loop = SocketLoop(context: context, name: "loop-bound-test")
        let counter = LoopBound(0, loop: loop)
        try loop.start { _ in counter.value += 1 }
        #expect(try loop.performAndWait { _ in counter.value += 1; return counter.value } == 2)
        loop.stop()
        context.terminate()
    }

    @Test func workFromAnotherThreadComesBackToTheLoop() throws {
        let context = try ZMQContext()
        let loop = SocketLoop(context: context, name: "loop-bound-test")
        let counter = LoopBound(0, loop: loop)
        try loop.start { _ in }
        let ran = DispatchSemaphore(value: 0)
        let onLoop = Locked<Bool?>(nil)
        #expect(counter.execute { value in
            onLoop.withLock { $0 = loop.isOnLoopThread }
            ran.signal()
        })
        ran.wait()
        #expect(onLoop.withLock { $0 } == true)
        loop.stop()
        #expect(!counter.execute { _ in Issue.record("ran after the loop stopped") })
        context.terminate()
    }

    @Test func offItsLoopItStopsTheProcess() async {
        // A precondition failure traps (SIGILL on x86-64, SIGTRAP on arm64), unlike a thrown error.
        await #expect(processExitsWith: .signal(preconditionTrap)) {
            let context = try ZMQContext()
            let loop = SocketLoop(context: context, name: "loop-bound-test")
            let counter = LoopBound(0, loop: loop)
            try loop.start { _ in }
            counter.value += 1  // The test's thread, not the loop's.
        }
    }
}

#if arch(x86_64)
private let preconditionTrap = SIGILL
#else
private let preconditionTrap = SIGTRAP
#endif
