import Foundation
import OCRClient
import OCRLocalCluster
import OCRLog
import OCRPageEngine
import OCRTestSupport
import Testing

/// The embedded cluster of `ocr-submit --local`: a coordinator and one worker over `inproc://`
/// endpoints of one ZeroMQ context, reachable from this process only.
@Suite struct LocalClusterTests {
    private let logger = Logger(component: "local-cluster-test", level: .error)

    @Test func aJobRunsOnTheWorkersEngineThreadsInProcess() async throws {
        let cluster = try await LocalCluster.start(slots: 3, engine: .null, logger: logger)
        #expect(cluster.clientEndpoint.hasPrefix("inproc://"))
        #expect(cluster.coordinator.workerEndpoint.hasPrefix("inproc://"))
        let client = try cluster.client()
        let status = try await client.clusterStatus()
        #expect(status.workers.count == 1)
        #expect(status.totalSlots == 3)
        let job = try await client.submit(files: [Binaries.fixtures.appendingPathComponent("multipage.tif")])
        let document = try await client.document(for: job)
        #expect(document.pages.map(\.pageIndex) == [0, 1, 2])
        client.close()
        await cluster.stopping()
    }

    @Test func aClientOfAnotherContextCannotReachIt() async throws {
        let cluster = try await LocalCluster.start(slots: 1, engine: .null, logger: logger)
        let stranger = try OCRClient(endpoint: cluster.clientEndpoint, callTimeout: .milliseconds(500))
        // inproc:// names live in a context: from another, nothing answers (as a machine that is down).
        await #expect { _ = try await stranger.health(timeout: .milliseconds(500)) } throws: { error in
            (error as? OCRError)?.code == .unavailable
        }
        stranger.close()
        await cluster.stopping()
    }
}
