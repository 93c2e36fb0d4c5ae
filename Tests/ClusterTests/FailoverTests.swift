import Foundation
import OCRTestSupport
import Testing

/// Issue 29: coordinators sharing a PostgreSQL journal (a real server, `initdb` and `pg_ctl` in a
/// temporary directory), one leading and one standing by; workers and `ocr-submit` given both
/// endpoints. The leader is killed, stopped past its lease, or loses its database mid-job.
@Suite(.serialized, .blocking, .enabled(if: PostgreSQLServer.isAvailable, "needs PostgreSQL (apt-get install postgresql)"))
struct FailoverTests {
    /// Two coordinators on one database, two workers, and a directory of `pages` page images.
    final class Cluster {
        let database: PostgreSQLServer
        let directory: URL
        let clientEndpoints: [String]
        let workerEndpoints: [String]
        let httpPorts: [Int]
        var coordinators: [ChildProcess] = []
        var workers: [ChildProcess] = []

        init(pages: Int, lease: Duration = .seconds(5)) async throws {
            database = try PostgreSQLServer()
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("failover-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("scan"), withIntermediateDirectories: true)
            let png = try Data(contentsOf: Binaries.fixtures.appendingPathComponent("tiny.png"))
            for i in 0..<pages { try png.write(to: directory.appendingPathComponent(String(format: "scan/p%03d.png", i))) }
            var ports: [Int] = []
            while ports.count < 6 {
                let port = try freeLoopbackPort()
                if !ports.contains(port) { ports.append(port) }
            }
            clientEndpoints = ["tcp://127.0.0.1:\(ports[0])", "tcp://127.0.0.1:\(ports[1])"]
            workerEndpoints = ["tcp://127.0.0.1:\(ports[2])", "tcp://127.0.0.1:\(ports[3])"]
            httpPorts = [ports[4], ports[5]]
            // The first leads (it comes first), the second stands by.
            for i in 0..<2 {
                coordinators.append(try ChildProcess("ocr-coordinator", [
                    "--journal", database.uri, "--leader-lease-ms", "\(lease.milliseconds)",
                    "--client-endpoint", clientEndpoints[i], "--worker-endpoint", workerEndpoints[i],
                    "--http-endpoint", "127.0.0.1:\(httpPorts[i])", "--heartbeat-ms", "250", "--log-level", "debug"]))
                _ = try await coordinators[i].waitForStderr(i == 0 ? "coordinator listening" : "standing by")
            }
            for _ in 0..<2 {
                workers.append(try ChildProcess("ocr-worker", ["--coordinator", workerEndpoints.joined(separator: ","), "--slots", "2",
                                                               "--heartbeat-ms", "250", "--engine", "sleep:300"]))
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while coordinators[0].stderr.components(separatedBy: "worker ready").count < 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        deinit {
            for process in coordinators + workers { process.signal(SIGKILL) }
            try? FileManager.default.removeItem(at: directory)
        }

        /// `ocr-submit` of the scan directory to both endpoints, writing JSON.
        func submit() throws -> ChildProcess {
            try ChildProcess("ocr-submit", ["--coordinator", clientEndpoints.joined(separator: ","), "-q", "-f", "json",
                                            "-o", directory.appendingPathComponent("out.json").path,
                                            directory.appendingPathComponent("scan").path])
        }

        /// Page results the journal holds (every leader's), and how many distinct pages they are.
        func completedRows() throws -> (rows: Int, pages: Int) {
            let row = try database.query("SELECT count(*) || ' ' || count(DISTINCT (job, page)) FROM ocr_changes WHERE kind = 4")
            let numbers = row.split(separator: " ").compactMap { Int($0) }
            return (numbers.first ?? -1, numbers.last ?? -1)
        }

        /// Waits until at least `count` pages are recorded.
        func waitForCompleted(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while try completedRows().pages < count {
                guard ContinuousClock.now < deadline else { throw TestProcessError("fewer than \(count) pages done after 30 s") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// The page indexes of the document `submit` wrote, in order.
        func documentPages() throws -> [Int] {
            let data = try Data(contentsOf: directory.appendingPathComponent("out.json"))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let pages = try #require(document["pages"] as? [[String: Any]])
            return pages.map { ($0["pageIndex"] as? Int) ?? 0 }
        }

        func readyz(_ i: Int) throws -> (status: Int32, body: String) {
            let out = try runProcess(["curl", "-s", "-w", "\n%{http_code}", "http://127.0.0.1:\(httpPorts[i])/readyz"])
            let lines = out.stdout.split(separator: "\n")
            return (Int32(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
    }

    @Test func killNineTheLeaderMidJobAndTheStandbyFinishesItWithEveryPageOnce() async throws {
        let cluster = try await Cluster(pages: 40)
        #expect(try cluster.readyz(0).status == 200)
        let standby = try cluster.readyz(1)
        #expect(standby.status == 503 && standby.body.contains("standby: the leader is") && standby.body.contains(cluster.clientEndpoints[0]),
                "readyz of the standby: \(standby)")
        let submit = try cluster.submit()
        try await cluster.waitForCompleted(6)
        cluster.coordinators[0].signal(SIGKILL)
        let killed = ContinuousClock.now
        #expect(try cluster.completedRows().pages < 40, "the kill landed mid-job")
        _ = try await cluster.coordinators[1].waitForStderr(#"msg=leading epoch=2"#, timeout: .seconds(10))
        _ = try await cluster.coordinators[1].waitForStderr("coordinator listening", timeout: .seconds(10))
        let takeover = ContinuousClock.now - killed
        #expect(takeover < .seconds(5), "the standby led \(takeover) after the kill")

        #expect(await submit.wait(timeout: .seconds(60)) == 0, "ocr-submit: \(submit.stderr)")
        #expect(try cluster.documentPages() == Array(0..<40))
        let recorded = try cluster.completedRows()
        #expect(recorded.rows == 40 && recorded.pages == 40, "every page recorded once: \(recorded)")
        #expect(try cluster.readyz(1).status == 200)
        #expect(cluster.coordinators[1].stderr.contains("journal restored"))
        let metrics = try runProcess(["curl", "-s", "http://127.0.0.1:\(cluster.httpPorts[1])/metrics"]).stdout
        #expect(metrics.contains("\nocr_leader_epoch 2\n"), "metrics: \(metrics.prefix(2000))")
    }

    @Test func aLeaderStoppedPastItsLeaseStepsDownWhenItWakesAndCommitsNothing() async throws {
        let cluster = try await Cluster(pages: 40, lease: .milliseconds(1500))
        let submit = try cluster.submit()
        try await cluster.waitForCompleted(6)
        let old = cluster.coordinators[0]
        old.signal(SIGSTOP)
        _ = try await cluster.coordinators[1].waitForStderr(#"msg=leading epoch=2"#, timeout: .seconds(10))
        // The new leader finishes the job while the old one sleeps.
        #expect(await submit.wait(timeout: .seconds(60)) == 0, "ocr-submit: \(submit.stderr)")
        #expect(try cluster.documentPages() == Array(0..<40))
        let before = try cluster.database.query("SELECT count(*) FROM ocr_changes")

        let stderrAtStop = old.stderr
        old.signal(SIGCONT)
        _ = try await old.waitForStderr("stepped down; standing by", timeout: .seconds(10))
        _ = try await old.waitForStderr(#"standing by" leader=.*epoch=2"#, timeout: .seconds(10))
        // Nothing it did after waking reached the journal or a worker.
        #expect(try cluster.database.query("SELECT count(*) FROM ocr_changes") == before)
        let woke = String(old.stderr.dropFirst(stderrAtStop.count))
        #expect(!woke.contains("task sent"), "the old leader dispatched after waking:\n\(woke)")
        #expect(woke.contains("lost the leadership"))
        let recorded = try cluster.completedRows()
        #expect(recorded.rows == 40 && recorded.pages == 40, "every page recorded once: \(recorded)")
        let ready = try cluster.readyz(0)
        #expect(ready.status == 503 && ready.body.contains("standby"), "\(ready)")
        #expect(try cluster.readyz(1).status == 200)
    }

    @Test func theDatabaseRestartedMidJobAndTheJobFinishesWhenItReturns() async throws {
        let cluster = try await Cluster(pages: 40)
        let submit = try cluster.submit()
        try await cluster.waitForCompleted(6)
        try cluster.database.stop()
        // While it is away the leader holds back what it cannot journal and is not ready.
        let deadline = ContinuousClock.now + .seconds(10)
        var away = try cluster.readyz(0)
        while away.status == 200, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            away = try cluster.readyz(0)
        }
        #expect(away.status == 503, "readyz while the database is away: \(away)")
        try await Task.sleep(for: .seconds(2))
        try cluster.database.start()

        #expect(await submit.wait(timeout: .seconds(90)) == 0, "ocr-submit: \(submit.stderr)")
        #expect(try cluster.documentPages() == Array(0..<40))
        let recorded = try cluster.completedRows()
        #expect(recorded.rows == 40 && recorded.pages == 40, "every page recorded once: \(recorded)")
        // Both coordinators lived through it; one of them leads.
        #expect(cluster.coordinators.allSatisfy { $0.process.isRunning })
        let statuses = try [cluster.readyz(0).status, cluster.readyz(1).status]
        #expect(statuses.filter { $0 == 200 }.count == 1, "readyz: \(statuses)")
    }
}
