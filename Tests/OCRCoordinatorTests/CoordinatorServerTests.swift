import Foundation
import OCRPages
import OCRTestSupport
import Synchronization
import Testing
import OCRClient
import OCRLog
import OCRZeroMQ
import OCRWire
@testable import OCRCoordinator

/// The coordinator shell over real sockets on 127.0.0.1: a real CoordinatorServer, the real
/// OCRClient, and `ScriptedWorker`, a stand-in worker that answers tasks from a script (the real
/// ocr-worker is tested in the cluster tests).
@Suite(.serialized, .blocking) struct CoordinatorServerTests {
    /// Each file is one page per line of its text content ("a\nb" is two pages).
    static let lineSplitter: @Sendable (InputFile) throws -> [PageDescriptor] = { file in
        let text = String(decoding: file.content, as: UTF8.self)
        if text.hasPrefix("CORRUPT") { throw OCRError(.invalidArgument, "not an image", file: file.name) }
        return text.split(separator: "\n").enumerated().map { i, line in
            PageDescriptor(file: file.name, filePage: i + 1, content: Array(line.utf8), format: .png)
        }
    }

    static func makeServer(liveness: Int = 3, heartbeat: Duration = .milliseconds(200)) throws -> CoordinatorServer {
        var config = CoordinatorConfiguration(splitter: lineSplitter, logger: .disabled)
        config.clientEndpoint = "tcp://127.0.0.1:*"
        config.workerEndpoint = "tcp://127.0.0.1:*"
        config.scheduler.heartbeatInterval = heartbeat
        config.scheduler.liveness = liveness
        return try CoordinatorServer(config)
    }

    static func file(_ name: String, _ pages: [String]) -> InputFile {
        InputFile.with { $0.name = name; $0.content = Array(pages.joined(separator: "\n").utf8) }
    }

    @Test func pagesComeBackInOrderFromTwoWorkers() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let workers = try (0..<2).map { _ in try ScriptedWorker(endpoint: server.workerEndpoint, slots: 2) }
        defer { workers.forEach { $0.stop() } }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }

        let pages = (1...20).map { "page \($0)" }
        let job = try await client.submit(inputs: [Self.file("a.txt", Array(pages[..<12])), Self.file("b.txt", Array(pages[12...]))])
        #expect(job.pageCount == 20)
        let document = try await client.document(for: job)
        #expect(document.recognizedPages.map(\.text) == pages)
        #expect(document.recognizedPages.map(\.pageIndex) == Array(0..<20))
        #expect(document.recognizedPages[12].file == "b.txt" && document.recognizedPages[12].filePage == 1)
        #expect(workers.allSatisfy { $0.tasksDone > 0 })
        let finished = try await client.job(job.jobId)
        #expect(finished.state == .succeeded)
        let status = try await client.clusterStatus()
        #expect(status.workers.count == 2)
        #expect(status.totalSlots == 4)
        #expect(try await client.health() == .serving)
    }

    @Test func badFileIsRefusedNamingItAndOthersKeepWorking() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let worker = try ScriptedWorker(endpoint: server.workerEndpoint, slots: 1)
        defer { worker.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        do {
            _ = try await client.submit(inputs: [Self.file("good.txt", ["x"]), Self.file("bad.tif", ["CORRUPT"])])
            Issue.record("expected INVALID_ARGUMENT")
        } catch let error as OCRError {
            #expect(error.code == .invalidArgument)
            #expect(error.file == "bad.tif")
        }
        do {
            _ = try await client.submit(inputs: [Self.file("empty.tif", [])])
            Issue.record("expected INVALID_ARGUMENT")
        } catch let error as OCRError {
            #expect(error.code == .invalidArgument)
            #expect(error.file == "empty.tif")
        }
        let job = try await client.submit(inputs: [Self.file("ok.txt", ["fine"])])
        #expect(try await client.document(for: job).recognizedPages.map(\.text) == ["fine"])
    }

    @Test func failingPageMakesJobPartialAndTheRestIsIntact() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let worker = try ScriptedWorker(endpoint: server.workerEndpoint, slots: 2) { task in
            task.pageIndex == 2 ? OCRError(.invalidArgument, "cannot decode", file: task.file, page: Int(task.pageIndex)) : nil
        }
        defer { worker.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        let job = try await client.submit(inputs: [Self.file("scan.tif", ["p1", "p2", "p3", "p4"])])
        let document = try await client.document(for: job)
        #expect(document.recognizedPages.map(\.text) == ["p1", "p2", "p4"])
        #expect(document.gaps.map(\.pageIndex) == [2])
        #expect(document.gaps.first?.error?.code == .invalidArgument)
        #expect(document.gaps.first?.error?.file == "scan.tif")
        #expect(try await client.job(job.jobId).state == .partial)
    }

    @Test func deadWorkersPagesAreRequeuedToAnother() async throws {
        let server = try Self.makeServer(liveness: 2, heartbeat: .milliseconds(100))
        defer { server.stop() }
        // The first worker takes tasks and goes silent (no results, no heartbeats).
        let silent = try ScriptedWorker(endpoint: server.workerEndpoint, slots: 2, silent: true)
        defer { silent.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        let job = try await client.submit(inputs: [Self.file("s.tif", ["a", "b", "c"])])
        try await Task.sleep(for: .milliseconds(100))
        let healthy = try ScriptedWorker(endpoint: server.workerEndpoint, slots: 2)
        defer { healthy.stop() }
        let document = try await client.document(for: job)
        #expect(document.recognizedPages.map(\.text) == ["a", "b", "c"])
        #expect(document.recognizedPages.contains { $0.attempt == 2 })
    }

    @Test func watchReplaysFromPageAndUnknownJobIsNotFound() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let worker = try ScriptedWorker(endpoint: server.workerEndpoint, slots: 2)
        defer { worker.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        let job = try await client.submit(inputs: [Self.file("r.tif", ["a", "b", "c", "d"])])
        _ = try await client.document(for: job)
        var replayed: [UInt32] = []
        for try await event in client.events(for: job, fromPage: 2) {
            if let page = event.pageCompleted?.result { replayed.append(page.pageIndex) }
        }
        #expect(replayed == [2, 3])
        do {
            for try await _ in client.events(forJobID: "job-nope") {}
            Issue.record("expected NOT_FOUND")
        } catch let error as OCRError {
            #expect(error.code == .notFound)
        }
    }

    @Test func cancelStopsQueuedPages() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let worker = try ScriptedWorker(endpoint: server.workerEndpoint, slots: 1, delay: .milliseconds(50))
        defer { worker.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        let job = try await client.submit(inputs: [Self.file("c.tif", (1...100).map { "p\($0)" })])
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = try await client.cancel(job)
        #expect(cancelled.state == .cancelled)
        #expect(cancelled.pagesDone < 100)
        #expect(try await client.job(job.jobId).state == .cancelled)
    }
}

