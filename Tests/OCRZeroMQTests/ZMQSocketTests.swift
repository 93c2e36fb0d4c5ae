import Foundation
import OCRTestSupport
import Testing
@testable import OCRZeroMQ

@Suite("ZMQ sockets over real transports", .blocking)
struct ZMQSocketTests {
    @Test("ROUTER/DEALER round trip over tcp://127.0.0.1:* with the bound port read back")
    func routerDealerRoundTrip() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeSocket(.router)
        defer { router.close() }
        let endpoint = try router.bind("tcp://127.0.0.1:*")
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        let port = Int(endpoint.split(separator: ":").last ?? "")
        #expect(port != nil && port! > 0)

        let dealer = try context.makeSocket(.dealer)
        defer { dealer.close() }
        try dealer.set(.routingID(bytes("client-1")))
        #expect(try dealer.routingID() == bytes("client-1"))
        #expect(try dealer.connect(endpoint) == endpoint)

        #expect(try dealer.send([bytes("header"), bytes("payload")]))
        let request = try router.receiveOrFail()
        #expect(request == [bytes("client-1"), bytes("header"), bytes("payload")])

        #expect(try router.send([bytes("client-1"), bytes("reply"), []]))
        #expect(try dealer.receiveOrFail() == [bytes("reply"), []])
    }

    @Test("multipart messages keep empty and 1 MiB frames intact", arguments: ["inproc", "tcp"])
    func multipartFrames(transport: String) throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.makeSocket(.pull)
        defer { pull.close() }
        let endpoint = try pull.bind(transport == "tcp" ? "tcp://127.0.0.1:*" : "inproc://multipart")
        let push = try context.makeSocket(.push)
        defer { push.close() }
        try push.connect(endpoint)

        let big = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let message: [[UInt8]] = [[], big, [], [7], big.reversed(), []]
        try push.send(message)
        try push.send([[]])
        #expect(try pull.receiveOrFail() == message)
        #expect(try pull.receiveOrFail() == [[]])
    }

    @Test("frames over the threshold are kept uncopied, with their bytes and the message's framing intact")
    func keptFrames() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.makeSocket(.pull)
        defer { pull.close() }
        let endpoint = try pull.bind("tcp://127.0.0.1:*")
        let push = try context.makeSocket(.push)
        defer { push.close() }
        try push.connect(endpoint)

        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try push.send([[1, 2], big, [], big.reversed()])
        try push.send([[9]])
        try pull.set(.receiveTimeout(20_000))  // only a failing test waits this long
        let message = try #require(try pull.receive(keepingFramesOver: 1 << 20), "no message within 20 s")
        #expect(message.frames == [[1, 2], [], [], []], "kept frames leave an empty place")
        #expect(Set(message.kept.keys) == [1, 3])
        #expect(message.kept[1]?.count == big.count)
        #expect(message.kept[1]?.bytes() == big)
        #expect(message.kept[3]?.withUnsafeBytes { Array($0) } == big.reversed())
        // The frame after a kept last frame is the next message, not more of this one.
        #expect(try pull.receiveOrFail() == [[9]])
    }

    @Test("DONTWAIT: nothing to receive is nil, a DEALER without peers cannot send: false, not errors")
    func dontWaitIsAValue() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.makeSocket(.pull)
        defer { pull.close() }
        try pull.bind("inproc://empty")
        #expect(try pull.receive(dontWait: true) == nil)

        let dealer = try context.makeSocket(.dealer)
        defer { dealer.close(lingerMilliseconds: 0) }
        #expect(try dealer.send([bytes("nobody")], dontWait: true) == false)

        // A receive timeout is the same value.
        try pull.set(.receiveTimeout(10))
        #expect(try pull.receive() == nil)
    }

    @Test("ROUTER_MANDATORY turns an unknown identity into .hostUnreachable")
    func routerMandatory() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeSocket(.router)
        defer { router.close() }
        try router.set(.routerMandatory(true))
        try router.bind("inproc://mandatory")
        #expect {
            try router.send([bytes("ghost"), bytes("hello")])
        } throws: { ($0 as? TransportError)?.code == .hostUnreachable }
    }

    @Test("errors are typed: bad endpoint, address in use, closed socket")
    func typedErrors() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let a = try context.makeSocket(.router)
        defer { a.close() }
        #expect { try a.bind("nonsense") } throws: {
            let code = ($0 as? TransportError)?.code
            return code == .invalidArgument || code == .notSupported
        }
        let endpoint = try a.bind("tcp://127.0.0.1:*")
        let b = try context.makeSocket(.router)
        defer { b.close() }
        #expect { try b.bind(endpoint) } throws: { ($0 as? TransportError)?.code == .addressInUse }

        b.close()
        #expect(!b.isOpen)
        #expect { try b.send([[1]]) } throws: { ($0 as? TransportError)?.code == .closed }
        #expect { try b.receive(dontWait: true) } throws: { ($0 as? TransportError)?.code == .closed }
        #expect { try a.send([]) } throws: { ($0 as? TransportError)?.code == .invalidArgument }
    }

    @Test("options can be set and read back")
    func options() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.makeSocket(.router)
        defer { socket.close() }
        for option: SocketOption in [
            .linger(250), .receiveHighWaterMark(10), .sendHighWaterMark(10), .routerMandatory(true),
            .routerHandover(true), .maxMessageSize(4 << 20), .heartbeatInterval(1000),
            .heartbeatTimeout(3000), .heartbeatTTL(3000), .reconnectInterval(100),
            .reconnectIntervalMax(5000), .immediate(true), .sendTimeout(100), .zapDomain("ocr"),
        ] {
            try socket.set(option)
        }
        #expect(try socket.linger() == 250)
        #expect(try socket.lastEndpoint() == "")
    }

    @Test("the poller honours its timeout and reports readable sockets")
    func pollerTimeout() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.makeSocket(.pull)
        defer { pull.close() }
        try pull.bind("inproc://poll")
        let push = try context.makeSocket(.push)
        defer { push.close() }
        try push.connect("inproc://poll")

        let poller = ZMQPoller()
        #expect(poller.register(pull) == 0)
        let start = ContinuousClock.now
        #expect(try poller.poll(timeoutMilliseconds: 50) == 0)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(45))
        #expect(poller.events(at: 0).isEmpty)

        try push.send([bytes("ready")])
        #expect(try poller.poll(timeoutMilliseconds: 20_000) == 1)
        #expect(poller.events(at: 0).contains(.readable))
        #expect(try pull.receive(dontWait: true) == [bytes("ready")])

        poller.unregister(pull)
        #expect(poller.count == 0)
    }

    @Test("closing with undeliverable messages does not hang context termination")
    func closeWithPendingMessages() throws {
        let context = try ZMQContext()
        // Bound then abandoned: the DEALER queues messages for a peer that never reads.
        let dealer = try context.makeSocket(.dealer)
        try dealer.set(.linger(-1))  // "forever", overridden by close(lingerMilliseconds:)
        try dealer.connect("tcp://127.0.0.1:9")  // discard port: nobody completes the handshake
        var queued = 0
        while queued < 100, try dealer.send([bytes("pending \(queued)")], dontWait: true) { queued += 1 }
        #expect(queued > 0)
        dealer.close(lingerMilliseconds: 50)

        // A forgotten socket is closed with linger 0 by deinit.
        do {
            let forgotten = try context.makeSocket(.push)
            try forgotten.connect("tcp://127.0.0.1:9")
            _ = try forgotten.send([bytes("lost")], dontWait: true)
        }
        finishes("zmq_ctx_term") { context.terminate() }
        #expect { try context.makeSocket(.pair) } throws: { ($0 as? TransportError)?.code == .contextTerminated }
    }

    @Test("terminating the context wakes a blocked receive with .contextTerminated")
    func terminateWakesBlockedReceive() throws {
        let context = try ZMQContext()
        let outcome = Box<TransportError.Code?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                let pull = try context.makeSocket(.pull)
                try pull.bind("inproc://blocked")
                started.signal()
                do {
                    _ = try pull.receive()
                } catch {
                    outcome.with { $0 = (error as? TransportError)?.code }
                }
                pull.close()
            } catch {
                started.signal()
            }
        }
        thread.start()
        wait(started, "receiver thread")
        finishes("zmq_ctx_term") { context.terminate() }
        #expect(outcome.current == .contextTerminated)
    }

    @Test("CURVE key pairs and an encrypted round trip")
    func curve() throws {
        try #require(CurveKeyPair.isSupported)
        let server = try CurveKeyPair.generate()
        let client = try CurveKeyPair.generate()
        #expect(server.publicKey.z85.utf8.count == 40)
        #expect(server != client)
        #expect(try CurveKeyPair(secretKey: server.secretKey) == server)
        #expect(CurveKey(z85: "too short") == nil)
        #expect(CurveKey(z85: String(repeating: "\"", count: 40)) == nil)
        #expect(!server.secretKey.description.contains(server.secretKey.z85))

        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.makeSocket(.router)
        defer { router.close() }
        try router.set(.curveServer(secretKey: server.secretKey))
        let endpoint = try router.bind("tcp://127.0.0.1:*")
        let dealer = try context.makeSocket(.dealer)
        defer { dealer.close() }
        try dealer.set(.curveClient(serverKey: server.publicKey, keyPair: client))
        try dealer.connect(endpoint)
        try dealer.send([bytes("secret")])
        let frames = try router.receiveOrFail()
        #expect(frames.count == 2 && frames[1] == bytes("secret"))
    }
}

