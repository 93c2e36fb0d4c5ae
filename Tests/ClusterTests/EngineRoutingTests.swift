import Foundation
import OCRClient
import OCRTestSupport
import Testing

/// Routing by engine, with a worker of another engine written from PROTOCOL.md in Python
/// (python_worker.py `engine`): a job that asks for it goes only to it, the others only to the
/// Swift worker (Tesseract's stand-in), and ClusterStatus shows each worker's engines. The echo
/// worker falls silent past its liveness before its first answer, as a stalled machine makes
/// it (which hung a CI run while the test's worker ignored Disconnect): the coordinator takes
/// it for dead, refuses the late answer, and gives the page again when it reconnects.
/// The time limit counts the wait for a `.blocking` slot too (211 s and 216 s in CI runs on 2
/// cores, where 2 minutes failed the test), so it is longer than the whole run (558 s there) and
/// only stops a hang.
@Suite(.serialized, .blocking, .timeLimit(.minutes(10))) struct EngineRoutingTests {
    @Test func jobsGoOnlyToWorkersOfTheirEngine() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "sleep:50")
        // Silent 4 s: twice the coordinator's 2 s liveness (200 ms x 10 in TestCluster).
        let peer = UncheckedSendable(Process())
        async let echo = UnknownFieldsTests.python(["engine", cluster.workerEndpoint, UnknownFieldsTests.proto, "echo", "4"], in: peer)
        try await cluster.waitForWorkers(2)
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        let status = try await client.clusterStatus()
        #expect(Set(status.workers.map(\.engines)) == [["tesseract"], ["echo"]], "\(status.workers.map(\.engines))")

        let png = [UInt8](try Data(contentsOf: Binaries.fixtures.appendingPathComponent("tiny.png")))
        let inputs = (0..<3).map { i in InputFile.with { $0.name = "p\(i).png"; $0.content = png; $0.format = .png } }
        let echoJob = try await client.submit(inputs: inputs, options: RecognitionOptions.with { $0.engine = "echo" })
        let plainJob = try await client.submit(inputs: inputs)
        let echoed = try await client.document(for: echoJob)
        let plain = try await client.document(for: plainJob)
        #expect(echoed.recognizedPages.map(\.text) == (0..<3).map { "echo read p\($0).png page \($0)\n" })
        #expect(plain.recognizedPages.count == 3 && plain.recognizedPages.allSatisfy { !$0.text.contains("echo") })
        peer.value.terminate()
        let answered = try #require(try await echo["answered"] as? [[String: Any]])
        #expect(Set(answered.map { $0["job_id"] as? String }) == [echoJob.jobId], "the echo worker answered only the echo job: \(answered)")
        // What it answered on its first connection came too late and was refused: those pages
        // came again, as second attempts, on its second connection, which answered every page once.
        let late = answered.filter { $0["connection"] as? Int == 1 }
        let again = answered.filter { $0["connection"] as? Int == 2 }
        #expect(!late.isEmpty && late.count + again.count == answered.count, "\(answered)")
        #expect(again.compactMap { $0["page_index"] as? Int }.sorted() == [0, 1, 2], "\(answered)")
        for page in late.compactMap({ $0["page_index"] as? Int }) {
            #expect(again.contains { $0["page_index"] as? Int == page && $0["attempt"] as? Int == 2 }, "page \(page): \(answered)")
        }

        // An engine nobody runs is refused at once, naming what runs.
        do {
            _ = try await client.submit(inputs: inputs, options: RecognitionOptions.with { $0.engine = "nobody" })
            Issue.record("a job for an engine nobody runs was accepted")
        } catch let error as OCRError {
            #expect(error.code == .failedPrecondition && error.message.contains("nobody") && error.message.contains("tesseract"), "\(error)")
        }
        do {
            _ = try await client.submit(inputs: inputs, options: RecognitionOptions.with { $0.engine = "Bad Name" })
            Issue.record("an engine name with spaces was accepted")
        } catch let error as OCRError {
            #expect(error.code == .invalidArgument && error.details["field"] == "engine", "\(error)")
        }
        client.close()
        await cluster.stop()
    }
}
