import Foundation
import OCRTestSupport
import Testing

/// The cross-machine path: `deploy/netns-cluster.sh` puts the coordinator and two workers in
/// separate network namespaces joined by a bridge, so pages cross real (virtual) links between
/// distinct hosts, not loopback. Needs root and iproute2; skipped where namespaces cannot be made.
@Suite(.serialized) struct NetworkNamespaceTests {
    static var canMakeNamespaces: Bool {
        guard getuid() == 0 else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/bin/sh")
        probe.arguments = ["-c", "ip netns add ocr-probe && ip netns del ocr-probe"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    @Test(.enabled(if: canMakeNamespaces, "needs root and network namespaces"))
    func workersInOtherNamespacesServeTheJob() async throws {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [Binaries.repoRoot.appendingPathComponent("deploy/netns-cluster.sh").path, "2"]
        script.currentDirectoryURL = Binaries.repoRoot
        script.environment = ProcessInfo.processInfo.environment.merging(["OCR_BIN": Binaries.buildDirectory.path]) { $1 }
        let (out, err) = try await runToCompletion(script)
        let stdout = String(decoding: out, as: UTF8.self)
        #expect(script.terminationStatus == 0, "stderr: \(String(decoding: err, as: UTF8.self))")
        #expect(stdout.contains("The quick brown fox jumps over the lazy dog."))
        #expect(stdout.contains("Third page: the last one."))
        #expect(stdout.contains("workers 2  slots 2"), "both workers joined from their namespaces: \(stdout)")
    }
}
