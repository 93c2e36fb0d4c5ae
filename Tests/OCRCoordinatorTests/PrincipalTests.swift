import Foundation
import OCRClient
import OCRLog
import OCRWire
import OCRZeroMQ
import Testing
@testable import OCRCoordinator

/// Jobs belong to the client that submitted them (its CURVE key): nobody else sees, watches or
/// cancels them (admins excepted), job keys are per client, and quotas are per client.
@Suite(.serialized) struct PrincipalTests {
    struct Peer {
        let keys: CurveKeyPair
        let client: OCRClient
    }

    static func makeServer(_ configure: (inout CoordinatorConfiguration) -> Void = { _ in }) throws -> (CoordinatorServer, CurveKeyPair) {
        let serverKeys = try CurveKeyPair.generate()
        var config = CoordinatorConfiguration(splitter: CoordinatorServerTests.lineSplitter, logger: .disabled)
        config.clientEndpoint = "tcp://127.0.0.1:*"
        config.workerEndpoint = "tcp://127.0.0.1:*"
        config.security = CurveServerSecurity(keyPair: serverKeys)
        configure(&config)
        return (try CoordinatorServer(config), serverKeys)
    }

    static func peer(_ server: CoordinatorServer, _ serverKeys: CurveKeyPair, keys: CurveKeyPair? = nil) throws -> Peer {
        let keys = try keys ?? CurveKeyPair.generate()
        let client = try OCRClient(endpoint: server.clientEndpoint, callTimeout: .seconds(10),
                                   security: CurveClientSecurity(serverKey: serverKeys.publicKey, keyPair: keys))
        return Peer(keys: keys, client: client)
    }

    static func code(_ body: () async throws -> Void) async -> StatusCode? {
        do {
            try await body()
            return nil
        } catch let error as OCRError {
            return error.code
        } catch {
            return .unknown
        }
    }

    @Test func aClientSeesWatchesAndCancelsOnlyItsOwnJobsAndAnAdminSeesAll() async throws {
        let adminKeys = try CurveKeyPair.generate()
        let (server, serverKeys) = try Self.makeServer { $0.adminClients = [adminKeys.publicKey.z85] }
        defer { server.stop() }
        let alice = try Self.peer(server, serverKeys), bob = try Self.peer(server, serverKeys)
        let admin = try Self.peer(server, serverKeys, keys: adminKeys)
        defer { [alice, bob, admin].forEach { $0.client.close() } }

        let job = try await alice.client.submit(inputs: [CoordinatorServerTests.file("a.txt", ["one", "two"])], jobKey: "invoice-7")
        // Bob: NOT_FOUND for everything about Alice's job, as if it did not exist.
        #expect(await Self.code { _ = try await bob.client.job(job.jobId) } == .notFound)
        #expect(await Self.code { _ = try await bob.client.cancel(jobID: job.jobId) } == .notFound)
        #expect(await Self.code { for try await _ in bob.client.events(forJobID: job.jobId) {} } == .notFound)
        #expect(try await bob.client.jobs().isEmpty)
        // The same job key from Bob is Bob's own new job, not a way to Alice's.
        let bobs = try await bob.client.submit(inputs: [CoordinatorServerTests.file("b.txt", ["three"])], jobKey: "invoice-7")
        #expect(bobs.jobId != job.jobId)
        #expect(try await bob.client.jobs().map(\.jobId) == [bobs.jobId])
        #expect(try await alice.client.jobs().map(\.jobId) == [job.jobId])
        // The admin sees both; Alice still reads and cancels her own.
        #expect(Set(try await admin.client.jobs().map(\.jobId)) == [job.jobId, bobs.jobId])
        #expect(try await admin.client.job(job.jobId).pageCount == 2)
        #expect(try await alice.client.job(job.jobId).jobKey == "invoice-7")
        #expect(try await alice.client.cancel(jobID: job.jobId).state == .cancelled)
        #expect(try await bob.client.job(bobs.jobId).state == .queued)
    }

    @Test func quotasArePerClient() async throws {
        let (server, serverKeys) = try Self.makeServer {
            $0.scheduler.maxPagesPerPrincipal = 3
            $0.maxStreamsPerPrincipal = 2
            $0.watchKeepalive = .milliseconds(200)
        }
        defer { server.stop() }
        let alice = try Self.peer(server, serverKeys), bob = try Self.peer(server, serverKeys)
        defer { [alice, bob].forEach { $0.client.close() } }

        let first = try await alice.client.submit(inputs: [CoordinatorServerTests.file("a.txt", ["1", "2"])])
        do {
            _ = try await alice.client.submit(inputs: [CoordinatorServerTests.file("more.txt", ["3", "4"])])
            Issue.record("a submission beyond the client's quota was taken")
        } catch let error as OCRError {
            #expect(error.code == .resourceExhausted && error.message.contains("per client") && error.details["max_pages_per_client"] == "3")
        }
        // Bob's quota is his own.
        _ = try await bob.client.submit(inputs: [CoordinatorServerTests.file("b.txt", ["1", "2", "3"])])

        // Two open streams each; the third of Alice's is refused, Bob's still open.
        let a1 = alice.client.events(forJobID: first.jobId), a2 = alice.client.events(forJobID: first.jobId)
        var i1 = a1.makeAsyncIterator(), i2 = a2.makeAsyncIterator()
        _ = try await i1.next()  // keepalive progress: both streams are open
        _ = try await i2.next()
        #expect(await Self.code { for try await _ in alice.client.events(forJobID: first.jobId) {} } == .resourceExhausted)
        #expect(try await alice.client.cancel(jobID: first.jobId).state == .cancelled)
        // Cancelling ended both streams: their places are free again, and the quota's pages too.
        while try await i1.next() != nil {}
        while try await i2.next() != nil {}
        _ = try await alice.client.submit(inputs: [CoordinatorServerTests.file("later.txt", ["1", "2", "3"])])
    }
}
