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

    /// `deploy/netns-faults.sh --runs cut`: two worker hosts whose links to the coordinator host
    /// have 50 ms delay and 1% loss each way (real `tc netem` where the kernel has it, else the
    /// script's user-space link carrier, which it names), and one link cut for 6 s mid-job and
    /// restored. The throughput with impaired links against clean ones is a speed figure:
    /// `make bench` measures it (BENCHMARKS.md, section 6).
    @Test(.enabled(if: canMakeNamespaces, "needs root and network namespaces"))
    func aCutLinkMidJobLosesNothing() async throws {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [Binaries.repoRoot.appendingPathComponent("deploy/netns-faults.sh").path, "--runs", "cut", "240"]
        script.currentDirectoryURL = Binaries.repoRoot
        script.environment = ProcessInfo.processInfo.environment.merging(["OCR_BIN": Binaries.buildDirectory.path]) { $1 }
        let (out, err) = try await runToCompletion(script)
        let stdout = String(decoding: out, as: UTF8.self)
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(script.terminationStatus == 0, "stdout: \(stdout)\nstderr: \(String(decoding: err, as: UTF8.self))")
        let cut = try #require(lines.first { $0.hasPrefix("run=cut ") }, "stdout: \(stdout)")
        #expect(cut.contains(" delay_ms=50 loss=0.01 "), "the links were impaired: \(cut)")
        #expect(cut.contains(" status=0 ") && cut.contains(" in_order=yes "), "every page once, in order: \(cut)")
        #expect(cut.hasSuffix(" rejoined=yes"), "the cut worker came back: \(cut)")
    }
}
