import Foundation
import OCRBasics

/// A real PostgreSQL server of a test's own: `initdb` in a temporary directory and `pg_ctl`
/// starting it on a free loopback port (trust authentication, loopback only). Run as the
/// `postgres` user when the tests run as root (initdb refuses root). Gate tests on
/// `isAvailable` (Debian's `postgresql` package; `make test` installs it).
package final class PostgreSQLServer: Sendable {
    package let directory: URL
    package let port: Int
    private let server = Locked<ChildProcess?>(nil)
    /// A libpq URI of the server's `postgres` database, as user `ocr`.
    package var uri: String { "postgresql://ocr@127.0.0.1:\(port)/postgres" }

    private static let binDirectory: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else { return nil }
        let bin = "\(root)/\(newest)/bin"
        return FileManager.default.isExecutableFile(atPath: bin + "/initdb") ? bin : nil
    }()

    /// Whether a PostgreSQL server can be started here.
    package static var isAvailable: Bool { binDirectory != nil && (getuid() != 0 || getpwnam("postgres") != nil) }

    /// Creates and starts a fresh cluster.
    package init() throws {
        guard let bin = Self.binDirectory else { throw TestProcessError("PostgreSQL is not installed (apt-get install postgresql)") }
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("ocr-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        if getuid() == 0 { _ = try runProcess(["chown", "postgres:postgres", directory.path]) }
        let initdb = try Self.run(["\(bin)/initdb", "-D", directory.appendingPathComponent("data").path, "-U", "ocr", "-A", "trust",
                                   "--no-sync", "-E", "UTF8"])
        guard initdb.status == 0 else { throw TestProcessError("initdb failed: \(initdb.stderr)") }
        try start()
    }

    deinit {
        _ = try? Self.run(["\(Self.binDirectory ?? "")/pg_ctl", "-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        server.withLock { $0 = nil }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the server (again) and waits until it accepts connections. The server runs in the
    /// foreground as a child of the test (`pg_ctl start` would leave a daemon holding the file
    /// descriptor by which Foundation learns that its child exited, and `runProcess` would wait
    /// for ever).
    package func start() throws {
        let postgres = ["\(Self.binDirectory!)/postgres", "-D", directory.appendingPathComponent("data").path,
                        "-c", "listen_addresses=127.0.0.1", "-p", "\(port)", "-k", directory.path, "-c", "fsync=off"]
        let server = try ChildProcess("/usr/bin/env", getuid() == 0 ? ["runuser", "-u", "postgres", "--"] + postgres : postgres)
        self.server.withLock { $0 = server }
        let deadline = ContinuousClock.now + .seconds(30)
        while try runProcess(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "\(port)"]).status != 0 {
            guard server.process.isRunning, ContinuousClock.now < deadline else {
                throw TestProcessError("postgres did not start: \(server.stderr)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Stops the server (fast: sessions are ended, as a restart or failover of the database does).
    package func stop() throws {
        let stopped = try Self.run(["\(Self.binDirectory!)/pg_ctl", "-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"])
        guard stopped.status == 0 else { throw TestProcessError("pg_ctl stop failed: \(stopped.stderr)") }
        server.withLock { $0 = nil }
    }

    /// Runs one SQL command with psql and returns its unaligned output.
    package func query(_ sql: String) throws -> String {
        let out = try runProcess(["psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, uri])
        guard out.status == 0 else { throw TestProcessError("psql failed: \(out.stderr)") }
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func run(_ arguments: [String]) throws -> ProcessOutput {
        getuid() == 0 ? try runProcess(["runuser", "-u", "postgres", "--"] + arguments) : try runProcess(arguments)
    }
}

/// Where a test coordinator keeps its journal: the suites that exercise the journal run once
/// with each backend.
package enum TestJournal: String, CaseIterable, Sendable {
    case sqlite, postgresql

    /// The coordinator's `--journal` arguments for a journal in `directory` (SQLite) or on a
    /// fresh server (PostgreSQL, returned so that the caller keeps it running).
    package func arguments(in directory: URL) throws -> (arguments: [String], server: PostgreSQLServer?) {
        switch self {
        case .sqlite:
            return (["--journal", directory.appendingPathComponent("journal.db").path], nil)
        case .postgresql:
            guard PostgreSQLServer.isAvailable else { throw TestProcessError("PostgreSQL is not installed (apt-get install postgresql)") }
            let server = try PostgreSQLServer()
            return (["--journal", server.uri], server)
        }
    }
}
