import OCRCoordinator
import OCRWire
import Testing

/// Pages go only to workers that run their job's engine (`Ready.engines`,
/// `RecognitionOptions.engine`; "tesseract" when either names none).
@Suite struct EngineDispatchTests {
    static func engine(_ name: String) -> RecognitionOptions { .with { $0.engine = name } }

    @Test func eachJobsPagesGoOnlyToWorkersOfItsEngine() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 2)                                   // an ocr-worker: tesseract
        h.ready(2, slots: 2, engines: ["rapidocr", "echo"])    // a worker of other engines
        h.submit("fast", pages: 4, options: Self.engine("rapidocr"))
        h.submit("plain", pages: 4)
        h.submit("named", pages: 2, options: Self.engine("tesseract"))
        var done = 0
        while done < 10 {
            guard let (to, task) = h.log.tasks.dropFirst(done).first else { break }
            done += 1
            let worker: UInt8 = to == h.worker(1) ? 1 : 2
            #expect(worker == (task.jobId == "fast" ? 2 : 1), "\(task.jobId) page \(task.pageIndex) went to worker \(worker)")
            _ = h.succeed(worker, task)
        }
        #expect(done == 10, "every page was dispatched")
        #expect(h.scheduler.store.job("fast")?.state == .succeeded && h.scheduler.store.job("plain")?.state == .succeeded)
    }

    @Test func anEngineNoConnectedWorkerRunsIsRefusedAtSubmit() throws {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        let refused = h.submit("x", pages: 1, options: Self.engine("rapidocr"))
        let error = try #require(refused.compactMap { if case .submitReply(_, .failure(let e)) = $0 { e } else { nil } }.first,
                                 "a job for an engine nobody runs was accepted: \(refused)")
        #expect(error.code == .failedPrecondition && error.message.contains("rapidocr") && error.details["engines"] == "tesseract")
    }

    @Test func whenItsWorkersLeaveAnEnginesPagesWaitForOne() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        h.ready(2, slots: 1, engines: ["echo"])
        h.submit("e", pages: 3, options: Self.engine("echo"))
        let first = h.log.tasks.last!.task
        #expect(h.log.tasks.last!.to == h.worker(2))
        // The echo worker leaves: its page is requeued and waits; the tesseract worker is idle and gets nothing.
        _ = h.send(.workerDisconnected(h.worker(2)))
        #expect(h.heartbeat(1).tasks.isEmpty)
        #expect(h.tick(at: .seconds(1)).tasks.isEmpty)
        #expect(h.scheduler.store.job("e")?.state == .running)
        // Another echo worker comes: it takes the page again.
        let resumed = h.ready(3, slots: 1, engines: ["echo"]).tasks
        #expect(resumed.map(\.task.pageIndex) == [first.pageIndex] && resumed.map(\.to) == [h.worker(3)])
    }

    @Test func clusterStatusShowsEachWorkersEngines() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1)
        h.ready(2, slots: 1, engines: ["echo", "rapidocr", "echo"])
        let workers = h.scheduler.clusterStatus(now: h.now).workers.sorted { $0.slots == $1.slots ? $0.uid < $1.uid : $0.slots < $1.slots }
        #expect(Set(workers.map(\.engines)) == [["tesseract"], ["echo", "rapidocr"]])
    }
}
