import Foundation
import OCRPageEngine
import OCRLog
import OCRZeroMQ
import OCRWire
import OCRTestSupport
import Testing
@testable import OCRWorker

/// The runtime against a scripted fake coordinator over real TCP sockets on 127.0.0.1.
@Suite("WorkerRuntime against a fake coordinator", .serialized, .blocking)
struct WorkerRuntimeTests {
    @Test("Ready arrives with a non-zero uid, slots, version, hostname and the heartbeat interval")
    func readyAnnouncesTheWorker() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .null, slots: 3) { $0.labels = ["zone": "test"] }
        defer { stopAll(worker, fake) }
        let (identity, ready) = try #require(fake.ready())
        #expect(ready.workerUid != 0)
        #expect(ready.slots == 3)
        #expect(ready.version == WorkerRuntime.version)
        #expect(ready.heartbeatIntervalMs == 100)
        #expect(ready.hostname == WorkerRuntime.localHostname())
        #expect(ready.labels == ["zone": "test"])
        #expect(!identity.isEmpty)
        // Frames on the wire are exactly ["OCRW01"][WorkerMessage].
        #expect(fake.received.allSatisfy { $0.message != nil })
    }

    @Test("results come back in order of completion, each naming job, page, attempt and worker")
    func resultsInCompletionOrder() throws {
        let fake = try FakeCoordinator()
        let engine = PageEngineFactory(name: "scripted") { _ in
            ScriptedSleepEngine([0: .milliseconds(450), 1: .milliseconds(50), 2: .milliseconds(250)])
        }
        let worker = try startWorker(fake, engine: engine, slots: 3)
        defer { stopAll(worker, fake) }
        let (identity, ready) = try #require(fake.ready())
        for page in UInt32(0)...2 { fake.sendTask(pageTask(page, attempt: 2), to: identity) }
        let results = fake.results(3)
        #expect(results.map(\.pageIndex) == [1, 2, 0])
        for result in results {
            #expect(result.jobId == "job-1")
            #expect(result.attempt == 2)
            let page = try #require(result.result)
            #expect(page.pageIndex == result.pageIndex)
            #expect(page.workerUid == ready.workerUid)
            #expect(page.attempt == 2)
            #expect(page.file == "scan.tiff")
            #expect(page.filePage == result.pageIndex + 1)
            #expect(page.text == "page \(result.pageIndex)")
        }
    }

    @Test("never more pages running than slots, on dedicated engine threads")
    func slotsBoundConcurrency() throws {
        let fake = try FakeCoordinator()
        let counter = ConcurrencyProbeEngine.Counter()
        let engine = PageEngineFactory(name: "probe") { _ in ConcurrencyProbeEngine(counter: counter, duration: .milliseconds(60)) }
        let worker = try startWorker(fake, engine: engine, slots: 2)
        defer { stopAll(worker, fake) }
        let (identity, _) = try #require(fake.ready())
        // More than slots + prefetch at once: a coordinator ignoring credits.
        for page in UInt32(0)..<7 { fake.sendTask(pageTask(page), to: identity) }
        let results = fake.results(7)
        #expect(Set(results.map(\.pageIndex)) == Set(0..<7))
        #expect(counter.peak == 2)
        let threads = Set(results.compactMap { $0.result?.text.components(separatedBy: " on ").last })
        #expect(threads.isSubset(of: ["ocr.engine.0", "ocr.engine.1"]))
    }

    @Test("heartbeats keep coming while a slow page is being recognised")
    func heartbeatsWhileBusy() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .sleep(.milliseconds(900)), slots: 1)
        defer { stopAll(worker, fake) }
        let (identity, _) = try #require(fake.ready())
        fake.sendTask(pageTask(0), to: identity)
        let sent = ContinuousClock.now
        let results = fake.results(1)
        #expect(results.first?.result != nil)
        let beats = fake.received.filter { $0.at > sent && $0.message?.heartbeat != nil }
        let busyBeats = beats.filter { $0.message?.heartbeat?.busy == 1 }
        // 900 ms of work at a 100 ms interval: about 8; allow a loaded machine some slack.
        #expect(busyBeats.count >= 5, "heartbeats while busy: \(busyBeats.count)")
        let sequences = beats.compactMap { $0.message?.heartbeat?.sequence }
        #expect(sequences == sequences.sorted())
    }

    @Test("a coordinator that goes silent is dropped: new socket, new Ready with the same worker uid; old results abandoned")
    func silentCoordinatorMeansReconnect() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .sleep(.seconds(5)), slots: 1, liveness: 3)
        defer { stopAll(worker, fake) }
        let (firstIdentity, first) = try #require(fake.ready())
        fake.sendTask(pageTask(0), to: firstIdentity)
        fake.heartbeating = false
        let silentSince = ContinuousClock.now
        let (secondIdentity, second) = try #require(fake.ready(2))
        let gap = ContinuousClock.now - silentSince
        #expect(second.workerUid == first.workerUid, "one worker uid for the life of the process")
        #expect(second.workerUid != 0)
        #expect(secondIdentity != firstIdentity, "a new socket has a new routing identity")
        // Not before liveness x interval (300 ms) plus the first backoff (250 ms).
        #expect(gap >= .milliseconds(450))
        fake.heartbeating = true
        // The new connection works. With one slot, page 1 runs after the abandoned page 0 has
        // returned (cancelled with UNAVAILABLE), so by page 1's result page 0 has had its chance
        // to report, and must not have.
        fake.sendTask(pageTask(1, job: "job-2", remainingMs: 100), to: secondIdentity)
        #expect(fake.results(1).first?.error?.code == .deadlineExceeded)
        #expect(fake.messages.compactMap(\.result).map(\.pageIndex) == [1], "the abandoned page reported")
    }

    @Test("Disconnect from the coordinator: the worker reconnects afresh")
    func disconnectMeansReconnect() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .null)
        defer { stopAll(worker, fake) }
        let (identity, first) = try #require(fake.ready())
        fake.send(CoordinatorMessage.with { $0.command = .disconnect(Disconnect.with { $0.reason = "test" }) }, to: identity)
        let (newIdentity, second) = try #require(fake.ready(2))
        #expect(second.workerUid == first.workerUid)
        #expect(newIdentity != identity)
        fake.sendTask(pageTask(4), to: newIdentity)
        #expect(fake.results(1).first?.pageIndex == 4)
    }

    @Test("CancelTask stops a hanging page, which reports CANCELLED naming the page")
    func cancelStopsAHangingPage() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .hanging(onPage: 3))
        defer { stopAll(worker, fake) }
        let (identity, _) = try #require(fake.ready())
        fake.sendTask(pageTask(3), to: identity)
        fake.sendTask(pageTask(4), to: identity)
        // Page 4 completes while page 3 hangs (the hanging engine returns only when stopped).
        #expect(fake.results(1).first?.pageIndex == 4)
        fake.send(CoordinatorMessage.with { $0.command = .cancel(CancelTask.with { $0.jobId = "job-1"; $0.pageIndex = 3 }) }, to: identity)
        let results = fake.results(2)
        let status = try #require(results.last?.error)
        #expect(results.last?.pageIndex == 3)
        #expect(status.code == .cancelled)
        #expect(status.pageIndex == 3)
        #expect(status.file == "scan.tiff")
    }

    @Test("remaining_ms becomes the engine's deadline: DEADLINE_EXCEEDED, on time")
    func deadlineExceeded() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .sleep(.seconds(10)))
        defer { stopAll(worker, fake) }
        let (identity, _) = try #require(fake.ready())
        let sent = ContinuousClock.now
        fake.sendTask(pageTask(0, remainingMs: 200), to: identity)
        let result = try #require(fake.results(1).first)
        let elapsed = ContinuousClock.now - sent
        #expect(result.error?.code == .deadlineExceeded)
        #expect(result.error?.pageIndex == 0)
        // Not before the deadline; the 10 s engine did not run to its end (it would have
        // succeeded), so the deadline stopped it.
        #expect(elapsed >= .milliseconds(190))
    }

    @Test("an engine failure travels as a Status naming the page; other pages are fine")
    func failingEngineStatus() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .failing(onPage: 1, code: .invalidArgument))
        defer { stopAll(worker, fake) }
        let (identity, _) = try #require(fake.ready())
        for page in UInt32(0)...2 { fake.sendTask(pageTask(page), to: identity) }
        let results = fake.results(3)
        let byPage = Dictionary(uniqueKeysWithValues: results.map { ($0.pageIndex, $0) })
        #expect(byPage[0]?.result != nil)
        #expect(byPage[2]?.result != nil)
        let status = try #require(byPage[1]?.error)
        #expect(status.code == .invalidArgument)
        #expect(status.pageIndex == 1)
        #expect(status.file == "scan.tiff")
        #expect(status.message.contains("FailingEngine"))
    }

    @Test("a non-OCRError from an engine becomes INTERNAL naming the page")
    func foreignErrorsBecomeInternal() throws {
        struct Oops: Error {}
        final class ThrowingEngine: PageEngine {
            func recognize(task: PageTask, control: PageControl) throws -> PageResult { throw Oops() }
        }
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: PageEngineFactory(name: "throwing") { _ in ThrowingEngine() })
        defer { stopAll(worker, fake) }
        let (identity, _) = try #require(fake.ready())
        fake.sendTask(pageTask(7), to: identity)
        let status = try #require(fake.results(1).first?.error)
        #expect(status.code == .internal)
        #expect(status.pageIndex == 7)
    }

    @Test("shutdown drains: held pages finish and report, new tasks are refused UNAVAILABLE, then Disconnect")
    func shutdownDrainsInProcess() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .sleep(.milliseconds(400)), slots: 1) { $0.drainTimeout = .seconds(5) }
        let (identity, _) = try #require(fake.ready())
        fake.sendTask(pageTask(0), to: identity)
        fake.sendTask(pageTask(1), to: identity)   // prefetched: held, so it is finished too
        Thread.sleep(forTimeInterval: 0.1)
        worker.shutdown()
        Thread.sleep(forTimeInterval: 0.1)
        fake.sendTask(pageTask(2), to: identity)
        worker.wait()
        _ = fake.wait("Disconnect") { $0.contains { $0.message?.disconnect != nil } ? true : nil }
        let messages = fake.messages.filter { $0.heartbeat == nil }
        let results = messages.compactMap(\.result)
        #expect(results.first?.pageIndex == 2)
        #expect(results.first?.error?.code == .unavailable)
        #expect(results.dropFirst().map(\.pageIndex) == [0, 1])
        #expect(results.dropFirst().allSatisfy { $0.result != nil })
        #expect(messages.last?.disconnect != nil)
        fake.stop()
    }

    @Test("the drain timeout gives a stuck page back as UNAVAILABLE (retryable), then Disconnect")
    func drainTimeoutGivesPagesBack() throws {
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .hanging(onPage: 0)) { $0.drainTimeout = .milliseconds(300) }
        let (identity, _) = try #require(fake.ready())
        fake.sendTask(pageTask(0), to: identity)
        Thread.sleep(forTimeInterval: 0.1)
        worker.shutdown()
        worker.wait()  // the hanging engine never returns by itself: only the drain timeout ends this
        _ = fake.wait("Disconnect") { $0.contains { $0.message?.disconnect != nil } ? true : nil }
        let messages = fake.messages.filter { $0.heartbeat == nil }
        #expect(messages.compactMap(\.result).first?.error?.code == .unavailable)
        #expect(messages.last?.disconnect != nil)
        fake.stop()
    }

    @Test("an engine that cannot be made fails start()")
    func engineFactoryFailureFailsStart() throws {
        struct NoModel: Error {}
        let fake = try FakeCoordinator()
        defer { fake.stop() }
        let worker = try WorkerRuntime(configuration: WorkerConfiguration(coordinator: fake.endpoint, slots: 2),
                                       engine: PageEngineFactory(name: "broken") { slot in
                                           if slot == 1 { throw NoModel() }
                                           return NullEngine()
                                       }, logger: .disabled)
        #expect(throws: NoModel.self) { try worker.start() }
        worker.wait()
        #expect(fake.messages.isEmpty)
    }

    @Test("wait() without start() returns at once; start() twice throws")
    func lifecycleMisuse() throws {
        let idle = try WorkerRuntime(configuration: WorkerConfiguration(coordinator: "tcp://127.0.0.1:1", slots: 1),
                                     engine: .null, logger: .disabled)
        idle.wait()
        let fake = try FakeCoordinator()
        let worker = try startWorker(fake, engine: .null, slots: 1)
        #expect(throws: TransportError.self) { try worker.start() }
        stopAll(worker, fake)
    }

    @Test("a malformed endpoint fails start()")
    func malformedEndpointFailsStart() throws {
        let worker = try WorkerRuntime(configuration: WorkerConfiguration(coordinator: "nonsense://x", slots: 1),
                                       engine: .null, logger: .disabled)
        #expect(throws: TransportError.self) { try worker.start() }
        worker.wait()
    }
}
