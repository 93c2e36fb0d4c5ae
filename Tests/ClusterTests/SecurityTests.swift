import Foundation
import OCRTestSupport
import Testing

/// CURVE on both endpoints with key allow-lists (DESIGN section 6), with real processes.
@Suite(.serialized) struct SecurityTests {
    func keygen(_ dir: URL, _ name: String) async throws -> (secret: String, publicKey: String) {
        let path = dir.appendingPathComponent(name).path
        let keygen = try ChildProcess("ocr-coordinator", ["keygen", path])
        #expect(await keygen.wait() == 0, "keygen: \(keygen.stderr)")
        let publicKey = try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(publicKey.count == 40)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the secret key must not be readable by others")
        return (path, publicKey)
    }

    @Test func onlyListedClientsAndWorkersGetIn() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-curve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try await keygen(dir, "coordinator")
        let client = try await keygen(dir, "client")
        let worker = try await keygen(dir, "worker")
        let stranger = try await keygen(dir, "stranger")
        let clients = dir.appendingPathComponent("clients.keys").path
        let workers = dir.appendingPathComponent("workers.keys").path
        try "# allowed clients\n\(client.publicKey)\n".write(toFile: clients, atomically: true, encoding: .utf8)
        try "\(worker.publicKey)\n".write(toFile: workers, atomically: true, encoding: .utf8)

        let cluster = try await TestCluster(coordinatorArguments: [
            "--curve-secret-key", server.secret, "--allow-client-keys", clients, "--allow-worker-keys", workers])
        // A worker with a key not on the list never gets work; the listed one does.
        try await cluster.addWorker(slots: 1, engine: "null", extra: ["--curve-server-key", server.publicKey, "--curve-secret-key", stranger.secret])
        try await cluster.addWorker(slots: 1, engine: "tesseract", extra: ["--curve-server-key", server.publicKey, "--curve-secret-key", worker.secret])
        let sample = Binaries.fixtures.appendingPathComponent("multipage.tif").path

        let plain = try await cluster.submit(["--quiet", sample])
        #expect(plain.status == 69, "a plain-TCP client must not get through; stderr: \(plain.stderr)")
        let unlisted = try await cluster.submit(["--quiet", "--curve-server-key", server.publicKey, "--curve-secret-key", stranger.secret, sample])
        #expect(unlisted.status == 77, "stderr: \(unlisted.stderr)")
        #expect(unlisted.stderr.contains("refused this client's CURVE key"), "told at once, not a timeout: \(unlisted.stderr)")
        let listed = try await cluster.submit(["--quiet", "--curve-server-key", server.publicKey, "--curve-secret-key", client.secret, sample])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        #expect(listed.stdout.contains("quick brown fox"), "text from the listed (Tesseract) worker, not the stranger's null engine")
        let status = try await cluster.submit(["--curve-server-key", server.publicKey, "--curve-secret-key", client.secret, "status"])
        #expect(status.stdout.hasPrefix("workers 1 "), "only the listed worker joined: \(status.stdout)")
        #expect(cluster.coordinator.stderr.contains("refused a connection"))
        #expect(cluster.coordinator.stderr.contains("msg=\"curve secret key\" from=\"file \(server.secret)\""), "the log says which key was used")
        await cluster.stop()
    }
}
