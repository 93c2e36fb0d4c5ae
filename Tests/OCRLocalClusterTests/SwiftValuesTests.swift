import Foundation
import OCRClient
import OCRLocalCluster
import OCRLog
import OCRPageEngine
import OCRTestSupport
import Testing

/// OCRClient's API in Swift's terms, against a real (in-process) coordinator: optionals where the
/// wire has "" or 0 for none, `Int` counts, `Date`s and `Duration`s, `URL`s.
@Suite struct SwiftValuesTests {
    private let scan = Binaries.fixtures.appendingPathComponent("multipage.tif")

    @Test func jobsReadAsSwiftValues() async throws {
        let cluster = try await LocalCluster.start(slots: 2, engine: .null, logger: Logger(component: "swift-values-test", level: .error))
        let client = try cluster.client()
        let plain = try await client.submit(files: [scan])
        #expect(plain.key == nil)
        #expect(plain.totalPages == 3)
        #expect(plain.id == plain.jobId)
        _ = try await client.document(for: plain)
        let keyed = try await client.submit(files: [scan], jobKey: "nightly-42", priority: 5)
        #expect(keyed.key == "nightly-42")
        _ = try await client.document(for: keyed)

        let finished = try await client.job(plain.id)
        #expect(finished.completedPages == 3)
        #expect(finished.failedPages == 0)
        #expect(finished.failure == nil)
        let created = try #require(finished.createdAt)
        let ended = try #require(finished.finishedAt)
        #expect(created <= ended)
        #expect(abs(ended.timeIntervalSinceNow) < 600)

        // Pages of the job list: a token while more remain, nil on the last page.
        let first = try await client.jobPage(limit: 1)
        #expect(first.jobs.map(\.id) == [keyed.id])
        let token = try #require(first.nextPageToken)
        let second = try await client.jobPage(limit: 1, pageToken: token)
        #expect(second.jobs.map(\.id) == [plain.id])
        #expect(second.nextPageToken == nil)

        let status = try await client.clusterStatus()
        #expect(status.slotCount == 2)
        #expect(status.completedPages == 6)
        #expect(status.workers.map(\.slotCount) == [2])
        client.close()
        await cluster.stopping()
    }

    @Test func aCancelledJobNamesItsFailure() async throws {
        let cluster = try await LocalCluster.start(slots: 1, engine: .sleep(.seconds(30)), logger: Logger(component: "swift-values-test", level: .error))
        let client = try cluster.client()
        let job = try await client.submit(files: [scan])
        let cancelled = try await client.cancel(job)
        #expect(cancelled.failure?.code == .cancelled)
        client.close()
        await cluster.stopping()
    }
}
