import Foundation
import OCRTestSupport
import Testing
@testable import OCRZeroMQ

@Suite("SocketLoop: one thread owns the sockets", .blocking)
struct SocketLoopTests {
    @Test("setup runs on the loop thread and returns the bound endpoint; a DEALER talks to it")
    func startReturnsSetupValue() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let received = Box<[[[UInt8]]]>([])
        let loop = SocketLoop(context: context, name: "test.echo")
        let (routerID, endpoint) = try loop.start { control in
            #expect(control.loop.isOnLoopThread)
            let router = try control.context.makeSocket(.router)
            let endpoint = try router.bind("tcp://127.0.0.1:*")
            let id = control.register(router) { control, id, frames in
                received.with { $0.append(frames) }
                // Echo back, on the loop thread.
                _ = try? control.send(frames, on: id)
            }
            return (id, endpoint)
        }
        defer { loop.stop() }
        #expect(!loop.isOnLoopThread)

        let dealer = try context.makeSocket(.dealer)
        defer { dealer.close() }
        try dealer.set(.routingID(bytes("d1")))
        try dealer.connect(endpoint)
        try dealer.send([bytes("ping")])
        #expect(try dealer.receiveOrFail() == [bytes("ping")])
        #expect(received.current == [[bytes("d1"), bytes("ping")]])