/// Admission (queue and split limits) is checked before a submission is split. Off the
/// cooperative pool (`.blocking`): its 20 s wait for the first split ended after 89-92 s in two CI
/// runs of 2026-12-08, the submission's task never started while other suites held the pool.
@Suite(.blocking) struct AdmissionTests {
    /// A splitter that counts its calls and waits for `release` before splitting.
    final class GatedSplitter: Sendable {
        let calls = Mutex(0)
        let gate = DispatchSemaphore(value: 0)
        var count: Int { calls.withLock { $0 } }
        func split(_ file: InputFile) throws -> [PageDescriptor] {
            calls.withLock { $0 += 1 }
            gate.wait()
            return try CoordinatorServerTests.lineSplitter(file)
        }
        func waitForCalls(_ n: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while count < n {
                guard ContinuousClock.now < deadline else { throw OCRError(.deadlineExceeded, "splitter called \(count) times, not \(n)") }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    static func server(_ splitter: GatedSplitter, _ configure: (inout CoordinatorConfiguration) -> Void) throws -> CoordinatorServer {
        var config = CoordinatorConfiguration(splitter: { try splitter.split($0) }, logger: .disabled)
        config.clientEndpoint = "tcp://127.0.0.1:*"
        config.workerEndpoint = "tcp://127.0.0.1:*"
        configure(&config)
        return try CoordinatorServer(config)
    }

    static func code(_ body: () async throws -> Void) async -> StatusCode? {
        do { try await body(); return nil } catch let error as OCRError { return error.code } catch { return .unknown }
    }

    @Test func bytesWaitingToBeSplitAreBoundedAndTheRestIsRefusedAtOnce() async throws {
        let splitter = GatedSplitter()
        // Requests of ~15 bytes each (as received) fit twice; a third of ~35 does not.
        let server = try Self.server(splitter) { $0.maxConcurrentSplits = 1; $0.maxSplittingBytes = 40 }
        defer { server.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        async let first = client.submit(inputs: [CoordinatorServerTests.file("a.txt", ["p1"])])
        try await splitter.waitForCalls(1)
        async let second = client.submit(inputs: [CoordinatorServerTests.file("b.txt", ["p2"])])
        // Over the byte limit while the others wait: refused before the splitter sees it.
        let big = CoordinatorServerTests.file("c.txt", [String(repeating: "x", count: 20)])
        #expect(await Self.code { _ = try await client.submit(inputs: [big]) } == .resourceExhausted)
        #expect(splitter.count == 1, "one split at a time: the second waits for the pool")
        splitter.gate.signal()
        splitter.gate.signal()
        #expect(try await first.pageCount == 1)
        #expect(try await second.pageCount == 1)
        #expect(splitter.count == 2)
    }

    @Test func aFullQueueRefusesASubmissionBeforeSplittingIt() async throws {
        let splitter = GatedSplitter()
        let server = try Self.server(splitter) { $0.scheduler.maxQueuedPages = 2 }
        defer { server.stop() }
        let client = try OCRClient(endpoint: server.clientEndpoint)
        defer { client.close() }
        splitter.gate.signal()
        let job = try await client.submit(inputs: [CoordinatorServerTests.file("a.txt", ["p1", "p2"])])
        #expect(job.pageCount == 2)  // no worker: both pages stay queued
        #expect(await Self.code { _ = try await client.submit(inputs: [CoordinatorServerTests.file("b.txt", ["p3"])]) } == .resourceExhausted)
        #expect(splitter.count == 1)
    }
}

/// A stand-in worker (not the real ocr-worker): a DEALER on its own thread that sends Ready and
/// answers each PageTask with a PageResult whose text is the page's bytes, or with the error
/// `fail` returns for it. `silent` workers take tasks and never answer (a hung machine).
final class ScriptedWorker: @unchecked Sendable {
    private let context: ZMQContext
    private let thread: Thread
    private let flags = Flags()
    var tasksDone: Int { flags.state.withLock { $0.done } }

    /// What the worker thread and the test share.
    final class Flags: Sendable {
        struct State { var stopped = false; var done = 0 }
        let state = Mutex(State())
        var isStopped: Bool { state.withLock { $0.stopped } }
    }

    init(endpoint: String, slots: UInt32, silent: Bool = false, delay: Duration = .zero,
         fail: @escaping @Sendable (PageTask) -> OCRError? = { _ in nil }) throws {
        context = try ZMQContext()
        let socket = try context.makeSocket(.dealer)
        try socket.set(.receiveTimeout(20))
        try socket.set(.linger(0))
        _ = try socket.connect(endpoint)
        let uid = UInt64.random(in: 1...UInt64.max)
        let ready = WorkerMessage.with { $0.command = .ready(Ready.with { $0.workerUid = uid; $0.slots = slots; $0.languages = ["eng"] }) }
        _ = try socket.send(WorkerEnvelope(ready).frames)
        let box = UncheckedSendable(socket)
        let me = flags
        thread = Thread {
            let socket = box.value
            var lastSent = ContinuousClock.now
            while !me.isStopped {
                if let frames = try? socket.receive(), let message = try? WorkerEnvelope(frames: frames[...]).decodeCoordinatorMessage() {
                    if case .task(let task)? = message.command, !silent {
                        if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18) }
                        let result = TaskResult.with {
                            $0.jobId = task.jobId
                            $0.pageIndex = task.pageIndex
                            $0.attempt = task.attempt
                            if let error = fail(task) {
                                $0.outcome = .error(error.status)
                            } else {
                                $0.outcome = .result(PageResult.with {
                                    $0.pageIndex = task.pageIndex
                                    $0.file = task.file
                                    $0.filePage = task.filePage
                                    $0.text = String(decoding: task.content, as: UTF8.self)
                                    $0.attempt = task.attempt
                                    $0.workerUid = uid
                                })
                            }
                        }
                        _ = try? socket.send(WorkerEnvelope(WorkerMessage.with { $0.command = .result(result) }).frames)
                        lastSent = .now
                        me.state.withLock { $0.done += 1 }
                    }
                }
                if !silent, ContinuousClock.now - lastSent > .milliseconds(50) {
                    _ = try? socket.send(WorkerEnvelope(WorkerMessage.with { $0.command = .heartbeat(Heartbeat()) }).frames)
                    lastSent = .now
                }
            }
            socket.close(lingerMilliseconds: 0)
        }
        thread.start()
    }

    func stop() {
        flags.state.withLock { $0.stopped = true }
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        context.terminate()
    }
}
