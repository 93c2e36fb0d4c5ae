import Foundation
import OCRClient
import OCRWire

/// Benchmarks that talk to a running coordinator (started by scripts/bench.sh).
enum ClusterBench {
    static func tinyInput(_ pages: Int, name: String = "tiny.tif") -> InputFile {
        InputFile.with {
            $0.name = name
            $0.content = tinyTIFF(pages: pages)
        }
    }

    /// Waits until ClusterStatus shows at least `slots` slots (workers connected and Ready).
    static func waitForSlots(_ client: OCRClient, _ slots: Int, timeout: Duration = .seconds(60)) async throws -> ClusterStatusResponse {
        let deadline = ContinuousClock.now + timeout
        while true {
            let status = try await client.clusterStatus()
            if status.totalSlots >= slots { return status }
            if ContinuousClock.now > deadline { die("only \(status.totalSlots) of \(slots) slots connected after \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    struct JobRun {
        var submitted: Duration      // submit call (split included)
        var firstPage: Duration?     // submit start -> first PageCompleted
        var finished: Duration       // submit start -> JobFinished
        var pages: Int
        var failed: Int
        var firstResult: PageResult?
    }

    /// Submits `inputs` and follows the job to its end (or to the first page when `stopAfterFirst`,
    /// then cancels it).
    static func run(_ client: OCRClient, _ inputs: [InputFile], options: RecognitionOptions = RecognitionOptions(),
                    stopAfterFirst: Bool = false) async throws -> JobRun {
        let t0 = ContinuousClock.now
        let job = try await client.submit(inputs: inputs, options: options)
        let submitted = ContinuousClock.now - t0
        var first: Duration?
        var firstResult: PageResult?
        var pages = 0, failed = 0
        for try await event in client.events(for: job) {
            switch event.event {
            case .pageCompleted(let done)?:
                pages += 1
                if first == nil {
                    first = ContinuousClock.now - t0
                    firstResult = done.result
                    if stopAfterFirst {
                        try await client.cancel(job)
                        return JobRun(submitted: submitted, firstPage: first, finished: ContinuousClock.now - t0,
                                      pages: pages, failed: failed, firstResult: firstResult)
                    }
                }
            case .pageFailed?:
                failed += 1
            case .finished?:
                return JobRun(submitted: submitted, firstPage: first, finished: ContinuousClock.now - t0,
                              pages: pages, failed: failed, firstResult: firstResult)
            default:
                break
            }
        }
        die("the event stream of \(job.jobId) ended without JobFinished")
    }

    /// (2) Page tasks per second through the coordinator with null-engine workers.
    static func null(_ args: Args) async throws {
        let client = try OCRClient(endpoint: args.string("client"), callTimeout: .seconds(300))
        let pages = args.int("pages", 20_000)
        let runs = args.int("runs", 3)
        _ = try await waitForSlots(client, args.int("slots", 1))
        // --files K: the pages spread over K files (each task carries its file's bytes today).
        let files = args.int("files", 1)
        let inputs = (0..<files).map { tinyInput(pages / files, name: "tiny-\($0).tif") }
        _ = try await run(client, [tinyInput(200)])  // warm-up
        var rates: [Double] = [], wallRates: [Double] = [], submits: [Double] = []
        var failed = 0
        for _ in 0..<runs {
            let r = try await run(client, inputs)
            if r.pages != pages {
                log("null run: \(r.pages) of \(pages) pages completed, \(r.failed) failed")
                failed += pages - r.pages
            }
            rates.append(Double(pages) / seconds(r.finished - r.submitted))
            wallRates.append(Double(pages) / seconds(r.finished))
            submits.append(seconds(r.submitted))
            log("null: \(pages) pages, \(Int(rates.last!)) pages/s after submit (\(Int(wallRates.last!)) with submit)")
        }
        emit(["bench": "null-throughput", "pages": pages, "runs": runs, "failed_pages": failed,
              "pages_per_s_median": median(rates), "pages_per_s_all": rates,
              "pages_per_s_with_submit_median": median(wallRates), "submit_s_median": median(submits)])
    }

    /// (2) Round trip of one-page jobs, one after another: submit -> PageCompleted at the client.
    static func latency(_ args: Args) async throws {
        let client = try OCRClient(endpoint: args.string("client"))
        let count = args.int("count", 1000)
        _ = try await waitForSlots(client, args.int("slots", 1))
        let input = tinyInput(1)
        for _ in 0..<50 { _ = try await run(client, [input]) }
        var firstPage: [Double] = [], finished: [Double] = [], submit: [Double] = []
        for _ in 0..<count {
            let r = try await run(client, [input])
            firstPage.append(seconds(r.firstPage!) * 1000)
            finished.append(seconds(r.finished) * 1000)
            submit.append(seconds(r.submitted) * 1000)
        }
        emit(["bench": "null-latency", "jobs": count,
              "page_ms_p50": percentile(firstPage, 0.5), "page_ms_p99": percentile(firstPage, 0.99),
              "page_ms_max": firstPage.max()!,
              "finished_ms_p50": percentile(finished, 0.5), "finished_ms_p99": percentile(finished, 0.99),
              "submit_ms_p50": percentile(submit, 0.5), "submit_ms_p99": percentile(submit, 0.99)])
    }

    /// (4) Time to the first page of a long job, and that page's own engine time.
    static func firstPage(_ args: Args) async throws {
        let client = try OCRClient(endpoint: args.string("client"), callTimeout: .seconds(300))
        _ = try await waitForSlots(client, args.int("slots", 1))
        let path = args.string("file")
        let content = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let input = InputFile.with { $0.name = (path as NSString).lastPathComponent; $0.content = content }
        let runs = args.int("runs", 3)
        var firsts: [Double] = [], engines: [Double] = [], pageCount = 0
        for _ in 0..<runs {
            let r = try await run(client, [input], stopAfterFirst: true)
            // Let the cancelled job's running pages stop before the next run.
            try await Task.sleep(for: .milliseconds(500))
            _ = try await waitIdle(client)
            firsts.append(seconds(r.firstPage!))
            let t = r.firstResult?.timings
            engines.append(Double(t?.totalUs ?? 0) / 1e6)
            pageCount = Int(try await client.jobs(limit: 1).first?.pageCount ?? 0)
        }
        emit(["bench": "first-page", "job_pages": pageCount, "runs": runs,
              "first_page_s_median": median(firsts), "first_page_s_all": firsts,
              "worker_page_total_s_median": median(engines)])
    }

    static func waitIdle(_ client: OCRClient) async throws -> ClusterStatusResponse {
        while true {
            let status = try await client.clusterStatus()
            if status.busySlots == 0 && status.activeJobs == 0 { return status }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// (5) Coordinator memory while jobs of growing size run through null workers.
    static func memory(_ args: Args) async throws {
        let client = try OCRClient(endpoint: args.string("client"), callTimeout: .seconds(300))
        let pid = Int32(args.int("pid"))
        _ = try await waitForSlots(client, args.int("slots", 1))
        let coordinator = ProcStats(pid: pid)
        let sizes = args.ints("sizes", [100, 1000, 5000])
        let pageSize = args.int("page-size", 16)
        var rows: [[String: Any]] = []
        for size in sizes {
            let before = coordinator.rssKB
            let sampler = RSSSampler(pid: pid)
            let input = InputFile.with { $0.name = "tiny-\(size).tif"; $0.content = tinyTIFF(pages: size, size: pageSize) }
            let r = try await run(client, [input])
            let peak = sampler.stop()
            try await Task.sleep(for: .milliseconds(200))
            let after = coordinator.rssKB
            guard r.pages == size else { die("memory run: \(r.pages) of \(size) pages") }
            rows.append(["pages": size, "file_bytes": input.content.count, "rss_before_kb": before, "rss_peak_kb": peak,
                         "rss_after_kb": after, "seconds": seconds(r.finished)])
            log("memory: \(size) pages (\(input.content.count) bytes): RSS \(before) -> peak \(peak) -> after \(after) kB")
        }
        emit(["bench": "coordinator-memory", "page_pixels": "\(pageSize)x\(pageSize)", "rows": rows])
    }

    /// (3) Simulated workers: utilisation, coordinator CPU and memory at each connection count.
    static func scale(_ args: Args) async throws {
        let client = try OCRClient(endpoint: args.string("client"), callTimeout: .seconds(300))
        let workerEndpoint = args.string("worker")
        let pid = Int32(args.int("pid"))
        let pageTime = Duration.milliseconds(args.int("sleep-ms", 500))
        let pagesPerConnection = args.int("pages-per-connection", 10)
        let coordinator = ProcStats(pid: pid)
        var rows: [[String: Any]] = []
        for n in args.ints("connections", [50, 100, 200, 400]) {
            let idle = try await waitIdle(client)
            guard idle.workers.isEmpty else { die("scale: \(idle.workers.count) workers still connected") }
            let rssBefore = coordinator.rssKB
            let connectStart = ContinuousClock.now
            let fakes = try FakeWorkers(endpoint: workerEndpoint, connections: n, pageTime: pageTime)
            _ = try await waitForSlots(client, n)
            let connectTime = ContinuousClock.now - connectStart
            try await Task.sleep(for: .milliseconds(300))
            let rssConnected = coordinator.rssKB
            let pages = n * pagesPerConnection
            let sampler = RSSSampler(pid: pid, every: 0.05)
            let cpu0 = coordinator.cpuSeconds, self0 = ProcStats.current.cpuSeconds
            let r = try await run(client, [tinyInput(pages, name: "scale-\(n).tif")])
            let cpu1 = coordinator.cpuSeconds, self1 = ProcStats.current.cpuSeconds
            let peak = sampler.stop()
            guard r.pages == pages else { die("scale \(n): \(r.pages) of \(pages) pages") }
            let wall = seconds(r.finished - r.submitted)
            let possible = Double(n) / seconds(pageTime)
            let achieved = Double(pages) / wall
            let row: [String: Any] = [
                "connections": n, "pages": pages, "page_ms": Int(seconds(pageTime) * 1000),
                "seconds": wall, "pages_per_s": achieved, "possible_pages_per_s": possible,
                "utilisation": achieved / possible, "ideal_seconds": Double(pagesPerConnection) * seconds(pageTime),
                "coordinator_cpu_s": cpu1 - cpu0, "coordinator_cpu_pct": 100 * (cpu1 - cpu0) / wall,
                "driver_cpu_pct": 100 * (self1 - self0) / wall,
                "rss_before_kb": rssBefore, "rss_connected_kb": rssConnected, "rss_peak_kb": peak,
                "rss_per_connection_kb": Double(rssConnected - rssBefore) / Double(n),
                "connect_s": seconds(connectTime),
            ]
            rows.append(row)
            log("scale \(n): utilisation \(String(format: "%.3f", achieved / possible)), coordinator CPU \(String(format: "%.1f", 100 * (cpu1 - cpu0) / wall))%, RSS \(rssBefore)->\(rssConnected)->\(peak) kB")
            fakes.stop()
            // Wait for the coordinator to forget them (Disconnect) before the next step.
            let deadline = ContinuousClock.now + .seconds(20)
            while try await client.clusterStatus().workers.count > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        emit(["bench": "scale", "rows": rows])
    }
}