@Suite("ZAP: CURVE allow-lists")
struct ZAPTests {
    @Test("listed clients get through, others are refused at the handshake")
    func allowList() throws {
        try #require(CurveKeyPair.isSupported)
        let server = try CurveKeyPair.generate()
        let allowed = try CurveKeyPair.generate()
        let stranger = try CurveKeyPair.generate()
        let context = try ZMQContext()
        defer { context.terminate() }

        let decisions = Box<[CurveKey: Bool]>([:])
        let strangerRefused = DispatchSemaphore(value: 0)
        let received = Box<[[[UInt8]]]>([])
        let gotMessage = DispatchSemaphore(value: 0)
        let list = CurveAllowList([allowed.publicKey])
        let loop = SocketLoop(context: context, name: "test.zap")
        let endpoint = try loop.start { control in
            try ZAPHandler.install(on: control) { request in
                let ok = list.allows(request)
                if let key = request.clientKey { decisions.with { $0[key] = ok } }
                if request.clientKey == stranger.publicKey { strangerRefused.signal() }
                return ok ? .allow : .deny("not allowed")
            }
            let router = try control.context.makeSocket(.router)
            try router.set(.curveServer(secretKey: server.secretKey))
            let endpoint = try router.bind("tcp://127.0.0.1:*")
            control.register(router) { _, _, frames in
                received.with { $0.append(frames) }
                gotMessage.signal()
            }
            return endpoint
        }
        defer { loop.stop() }

        let bad = try context.makeSocket(.dealer)
        defer { bad.close(lingerMilliseconds: 0) }
        try bad.set(.curveClient(serverKey: server.publicKey, keyPair: stranger))
        try bad.connect(endpoint)
        _ = try bad.send([bytes("let me in")], dontWait: true)
        wait(strangerRefused, "the stranger's handshake")

        let good = try context.makeSocket(.dealer)
        defer { good.close() }
        try good.set(.curveClient(serverKey: server.publicKey, keyPair: allowed))
        try good.connect(endpoint)
        try good.send([bytes("hello")])
        wait(gotMessage, "the allowed client's message")

        #expect(decisions.current[stranger.publicKey] == false)
        #expect(decisions.current[allowed.publicKey] == true)
        #expect(received.current.map { $0.last! } == [bytes("hello")])
    }

    @Test("malformed ZAP requests are refused, not trusted", arguments: [
        [[UInt8]](),
        [Array("1.0".utf8), [1]],
        [Array("2.0".utf8), [1], [], [], [], Array("CURVE".utf8), [UInt8](repeating: 0, count: 32)],
        [Array("1.0".utf8), [1], [], [], [], Array("CURVE".utf8), [1, 2, 3]],
    ])
    func malformed(frames: [[UInt8]]) {
        let reply = ZAPHandler.answer(frames) { _ in .allow }
        #expect(reply.count == 6)
        #expect(reply[2] == bytes("500"))
    }

    @Test("raw 32-byte keys and Z85 text describe the same key")
    func keyForms() throws {
        let pair = try CurveKeyPair.generate()
        #expect(CurveKey(bytes: [UInt8](repeating: 0, count: 31)) == nil)
        let zero = try #require(CurveKey(bytes: [UInt8](repeating: 0, count: 32)))
        #expect(zero.z85 == String(repeating: "0", count: 40))
        #expect(pair.publicKey != zero)
    }
}
