import Foundation
import OCRTestSupport
import Testing

/// `ocr-coordinator` stops cleanly on SIGTERM and SIGINT: exit 0, the stop logged.
@Suite struct CoordinatorSignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func exitsZeroAfterACleanStop(signal: Int32) async throws {
        let cluster = try await TestCluster()
        cluster.coordinator.signal(signal)
        let status = await cluster.coordinator.wait(timeout: .seconds(20))
        #expect(cluster.coordinator.process.terminationReason == .exit, "killed by a signal: \(cluster.coordinator.stderr)")
        #expect(status == 0, "\(cluster.coordinator.stderr)")
        #expect(cluster.coordinator.stderr.contains("msg=stopping signal=\(signal)"))
        #expect(cluster.coordinator.stderr.contains("msg=stopped"))
    }
}
