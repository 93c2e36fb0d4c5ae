import Foundation
import OCRTestSupport
import Testing

/// A worker whose engine is stuck in a call nothing can interrupt (`wedge-on:N`, a fault engine
/// that ignores cancel and deadline), with real processes: the stuck page fails with
/// DEADLINE_EXCEEDED naming it, the worker exits 70 for its supervisor, and no other page is lost.
@Suite(.serialized) struct StuckEngineTests {
    @Test func aStuckEngineFailsItsPageAndTheWorkerExitsForARestartLosingNothingElse() async throws {
        // A peer is dead after 50 silent heartbeats (10 s), not 10: this test is about the page
        // the worker fails. On a loaded CI machine the stuck page once ended OK, finished by the
        // next worker, which only a link dropped for 2 s of silence before the worker failed the
        // page can explain (requeued, not failed).
        let cluster = try await TestCluster(coordinatorArguments: ["--liveness", "50"])
        let stuck = try await cluster.addWorker(slots: 1, engine: "wedge-on:1",
                                                extra: ["--max-page-ms", "300", "--stuck-grace-ms", "300"])
        try await cluster.waitForWorkers(1)
        let file = try ClusterTests().makeManyPageTiff(count: 5)
        let submit = try ChildProcess("ocr-submit", ["--coordinator", cluster.clientEndpoint, "--format", "json", "--quiet", file])

        let code = await stuck.wait(timeout: .seconds(30))
        #expect(code == 70, "stderr: \(stuck.stderr)")
        #expect(stuck.stderr.contains("an engine ignored a stop"))
        // The pages it was given back are not lost: a fresh worker (what a supervisor would start)
        // finishes them.
        try await cluster.addWorker(slots: 1, engine: "null")
        let status = await submit.wait(timeout: .seconds(60))
        #expect(status == 2, "some pages failed; stderr: \(submit.stderr)\ncoordinator: \(cluster.coordinator.stderr.suffix(6_000))")
        let json = try #require(try JSONSerialization.jsonObject(with: submit.stdout) as? [String: Any])
        let states = (json["pages"] as? [[String: Any]])?.map { $0["state"] as? String }
        #expect(states == ["OK", "FAILED", "OK", "OK", "OK"])
        #expect(submit.stderr.contains("DEADLINE_EXCEEDED"))
        #expect(submit.stderr.contains("did not stop within"))
        #expect(submit.stderr.contains((file as NSString).lastPathComponent))
        #expect(cluster.coordinator.process.isRunning)
        await cluster.stop()
    }
}
