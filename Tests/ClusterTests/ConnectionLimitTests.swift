import Foundation
import Glibc
import OCRTestSupport
import Testing

/// `--max-connections` with real processes: connections beyond the maximum on one endpoint are
/// refused at their handshake, at once and with a log line; the other endpoint is unaffected;
/// when the connections go away the endpoint serves again.
@Suite(.serialized) struct ConnectionLimitTests {
    /// Plain TCP connections that never say a word (as a flood would open them).
    final class IdleConnections {
        private(set) var descriptors: [Int32] = []

        init(count: Int, to endpoint: String) throws {
            let port = try #require(UInt16(endpoint.split(separator: ":").last ?? ""))
            for _ in 0..<count {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                #expect(fd >= 0)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                #expect(connected == 0, "connect: errno \(errno)")
                descriptors.append(fd)
            }
        }

        func close() {
            for fd in descriptors { Glibc.close(fd) }
            descriptors = []
        }

        deinit { close() }
    }

    @Test func connectionsBeyondTheMaximumAreRefusedAtOnceAndLogged() async throws {
        let cluster = try await TestCluster(coordinatorArguments: ["--max-connections", "8"])
        let flood = try IdleConnections(count: 10, to: cluster.clientEndpoint)
        // The coordinator counts them as libzmq accepts them; ask until it has (at most 20 s).
        var refused = try await cluster.submit(["status"])
        for _ in 0..<100 where refused.status == 0 {
            try await Task.sleep(for: .milliseconds(200))
            refused = try await cluster.submit(["status"])
        }
        #expect(refused.status == 69, "stderr: \(refused.stderr)")
        // Told why at once (a timeout would say "no answer ... within 5 s").
        #expect(refused.stderr.contains("at its connection limit"), "stderr: \(refused.stderr)")
        _ = try await cluster.coordinator.waitForStderr("connection limit reached")
        let logged = cluster.coordinator.stderr.split(separator: "\n").filter { $0.contains("connection limit reached") }
        #expect(logged.contains { $0.contains("domain=ocr.clients") && $0.contains("max=8") }, "\(logged)")

        // The worker endpoint keeps its own count: a worker still joins while clients are refused.
        try await cluster.addWorker(slots: 1, engine: "tesseract")
        try await cluster.waitForWorkers(1)

        // The flood goes away: clients get in again (once the closes are counted) and a job runs.
        flood.close()
        var admitted = try await cluster.submit(["status"])
        for _ in 0..<100 where admitted.status != 0 {
            try await Task.sleep(for: .milliseconds(200))
            admitted = try await cluster.submit(["status"])
        }
        #expect(admitted.status == 0, "stderr: \(admitted.stderr)")
        let sample = Binaries.fixtures.appendingPathComponent("multipage.tif").path
        let job = try await cluster.submit(["--quiet", sample])
        #expect(job.status == 0, "stderr: \(job.stderr)")
        #expect(job.stdout.contains("quick brown fox"))
        await cluster.stop()
    }
}
