import OCRBasics
import Foundation
import OCRTestSupport
import Testing
import OCRWire
@testable import OCRRPC
@testable import OCRZeroMQ

/// The gRPC-style client link end to end: a real RPCServer and RPCClient over tcp://127.0.0.1.
@Suite(.blocking) struct RPCTests {
    /// A server with: Health (unary), WatchJob (streams `from_page` events then ends),
    /// GetJob (never answers: for deadlines and cancel), ListJobs (answers from another thread).
    final class Harness: Sendable {
        let context: ZMQContext
        let loop: SocketLoop
        let endpoint: String
        let cancelled = Locked<[String]>([])
        /// Calls of the never-ending watch the server has received.
        let watching = Locked<Int>(0)

        init() throws {
            context = try ZMQContext()
            loop = SocketLoop(context: context, name: "test.rpc-server")
            let cancelled = self.cancelled
            let watching = self.watching
            endpoint = try loop.start { control in
                let server = try RPCServer(bind: "tcp://127.0.0.1:*", control: control,
                                           streamingMethods: [CoordinatorMethod.watchJob.rawValue])
                server.handle(CoordinatorMethod.health.rawValue) { call in
                    guard call.request(as: HealthCheckRequest.self) != nil else { return }
                    call.respond(HealthCheckResponse.with { $0.status = .serving })
                }
                server.handle(CoordinatorMethod.watchJob.rawValue) { call in
                    guard let request = call.request(as: WatchJobRequest.self) else { return }
                    if request.jobId == "forever" {
                        call.onCancel { cancelled.withLock { $0.append(call.method) } }
                        watching.withLock { $0 += 1 }
                        return
                    }
                    for i in 0..<Int(request.fromPage) {
                        call.send(JobEvent.with { $0.jobId = request.jobId; $0.sequence = UInt64(i + 1) })
                    }
                    call.finish()
                }
                server.handle(CoordinatorMethod.getJob.rawValue) { call in
                    call.onCancel { cancelled.withLock { $0.append(call.method) } }
                }
                // Decodes off the loop, as the coordinator does; says whether the payload was kept.
                server.handle(CoordinatorMethod.submitJob.rawValue) { call in
                    Thread.detachNewThread {
                        let payload = call.payload
                        guard let request = try? payload.decode(as: SubmitJobRequest.self) else {
                            call.fail(OCRError(.invalidArgument, "does not parse"))
                            return
                        }
                        let kept = if case .kept = payload { true } else { false }
                        call.respond(SubmitJobResponse.with {
                            $0.jobId = "kept=\(kept) bytes=\(request.files.map(\.content.count)) sum=\(request.files.first.map { $0.content.reduce(0) { $0 &+ Int($1) } } ?? 0)"
                        })
                    }
                }
                server.handle(CoordinatorMethod.cancelJob.rawValue) { call in
                    call.fail(OCRError(.resourceExhausted, "the queue is full"))
                }
                server.handle(CoordinatorMethod.deleteJob.rawValue) { call in
                    call.fail(OCRError(.unavailable, "busy", details: ["retry_after_ms": "250"]))
                }
                server.handle(CoordinatorMethod.listJobs.rawValue) { call in
                    Thread.detachNewThread {
                        call.respond(ListJobsResponse.with { $0.jobs = [Job.with { $0.jobId = "from-a-thread" }] })
                    }
                }
                // Keep the server alive as long as the loop.
                control.schedule(after: .seconds(3600)) { _ in _ = server }
                return server.endpoint
            }
        }

        deinit {
            loop.stop()
            context.terminate()
        }
    }

