import Foundation
import OCRClient
import OCRTestSupport
import Testing

extension ClusterTests {
    /// A Swift program that stops waiting for a job stops the job, as Ctrl-C in `ocr-submit`
    /// does: cancelling the task in `document(for:)` sends CancelJob. With `detached: true` the
    /// job runs on to its end. `withOCRClient` closes its client when the scope ends.
    @Test func cancellingTheWaitingTaskCancelsTheJobUnlessDetached() async throws {
        let cluster = try await TestCluster()
        // 20 pages of 400 ms: the job is far from done when the first page is seen, even on a
        // machine busy enough to wake this test's polling late.
        try await cluster.addWorker(slots: 1, engine: "sleep:400")
        let pages = URL(fileURLWithPath: try makeManyPageTiff(count: 20))
        try await withOCRClient(endpoint: cluster.clientEndpoint) { client in
            for detached in [false, true] {
                let job = try await client.submit(files: [pages])
                let firstPage = Box(false)
                let waiting = Task {
                    try await client.document(for: job, detached: detached) { event in
                        if event.pageCompleted != nil { firstPage.with { $0 = true } }
                    }
                }
                let started = ContinuousClock.now
                while !firstPage.current, ContinuousClock.now - started < .seconds(60) { try await Task.sleep(for: .milliseconds(20)) }
                try #require(firstPage.current, "no page completed")
                waiting.cancel()
                let outcome = await waiting.result
                #expect(throws: CancellationError.self) { try outcome.get() }
                // The job's end: cancelled at once, or (detached) all 20 pages after about 8 s.
                var state = try await client.job(job.jobId).state
                while state == .running || state == .queued, ContinuousClock.now - started < .seconds(60) {
                    try await Task.sleep(for: .milliseconds(50))
                    state = try await client.job(job.jobId).state
                }
                #expect(state == (detached ? .succeeded : .cancelled), "detached \(detached): \(state)")
            }
        }
        await cluster.stop()
    }
}
