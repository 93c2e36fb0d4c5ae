import Foundation
import OCRTestSupport
import Testing

/// Slow HTTP clients (a partial header, then a byte every 2 s) cannot take the HTTP endpoint:
/// one address gets at most 64 connections, a request header is due within 10 s (then the
/// connection is cut), and `--http-probe-endpoint` answers the probes on a listener of its own
/// while a flood from many addresses fills every slot of the API's.
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl"), "needs curl"))
struct SlowClientTests {
    static let flood = Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/slow_http_clients.py").path

    /// Probes `url` every 300 ms for `seconds`; the slowest answer and the failures.
    func probe(_ url: String, for seconds: Double) async throws -> (slowest: Double, failures: [String]) {
        var slowest = 0.0, failures: [String] = []
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            let started = ContinuousClock.now
            let reply = try await runAsync(["curl", "-sS", "--max-time", "3", "-o", "/dev/null", "-w", "%{http_code}", url])
            let took = (ContinuousClock.now - started) / .seconds(1)
            slowest = max(slowest, took)
            if reply.stdout != "200" { failures.append("\(reply.stdout) \(reply.stderr)") }
            try await Task.sleep(for: .milliseconds(300))
        }
        return (slowest, failures)
    }

    func floodResult(_ flood: ExternalProcess) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(60)
        while flood.process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(200)) }
        let last = try #require(flood.output.split(separator: "\n").last { $0.contains("\"done\"") }, "flood output: \(flood.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    }

    @Test func aFloodFromOneAddressLeavesTheEndpointToOthersAndSlowHeadersAreCut() async throws {
        let cluster = try await TestCluster()
        let base = try #require(cluster.httpURL)
        let port = try #require(base.split(separator: ":").last.flatMap { Int($0) })
        let flood = try ExternalProcess(["python3", Self.flood, "127.0.0.1", "\(port)", "300", "1", "16"])
        try await Task.sleep(for: .seconds(1))
        // Every probe from another address is answered 200 within curl's 3 s while the flood
        // holds its 64 connections. How fast is a figure, not a check: on a loaded CI machine
        // one curl process took 4.4 s from spawn to exit.
        let probes = try await probe(base + "/healthz", for: 13)
        #expect(probes.failures.isEmpty, "\(probes.failures.prefix(5))")
        let result = try await floodResult(flood)
        // 64 accepted from that address, the rest closed at once; the 64 cut at their 10 s deadline.
        let closedAfter = try #require(result["closed_after"] as? [Double])
        print("[figures] one address, 300 slow connections: \(closedAfter.filter { $0 < 1 }.count) closed on accept, "
              + "\(closedAfter.filter { $0 >= 1 }.count) cut after \(closedAfter.filter { $0 >= 1 }.min() ?? 0)-\(closedAfter.max() ?? 0) s; "
              + "slowest /healthz from another address \(probes.slowest) s")
        #expect(result["still_open"] as? Int == 0, "\(result)")
        #expect(closedAfter.filter { $0 >= 9 }.count == 64, "\(closedAfter)")
        #expect(closedAfter.allSatisfy { $0 < 13 }, "\(closedAfter)")
        #expect(cluster.coordinator.process.isRunning)
        await cluster.stop()
    }

    @Test func theProbeListenerAnswersWhileAFloodFromManyAddressesFillsTheAPI() async throws {
        let probePort = try freeLoopbackPort()
        let cluster = try await TestCluster(coordinatorArguments: ["--http-probe-endpoint", "127.0.0.1:\(probePort)"])
        let base = try #require(cluster.httpURL)
        let port = try #require(base.split(separator: ":").last.flatMap { Int($0) })
        #expect(cluster.coordinator.stderr.contains("\"http probes listening\" url=http://127.0.0.1:\(probePort)/healthz"))
        let flood = try ExternalProcess(["python3", Self.flood, "127.0.0.1", "\(port)", "300", "10", "8"])
        try await Task.sleep(for: .seconds(1))
        let probes = try await probe("http://127.0.0.1:\(probePort)/healthz", for: 5)
        #expect(probes.failures.isEmpty, "\(probes.failures.prefix(5))")  // Each within curl's 3 s; how fast is a figure.
        let ready = try await runAsync(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(probePort)/readyz"])
        #expect(ready.stdout == "200")
        let other = try await runAsync(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(probePort)/v1/jobs"])
        #expect(other.stdout == "404", "the probe listener serves the probes only")
        let result = try await floodResult(flood)
        print("[figures] ten addresses, 300 slow connections: \(result["still_open"] ?? 0) held for 8 s, slowest probe \(probes.slowest) s")
        #expect(result["still_open"] as? Int == 256, "the flood held every slot of the API's listener: \(result)")
        #expect(cluster.coordinator.process.isRunning)
        await cluster.stop()
    }
}