        // Sending from this (non-loop) thread goes through the queue and the wake-up.
        #expect(loop.send([bytes("d1"), bytes("pushed")], on: routerID))
        #expect(try dealer.receiveOrFail() == [bytes("pushed")])
    }

    @Test("10,000 messages submitted from 4 threads: none lost, each sender's order kept")
    func concurrentSubmissions() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let senders = 4, perSender = 2_500
        let received = Box<[[Int]]>(Array(repeating: [], count: senders))
        let dropped = Box(0)
        let allIn = DispatchSemaphore(value: 0)
        let loop = SocketLoop(context: context, name: "test.concurrent") { _ in dropped.with { $0 += 1 } }
        let pushID = try loop.start { control in
            let pull = try control.context.makeSocket(.pull)
            try pull.set(.receiveHighWaterMark(0))
            try pull.bind("inproc://sink")
            control.register(pull) { _, _, frames in
                let sender = Int(frames[0][0])
                let sequence = frames[1].withUnsafeBytes { $0.loadUnaligned(as: Int.self) }
                let total = received.with { lists in
                    lists[sender].append(sequence)
                    return lists.reduce(0) { $0 + $1.count }
                }
                if total == senders * perSender { allIn.signal() }
            }
            let push = try control.context.makeSocket(.push)
            try push.set(.sendHighWaterMark(0))
            try push.connect("inproc://sink")
            return control.register(push) { _, _, _ in }
        }
        defer { loop.stop() }

        let threadsDone = DispatchGroup()
        for sender in 0..<senders {
            threadsDone.enter()
            let thread = Thread {
                for sequence in 0..<perSender {
                    let ok = loop.send([[UInt8(sender)], withUnsafeBytes(of: sequence) { Array($0) }], on: pushID)
                    if !ok { Issue.record("submission refused") }
                }
                threadsDone.leave()
            }
            thread.start()
        }
        #expect(threadsDone.wait(timeout: .now() + generous) == .success)
        wait(allIn, "all 10,000 messages")
        #expect(dropped.current == 0)
        for list in received.current {
            #expect(list == Array(0..<perSender))
        }
    }

    @Test("async callers: perform returns values from the loop thread, concurrently")
    func asyncPerform() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let loop = SocketLoop(context: context, name: "test.async")
        let counterSocket = try loop.start { control in
            let pull = try control.context.makeSocket(.pull)
            try pull.bind("inproc://async")
            return control.register(pull) { _, _, _ in }
        }
        defer { loop.stop() }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<200 {
                group.addTask {
                    try await loop.perform { control in
                        precondition(control.loop.isOnLoopThread)
                        return control.socket(counterSocket) != nil ? i : -1
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<200))
    }

    @Test("timers: repeating ticks, cancelled timers never fire, deadlines fire in order")
    func timers() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let events = Box<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let loop = SocketLoop(context: context, name: "test.timers")
        try loop.start { control in
            var ticks = 0
            var repeating: TimerID?
            repeating = control.scheduleRepeating(every: .milliseconds(5)) { control in
                ticks += 1
                events.with { $0.append("tick") }
                if ticks == 3, let repeating { control.cancelTimer(repeating) }
            }
            let cancelled = control.schedule(after: .milliseconds(20)) { _ in events.with { $0.append("cancelled") } }
            #expect(control.cancelTimer(cancelled))
            control.schedule(after: .milliseconds(30)) { _ in events.with { $0.append("first") } }
            control.schedule(after: .milliseconds(60)) { _ in
                events.with { $0.append("second") }
                done.signal()
            }
        }
        defer { loop.stop() }
        wait(done, "the last timer")
        // Give a wrongly surviving repeating timer a chance to show up.
        let extra = try loop.performAndWait { _ in 0 }
        #expect(extra == 0)
        let seen = events.current
        #expect(seen.filter { $0 == "tick" }.count == 3)
        #expect(!seen.contains("cancelled"))
        #expect(seen.firstIndex(of: "first")! < seen.firstIndex(of: "second")!)
    }

    @Test("a loop kept busy past a timer's deadline reads the message that came meanwhile before the timer runs")
    func inputBeforeOverdueTimers() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let events = Box<[String]>([])
        let errors = Box<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let loop = SocketLoop(context: context, name: "test.starved") { error in errors.with { $0.append("\(error)") } }
        try loop.start { control in
            let pull = try control.context.makeSocket(.pull)
            try pull.bind("inproc://starved")
            control.register(pull) { _, _, _ in events.with { $0.append("message") } }
            // A socket that only sends is never read (receiving on it is an error).
            let sender = try control.context.makeSocket(.push)
            try sender.connect("inproc://starved")
            control.register(sender) { _, _, _ in }
        }
        defer { loop.stop() }
        let push = try context.makeSocket(.push)
        defer { push.close() }
        try push.connect("inproc://starved")
        let busy = DispatchSemaphore(value: 0), sent = DispatchSemaphore(value: 0)
        // The loop thread held past a timer's deadline (a process starved of CPU), and the
        // peer's message sent while it is: a heartbeat check due while the loop is busy.
        #expect(loop.execute { control in
            // Due at once: overdue by the time this work returns.
            control.schedule(after: .zero) { _ in
                events.with { $0.append("timer") }
                done.signal()
            }
            busy.signal()
            _ = sent.wait(timeout: .now() + 30)
        })
        wait(busy, "the loop to be busy")
        try push.send([bytes("heartbeat")])
        sent.signal()
        wait(done, "the timer")
        #expect(events.current == ["message", "timer"])
        #expect(errors.current.isEmpty)
    }

    @Test("stop runs work submitted before it, then refuses work and closes the sockets")
    func stopDrainsThenRefuses() async throws {
        let context = try ZMQContext()
        let ran = Box(0)
        let loop = SocketLoop(context: context, name: "test.stop")
        let id = try loop.start { control in
            let router = try control.context.makeSocket(.router)
            try router.bind("tcp://127.0.0.1:*")
            return control.register(router) { _, _, _ in }
        }
        for _ in 0..<100 { loop.execute { _ in ran.with { $0 += 1 } } }
        loop.stop()
        #expect(ran.current == 100)
        #expect(!loop.execute { _ in ran.with { $0 += 1 } })
        #expect(!loop.send([[1], [2]], on: id))
        await #expect(throws: TransportError.loopStopped) { try await loop.perform { _ in 1 } }
        #expect(throws: TransportError.loopStopped) { try loop.performAndWait { _ in 1 } }
        loop.stop()  // idempotent
        finishes("zmq_ctx_term after stop") { context.terminate() }
    }

    @Test("a handler can stop its own loop; performAndWait on the loop thread is refused")
    func stopFromHandler() throws {
        let context = try ZMQContext()
        let refused = Box<TransportError.Code?>(nil)
        let stopRequested = DispatchSemaphore(value: 0)
        let loop = SocketLoop(context: context, name: "test.self-stop")
        try loop.start { control in
            control.schedule(after: .zero) { control in
                do { _ = try control.loop.performAndWait { _ in 0 } } catch { refused.with { $0 = (error as? TransportError)?.code } }
                control.loop.stop()  // only requests the stop on the loop thread
                stopRequested.signal()
            }
        }
        wait(stopRequested, "the timer")
        #expect(!loop.execute { _ in })
        finishes("loop stopping itself") { loop.stop() }
        #expect(refused.current == .invalidState)
        finishes("zmq_ctx_term") { context.terminate() }
    }

    @Test("a failing setup is rethrown by start and leaves nothing open")
    func failingSetup() throws {
        let context = try ZMQContext()
        let loop = SocketLoop(context: context, name: "test.failing")
        #expect { try loop.start { control in
            let socket = try control.context.makeSocket(.router)
            control.register(socket) { _, _, _ in }
            try socket.bind("bogus://endpoint")
        } } throws: { $0 is TransportError }
        #expect(!loop.execute { _ in })
        #expect { try loop.start { _ in } } throws: { ($0 as? TransportError)?.code == .invalidState }
        finishes("zmq_ctx_term") { context.terminate() }
    }

    @Test("terminating the context ends a loop that was never stopped")
    func terminateEndsLoop() throws {
        let context = try ZMQContext()
        let loop = SocketLoop(context: context, name: "test.terminate")
        try loop.start { control in
            let pull = try control.context.makeSocket(.pull)
            try pull.bind("inproc://t")
            control.register(pull) { _, _, _ in }
        }
        finishes("zmq_ctx_term with a running loop") { context.terminate() }
        finishes("stop after termination") { loop.stop() }
    }

    @Test("replacing a socket from a handler (reconnect with a fresh socket)")
    func replaceSocket() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let server = try context.makeSocket(.router)
        defer { server.close() }
        let endpoint = try server.bind("tcp://127.0.0.1:*")
        let reported = Box<[TransportError.Code]>([])
        let loop = SocketLoop(context: context, name: "test.reconnect") { error in reported.with { $0.append(error.code) } }
        let first = try loop.start { control in
            let dealer = try control.context.makeSocket(.dealer)
            try dealer.set(.routingID(bytes("old")))
            try dealer.connect(endpoint)
            return control.register(dealer) { _, _, _ in }
        }
        defer { loop.stop() }
        let second = try loop.performAndWait { control in
            control.close(first, lingerMilliseconds: 0)
            let dealer = try control.context.makeSocket(.dealer)
            try dealer.set(.routingID(bytes("new")))
            try dealer.connect(endpoint)
            return control.register(dealer) { _, _, _ in }
        }
        #expect(first != second)
        // A fire-and-forget send to the closed socket is accepted, then reported, not a crash.
        #expect(loop.send([bytes("x")], on: first))
        _ = try loop.performAndWait { _ in }  // everything submitted before has run
        #expect(reported.current == [.closed])
        // A DEALER that has not completed its connection refuses a send (EAGAIN): try until it
        // takes it (bounded), then the message must arrive from the new identity.
        var sent = false
        for _ in 0..<2_000 where !sent {
            sent = try loop.performAndWait { control in try control.send([bytes("hello")], on: second) }
            if !sent { Thread.sleep(forTimeInterval: 0.01) }
        }
        try #require(sent, "the new DEALER never connected")
        #expect(try server.receiveOrFail() == [bytes("new"), bytes("hello")])
    }
}
