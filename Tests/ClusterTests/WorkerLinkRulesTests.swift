import Foundation
import OCRClient
import OCRTestSupport
import Testing

/// The worker link's rules (PROTOCOL.md section 2) with real processes: a real coordinator, a
/// real ocr-worker, and a worker written in Python from the protocol documents alone.
@Suite(.serialized) struct WorkerLinkRulesTests {
    @Test func aRogueWorkersResultForAnotherWorkersTaskIsRefused() async throws {
        let cluster = try await TestCluster()
        let honest = try await cluster.addWorker(slots: 1, engine: "sleep:3000")
        try await cluster.waitForWorkers(1)
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        let job = try await client.submit(files: [Binaries.fixtures.appendingPathComponent("text.png")])
        // The only worker holds page 0, attempt 1, for three seconds; the rogue answers it first.
        _ = try await honest.waitForStderr(#"msg="task received" task=\S+/0#1"#, timeout: .seconds(20))
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/python_worker.py").path, "rogue",
                            cluster.workerEndpoint, Binaries.repoRoot.appendingPathComponent("proto").path, job.jobId, "0", "1"]
        let (data, errData) = try await runToCompletion(python)
        #expect(python.terminationStatus == 0, "python stderr: \(String(decoding: errData, as: UTF8.self))")
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]],
                                "stdout: \(String(decoding: data, as: UTF8.self))")
        #expect(json["before"]?.last?["command"] as? String == "welcome")
        let after = try #require(json["after"])
        #expect(after.last?["command"] as? String == "disconnect", "\(after)")
        let reason = after.last?["reason"] as? String ?? ""
        #expect(reason.contains("does not hold"), "\(after)")
        #expect(!after.contains { $0["command"] as? String == "task" }, "the rogue was given a task: \(after)")

        let document = try await client.document(for: job)
        client.close()
        #expect(document.recognizedPages.count == 1)
        let page = try #require(document.recognizedPages.first)
        #expect(!page.text.contains("FORGED"), "the forged text reached the client: \(page.text)")
        #expect(page.attempt == 1, "the honest worker's attempt was recorded")
        await cluster.stop()
        #expect(cluster.coordinator.stderr.contains("does not hold"), "\(cluster.coordinator.stderr)")
    }

    /// Before Welcome a worker judged a coordinator with a 4 s heartbeat by its own 1 s x 3 and
    /// reconnected every 3 s. Now both sides follow the coordinator's Welcome.
    @Test func aCoordinatorWithASlowHeartbeatKeepsItsWorkersForAMinute() async throws {
        let cluster = try await TestCluster(coordinatorArguments: ["--heartbeat-ms", "4000"])
        // The worker's own wish is 1 s (the default); the coordinator's interval wins.
        let worker = try ChildProcess("ocr-worker", ["--coordinator", cluster.workerEndpoint, "--slots", "1",
                                                     "--engine", "null", "--log-level", "debug"])
        try await cluster.waitForWorkers(1)
        try await Task.sleep(for: .seconds(60))
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        let status = try await client.clusterStatus()
        let job = try await client.submit(files: [Binaries.fixtures.appendingPathComponent("text.png")])
        let document = try await client.document(for: job)
        client.close()
        worker.signal(SIGTERM)
        #expect(await worker.wait(timeout: .seconds(20)) == 0)
        await cluster.stop()
        #expect(status.workers.count == 1)
        #expect(document.recognizedPages.count == 1)
        let readies = cluster.coordinator.stderr.components(separatedBy: "msg=\"worker ready\"").count - 1
        #expect(readies == 1, "the worker reconnected: \(cluster.coordinator.stderr)")
        #expect(!worker.stderr.contains("connection lost"), "\(worker.stderr)")
        #expect(worker.stderr.contains("heartbeat_ms=4000"), "the worker did not take the Welcome's interval: \(worker.stderr)")
    }
}
