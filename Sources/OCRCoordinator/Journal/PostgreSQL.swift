import CPostgreSQL
import Foundation

/// A PostgreSQL failure: its SQLSTATE (`53100` disk full, `40001` serialization, ...; empty for
/// a connection that failed or broke) and libpq's message, with what was being done.
package struct PostgreSQLError: Error, Sendable, CustomStringConvertible {
    package var sqlState: String
    package var message: String
    /// The connection is gone (the server restarted, the network failed, the session was
    /// terminated): a new connection may succeed where this one cannot.
    package var connectionLost: Bool
    package var description: String {
        "postgresql error\(sqlState.isEmpty ? "" : " \(sqlState)"): \(message)"
    }
}

/// A value bound to a statement's `$n` parameter. Integers and text travel as text; bytes as
/// binary (a `bytea` column), so that no escaping is ever done by hand.
enum PostgreSQLValue {
    case null
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
}

/// The one Swift file that touches libpq: a connection, its statements and their results.
/// Not thread-safe: one thread owns it (the journal's, or the standby's election loop).
final class PostgreSQLConnection {
    private let handle: OpaquePointer
    /// Where it connects, without the password (for messages and logs).
    let target: String

    /// Connects to `uri` (a libpq connection URI or `key=value` string). The URI's own
    /// settings win over these defaults: give up a connection attempt after 5 s, and notice a
    /// server that vanished (TCP keepalives, 10 s unacknowledged) rather than waiting for ever.
    init(uri: String, applicationName: String = "ocr-coordinator") throws(PostgreSQLError) {
        // The server's notices ("relation already exists, skipping") would go to stderr; `bytea`
        // comes back in the hex form `PostgreSQLRows.bytes` reads, whatever the server's default.
        let keys = ["connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
                    "application_name", "options", "dbname"]
        let values = ["5", "5", "2", "3", "10000", applicationName, "-c client_min_messages=warning -c bytea_output=hex", uri]
        // PQconnectdbParams with expand_dbname = 1: `dbname` is parsed as a URI or conninfo
        // string and its settings override the keywords before it. Returns a handle (NULL only
        // when out of memory) whose status says whether the connection was made.
        let connection = withCStrings(keys) { keys in
            withCStrings(values) { values in PQconnectdbParams(keys, values, 1) }
        }
        guard let connection else {
            throw PostgreSQLError(sqlState: "", message: "cannot connect: out of memory", connectionLost: true)
        }
        // Checked before the handle is stored: a throwing init of a class whose properties are
        // all set runs deinit, which would free the handle a second time.
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.errorMessage(connection)
            let target = Self.describe(connection)
            PQfinish(connection)
            throw PostgreSQLError(sqlState: "", message: "cannot connect to \(target): \(message)", connectionLost: true)
        }
        handle = connection
        target = Self.describe(connection)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection still stands (as libpq last saw it).
    var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement (or, without parameters, several separated by `;`) and returns its
    /// rows. Throws with the SQLSTATE on an error, `connectionLost` when the session is gone.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLRows {
        let result: OpaquePointer?
        if parameters.isEmpty {
            // PQexec: a result (check its status), or NULL when out of memory or the connection broke.
            result = PQexec(handle, sql)
        } else {
            result = Self.withParameters(parameters) { values, lengths, formats in
                // PQexecParams: as PQexec; text results (format 0), types inferred by the server.
                PQexecParams(handle, sql, Int32(parameters.count), nil, values, lengths, formats, 0)
            }
        }
        guard let result else {
            throw PostgreSQLError(sqlState: "", message: "\(Self.brief(sql)): \(Self.errorMessage(handle))", connectionLost: true)
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, CPostgreSQL_DIAG_SQLSTATE()).map { String(cString: $0) } ?? ""
            let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
            PQclear(result)
            let lost = PQstatus(handle) != CONNECTION_OK || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
            throw PostgreSQLError(sqlState: state, message: "\(Self.brief(sql)): \(message.trimmingTrailingNewlines)", connectionLost: lost)
        }
        return PostgreSQLRows(result)
    }

    private static func withParameters<R>(_ parameters: [PostgreSQLValue],
                                          _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> R) -> R {
        // Each value's bytes, kept alive for the call: text NUL-terminated, bytes as they are.
        var storage: [[UInt8]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .null: storage.append(nil); lengths.append(0); formats.append(0)
            case .integer(let v): storage.append(Array("\(v)".utf8) + [0]); lengths.append(0); formats.append(0)
            case .text(let v): storage.append(Array(v.utf8) + [0]); lengths.append(0); formats.append(0)
            case .bytes(let v): storage.append(v.isEmpty ? [0] : v); lengths.append(Int32(v.count)); formats.append(1)
            }
        }
        let buffers = storage.map { bytes -> UnsafeMutablePointer<CChar>? in
            guard let bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            bytes.withUnsafeBytes { _ = memcpy(buffer, $0.baseAddress!, bytes.count) }
            return buffer
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let values = buffers.map { UnsafePointer($0) }
        return values.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in body(values.baseAddress!, lengths.baseAddress!, formats.baseAddress!) }
            }
        }
    }

    private static func errorMessage(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) }?.trimmingTrailingNewlines ?? "unknown error"
    }

    /// host:port/dbname of a connection, never its password.
    private static func describe(_ connection: OpaquePointer) -> String {
        func text(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        return "\(text(PQhost(connection))):\(text(PQport(connection)))/\(text(PQdb(connection)))"
    }

    /// The statement's first words, for error messages (never its parameters).
    private static func brief(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(4).joined(separator: " ")
        return words.count < sql.count ? words + " ..." : words
    }
}

/// The rows a statement returned, in text format (`bytea` as hex).
final class PostgreSQLRows {
    private let result: OpaquePointer

    fileprivate init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    var count: Int { Int(PQntuples(result)) }
    /// Rows an INSERT, UPDATE or DELETE touched.
    var affected: Int { PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }
    func text(_ row: Int, _ column: Int) -> String {
        PQgetvalue(result, Int32(row), Int32(column)).map { String(cString: $0) } ?? ""
    }
    func int64(_ row: Int, _ column: Int) -> Int64 { Int64(text(row, column)) ?? 0 }
    func bool(_ row: Int, _ column: Int) -> Bool { text(row, column) == "t" }
    /// A `bytea` value (the server's hex output, `\x0a1b...`).
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        guard let value = PQgetvalue(result, Int32(row), Int32(column)) else { return [] }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard length >= 2 else { return [] }
        return UnsafeBufferPointer(start: value, count: length).withMemoryRebound(to: UInt8.self) { hex in
            var out = [UInt8]()
            out.reserveCapacity((length - 2) / 2)
            var i = 2  // past "\x"
            while i + 1 < length {
                out.append(Self.nibble(hex[i]) << 4 | Self.nibble(hex[i + 1]))
                i += 2
            }
            return out
        }
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: c &- UInt8(ascii: "A") &+ 10
        }
    }
}

/// NUL-terminated copies of `strings` as a C array ending in NULL, for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var s = Substring(self)
        while s.last == "\n" || s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
