import Foundation
import OCREngine
import OCRPageEngine
import OCRPages
import OCRWire
import Testing

extension EngineTests {
    @Suite struct Threading {
        @Test func pageTimeoutStopsRecognition() async throws {
            var opts = RecognitionOptions()
            opts.pageTimeoutMs = 1
            let error = await ocrError { _ = try await recognize(Fixtures.page("skew3.png"), opts) }
            #expect(error?.code == .deadlineExceeded && error?.file == "skew3.png")
            // An absolute deadline already in the past.
            let page = Fixtures.page("text.png")
            let past = await ocrError {
                _ = try await testEngine.run { r throws(OCRError) in try r.recognize(page, deadline: .now - .seconds(1)) }
            }
            #expect(past?.code == .deadlineExceeded)
            #expect(try await recognize(page).text.contains("quick brown fox"))
        }

        @Test func cancellationReachesARunningPage() async throws {
            // A real full page takes seconds; cancel it shortly after it starts.
            let page = try #require(realPage("unlv-isri/8071_093.3B.tif"))
            let token = PageControl()
            let start = ContinuousClock.now
            async let outcome = ocrError { _ = try await testEngine.recognize(page, cancellation: token) }
            try await Task.sleep(for: .milliseconds(700))
            token.cancel()
            let error = await outcome
            let elapsed = ContinuousClock.now - start
            print("[figures] cancelled a full page after \(elapsed)")
            #expect(error?.code == .cancelled && error?.file == page.file)
            // Not a result: had the cancel not reached the running page, it would have finished.
            // A page timeout that expires mid-recognition stops it the same way.
            var opts = RecognitionOptions()
            opts.pageTimeoutMs = 600
            let timeout = await ocrError { _ = try await testEngine.recognize(page, options: opts) }
            #expect(timeout?.code == .deadlineExceeded && timeout?.file == page.file)
            #expect(try await recognize(Fixtures.page("text.png")).text.contains("quick brown fox"))
            // Task cancellation is forwarded too.
            let task = Task { try await testEngine.recognize(page) }
            try await Task.sleep(for: .milliseconds(500))
            task.cancel()
            let taskError = await ocrError { _ = try await task.value }
            #expect(taskError?.code == .cancelled)
        }

        @Test func engineThreadsDoNotStartOpenMPThreads() async throws {
            let page = try #require(realPage("unlv-isri/phototest.tif"))
            let engine = EngineThread(name: "omp-check")
            defer { engine.shutdown() }
            try await engine.run { r throws(OCRError) in try r.prepare() }
            let before = threadCount()
            _ = try await engine.recognize(page)
            let after = threadCount()
            // libgomp would add 3 threads for Tesseract's `num_threads(4)` LSTM loops.
            #expect(after - before < 2, "threads \(before) -> \(after)")
        }

        @Test func twoThreadsShareTheQueue() async throws {
            let pool = EngineThread(name: "pool", threads: 2)
            defer { pool.shutdown() }
            let pages = try PageSplitter().cutPages(file: "multipage.tif", content: Fixtures.bytes("multipage.tif"))
            let results = try await withThrowingTaskGroup(of: PageResult.self) { group in
                for page in pages { group.addTask { try await pool.recognize(page) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.map(\.pageIndex).sorted() == [0, 1, 2])
            #expect(results.first { $0.pageIndex == 1 }?.text.contains("Second page") == true)
        }

        @Test func pageTasksRunWithTheirDeadlineAndAttempt() async throws {
            var task = PageTask()
            task.jobId = "job-1"
            task.pageIndex = 4
            task.attempt = 2
            task.file = "multipage.tif"
            task.filePage = 2
            task.content = Fixtures.bytes("multipage.tif")
            task.format = .tiff
            task.queuedUs = 1234
            let result = try await testEngine.run(task)
            #expect(result.pageIndex == 4 && result.filePage == 2 && result.attempt == 2 && result.timings?.queueUs == 1234)
            #expect(result.text.contains("Second page"))
            // A PDF page whose deadline is too short for pdftoppm: DEADLINE_EXCEEDED naming the page.
            task.content = Fixtures.bytes("doc.pdf")
            task.format = .pdf
            task.file = "doc.pdf"
            task.filePage = 1
            task.remainingMs = 1
            let error = await ocrError { _ = try await testEngine.run(task) }
            #expect(error?.code == .deadlineExceeded && error?.file == "doc.pdf" && error?.pageIndex == 4)
            #expect(error?.status.pageIndex == 4)
            // Synchronously, with a control already cancelled (as a worker's page's is).
            task.remainingMs = 0
            let stop = PageControl()
            stop.cancel()
            let fixed = task
            let polled = await ocrError { _ = try await testEngine.run { r throws(OCRError) in try r.run(fixed, cancellation: stop) } }
            #expect(polled?.code == .cancelled && polled?.pageIndex == 4)
        }

        @Test func shutDownThreadRefusesWork() async throws {
            let engine = EngineThread(name: "short-lived")
            engine.shutdown()
            let error = await ocrError { _ = try await engine.recognize(Fixtures.page("text.png")) }
            #expect(error?.code == .unavailable)
        }
    }
}

/// A page from the real scans in Tests/Fixtures/real, or nil when the file is missing (callers
/// `#require` it, so a missing file fails the test).
func realPage(_ path: String, filePage: Int = 1) -> PageDescriptor? {
    let url = Fixtures.real.appendingPathComponent(path)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    return PageDescriptor(file: path, filePage: filePage, pageIndex: 0, content: [UInt8](data), format: ImageFormat.sniff([UInt8](data)) ?? .unspecified)
}

/// Threads in this process.
func threadCount() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
}