    @Test func unaryCallAnswers() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        let bytes = try await client.unary(CoordinatorMethod.health.rawValue, request: [])
        #expect(try HealthCheckResponse(serializedBytes: bytes).status == .serving)
        let list = try await client.unary(CoordinatorMethod.listJobs.rawValue, request: [])
        #expect(try ListJobsResponse(serializedBytes: list).jobs.map(\.jobId) == ["from-a-thread"])
    }

    @Test func refusalsThatPassSayWhenToTryAgain() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        let full = await #expect(throws: OCRError.self) { _ = try await client.unary(CoordinatorMethod.cancelJob.rawValue, request: []) }
        #expect(full?.code == .resourceExhausted && full?.details["retry_after_ms"] == "5000", "\(String(describing: full))")
        let busy = await #expect(throws: OCRError.self) { _ = try await client.unary(CoordinatorMethod.deleteJob.rawValue, request: []) }
        #expect(busy?.details["retry_after_ms"] == "250", "the handler's own hint is kept")
        let bad = await #expect(throws: OCRError.self) { _ = try await client.unary(CoordinatorMethod.health.rawValue, request: [0x0A, 0x05, 0x41]) }
        #expect(bad?.code == .invalidArgument && bad?.details["retry_after_ms"] == nil, "no hint where retrying cannot help")
    }

    @Test func unknownMethodIsUnimplemented() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        await #expect(throws: OCRError(.unimplemented, "unknown method /ocr.v1.Coordinator/Nope", page: nil)) {
            _ = try await client.unary("/ocr.v1.Coordinator/Nope", request: [])
        }
    }

    @Test func requestThatDoesNotParseIsInvalidArgument() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        do {
            _ = try await client.unary(CoordinatorMethod.health.rawValue, request: [0x0A, 0x05, 0x41])  // truncated string
            Issue.record("expected INVALID_ARGUMENT")
        } catch let error as OCRError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("HealthCheckRequest"))
        }
    }

    @Test func aLargeRequestReachesItsHandlerUncopiedAndDecodesInPlace() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        let content = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let sum = content.reduce(0) { $0 &+ Int($1) }
        let large = SubmitJobRequest.with { $0.files = [InputFile.with { $0.name = "big.tif"; $0.content = content }] }
        let answer = try SubmitJobResponse(serializedBytes: try await client.unary(CoordinatorMethod.submitJob.rawValue,
                                                                                   request: large.serializedBytes()))
        #expect(answer.jobId == "kept=true bytes=[\(content.count)] sum=\(sum)")
        let small = SubmitJobRequest.with { $0.files = [InputFile.with { $0.name = "a.tif"; $0.content = [1, 2, 3] }] }
        let smallAnswer = try SubmitJobResponse(serializedBytes: try await client.unary(CoordinatorMethod.submitJob.rawValue,
                                                                                        request: small.serializedBytes()))
        #expect(smallAnswer.jobId == "kept=false bytes=[3] sum=6")
    }

    @Test func aLargeRequestToAMethodThatDecodesOnTheLoopIsRefused() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        // A valid HealthCheckRequest padded with an unknown 2 MB field: the loop must not copy it.
        var padded: [UInt8] = [0xFA, 0x01]  // field 31, length-delimited
        var length = 2 << 20
        while length >= 0x80 { padded.append(UInt8(length & 0x7F) | 0x80); length >>= 7 }
        padded.append(UInt8(length))
        padded += [UInt8](repeating: 0, count: 2 << 20)
        do {
            _ = try await client.unary(CoordinatorMethod.health.rawValue, request: padded)
            Issue.record("expected INVALID_ARGUMENT")
        } catch let error as OCRError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("too large for this method"), "\(error.message)")
        }
    }

    @Test func streamDeliversInOrderThenEnds() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        let request = WatchJobRequest.with { $0.jobId = "j"; $0.fromPage = 50 }
        var sequences: [UInt64] = []
        for try await bytes in client.serverStream(CoordinatorMethod.watchJob.rawValue, request: request.serializedBytes()) {
            sequences.append(try JobEvent(serializedBytes: bytes).sequence)
        }
        #expect(sequences == Array(1...50))
    }

    @Test func deadlineEndsACallTheServerNeverAnswers() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        // The error (its code and the 200 ms it names) shows that the deadline ended the call;
        // how soon is for `make bench`, not a unit test.
        await #expect(throws: OCRError(.deadlineExceeded, "deadline of 200 ms exceeded")) {
            _ = try await client.unary(CoordinatorMethod.getJob.rawValue, request: [], timeout: .milliseconds(200))
        }
        try await waitUntil { h.cancelled.withLock { $0 } == [CoordinatorMethod.getJob.rawValue] }
    }

    @Test func abandoningAStreamSendsCancelToTheServer() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        let request = WatchJobRequest.with { $0.jobId = "forever" }
        let task = Task {
            for try await _ in client.serverStream(CoordinatorMethod.watchJob.rawValue, request: request.serializedBytes()) {}
        }
        // Cancelled once the server has the call (a fixed sleep lost that race on a busy machine:
        // a call cancelled before it is sent has nothing to cancel on the server).
        try await waitUntil { h.watching.withLock { $0 } == 1 }
        task.cancel()
        try await waitUntil { h.cancelled.withLock { $0 } == [CoordinatorMethod.watchJob.rawValue] }
    }

    @Test func whenTheServerGoesAwayCallsInFlightFailWithUnavailableAtOnce() async throws {
        let h = try Harness()
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        // Connected, with a stream and a unary call that the server will never answer, each
        // allowed a minute of silence.
        _ = try await client.unary(CoordinatorMethod.health.rawValue, request: [])
        let stream = Task {
            let request = WatchJobRequest.with { $0.jobId = "forever" }
            for try await _ in client.serverStream(CoordinatorMethod.watchJob.rawValue, request: request.serializedBytes(),
                                                   idleTimeout: .seconds(60)) {}
        }
        let unary = Task { try await client.unary(CoordinatorMethod.getJob.rawValue, request: [], timeout: .seconds(60)) }
        try await waitUntil { h.cancelled.withLock { $0 }.isEmpty && client.debugPendingCalls() == 2 }
        h.loop.stop()  // closes the server's socket: the TCP connection drops
        for outcome in [await stream.result.map { _ in [UInt8]() }, await unary.result] {
            guard case .failure(let error as OCRError) = outcome else {
                Issue.record("expected UNAVAILABLE, got \(outcome)")
                continue
            }
            // "was lost" is the socket monitor's verdict, not the minute's timeout running out.
            #expect(error.code == .unavailable)
            #expect(error.message.contains("was lost"), "\(error)")
        }
    }

    @Test func silenceFromAnAbsentServerIsUnavailable() async throws {
        // Bind and close a socket to find a port nobody listens on.
        let context = try ZMQContext()
        let probe = try context.makeSocket(.router)
        let endpoint = try probe.bind("tcp://127.0.0.1:*")
        probe.close(lingerMilliseconds: 0)
        context.terminate()
        let client = try RPCClient(endpoint: endpoint)
        defer { client.close() }
        do {
            _ = try await client.unary(CoordinatorMethod.health.rawValue, request: [], timeout: .milliseconds(300))
            Issue.record("expected UNAVAILABLE")
        } catch let error as OCRError {
            #expect(error.code == .unavailable)
            #expect(error.message.contains(endpoint))
        }
    }

    @Test func garbageFramesGetInvalidArgumentAndTheServerKeepsServing() async throws {
        let h = try Harness()
        let context = try ZMQContext()
        defer { context.terminate() }
        let raw = try context.makeSocket(.dealer)
        defer { raw.close(lingerMilliseconds: 0) }
        try raw.set(.receiveTimeout(5000))
        _ = try raw.connect(h.endpoint)
        for bad in [[[0xFF, 0xFF]], [[0x08], [], []], [[0xFF, 0xFF], []]] as [[[UInt8]]] {
            _ = try raw.send(bad)
            let reply = try #require(try raw.receive())
            let header = try RpcHeader(serializedBytes: reply[0])
            #expect(header.kind == .response)
            #expect(header.status?.code == .invalidArgument)
        }
        let client = try RPCClient(endpoint: h.endpoint)
        defer { client.close() }
        _ = try await client.unary(CoordinatorMethod.health.rawValue, request: [])
    }
}

/// Waits for something the test caused to be seen. The limit only ends a wait that would never
/// end: CI starts every suite at once on two cores, where 5 s was once not enough for a cancel
/// frame to cross a loopback socket, so it is far above any healthy wait.
func waitUntil(timeout: Duration = .seconds(60), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(timeout)")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
