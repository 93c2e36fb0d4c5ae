import Foundation
import OCRClient
import OCRTestSupport
import Testing

/// A field added by a newer worker survives the coordinator's relay (decode, journal, re-encode)
/// and reaches the client: checked with Python's protobuf on both ends, built from a proto/ with
/// fields this build does not know.
@Suite(.serialized, .blocking) struct UnknownFieldsTests {
    static let script = Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/python_worker.py").path
    static let proto = Binaries.repoRoot.appendingPathComponent("proto").path

    /// Runs python_worker.py with `arguments` in `peer` and returns what it printed. A worker
    /// mode answers until the caller stops it with `peer.value.terminate()`.
    static func python(_ arguments: [String], in peer: UncheckedSendable<Process> = UncheckedSendable(Process())) async throws -> [String: Any] {
        let process = peer.value
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let (out, err) = try await runToCompletion(process)
        #expect(process.terminationStatus == 0, "python stderr: \(String(decoding: err, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: out) as? [String: Any], "stdout: \(String(decoding: out, as: UTF8.self))")
    }

    /// In memory, and through each journal (which stores the result's bytes as they came).
    @Test(arguments: [nil] + TestJournal.allCases)
    func aNewerWorkersFieldReachesTheClient(journal: TestJournal?) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-unknown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (journalArguments, database) = try journal?.arguments(in: dir) ?? ([], nil)
        defer { withExtendedLifetime(database) {} }
        let cluster = try await TestCluster(coordinatorArguments: journalArguments)
        let peer = UncheckedSendable(Process())
        async let worker = Self.python(["newer", cluster.workerEndpoint, Self.proto], in: peer)
        try await cluster.waitForWorkers(1)
        let client = try OCRClient(endpoint: cluster.clientEndpoint)
        let job = try await client.submit(files: [Binaries.fixtures.appendingPathComponent("text.png")])
        let document = try await client.document(for: job)
        peer.value.terminate()
        let answered = try await worker
        #expect((answered["answered"] as? [Any])?.count == 1)
        // After the job: what GetJob/WatchJob replay give (from the store, or the journal) too.
        var replayed: [PageResult] = []
        for try await event in client.events(for: job) {
            if let page = event.pageCompleted?.result { replayed.append(page) }
        }
        client.close()
        await cluster.stop()

        let page = try #require(document.recognizedPages.first)
        #expect(page.text == "newer\n")
        #expect(!page.unknownFields.isEmpty, "the coordinator dropped the newer fields")
        #expect(replayed == [page])
        let hex = page.serializedBytes().map { String(format: "%02x", $0) }.joined()
        let decoded = try await Self.python(["check-newer", "-", Self.proto, hex])
        #expect(decoded["added_by_newer_worker"] as? String == "kept by every hop")
        #expect(decoded["newer_word_field"] as? Int == 7)
    }
}
