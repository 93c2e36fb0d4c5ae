import CSQLite

/// A SQLite failure: the result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...) and the message of
/// the connection at the time, with what was being done.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    package var code: Int32
    package var message: String
    package var description: String { "sqlite error \(code): \(message)" }
}

/// The one Swift file that touches SQLite's C API: a connection and its prepared statements.
/// Not thread-safe: the coordinator's loop thread owns it.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens (creating) the database file at `path`.
    init(path: String) throws(SQLiteError) {
        var db: OpaquePointer?
        // SQLITE_OK, or an error code; a handle is returned even on most errors (close it).
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: "cannot open \(path): \(message)")
        }
        handle = db
    }

    deinit {
        // Statements are finalized by their own deinit first (they hold a reference to us);
        // close_v2 defers the close until the last one is gone anyway.
        sqlite3_close_v2(handle)
    }

    /// The one place SQLite result codes become Swift errors. `allowed` lists the codes that
    /// are not failures for the call (SQLITE_ROW, SQLITE_DONE for a step).
    @discardableResult
    func check(_ rc: Int32, _ what: @autoclosure () -> String, allowed: [Int32] = [SQLITE_OK]) throws(SQLiteError) -> Int32 {
        guard allowed.contains(rc) else {
            throw SQLiteError(code: rc, message: "\(what()): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return rc
    }

    /// Runs one or more statements without results (schema, pragmas, BEGIN/COMMIT).
    func execute(_ sql: String) throws(SQLiteError) {
        // SQLITE_OK or an error code; the error message is read through sqlite3_errmsg.
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        // SQLITE_OK with a statement, or an error code (syntax, unknown table).
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), "prepare \(sql)")
        return SQLiteStatement(statement!, connection: self)
    }

    /// A pragma's single text value (e.g. `journal_mode` after setting it).
    func pragma(_ sql: String) throws(SQLiteError) -> String {
        let statement = try prepare(sql)
        guard try statement.step() else { return "" }
        return statement.text(0)
    }
}

/// A prepared statement, reused across executions (bind, step until done, reset).
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameters 1... in order: Int64, Int, String, [UInt8] (a BLOB) or nil (NULL).
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        // sqlite3_reset returns the last step's error again; the statement is reusable anyway.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            // Each bind: SQLITE_OK, SQLITE_RANGE (bad index), SQLITE_TOOBIG or SQLITE_NOMEM.
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, CSQLite_TRANSIENT())
            case .blob(let v):
                rc = v.withUnsafeBytes { buffer in
                    // A zero-length blob still needs a non-NULL pointer, or SQLite stores NULL.
                    sqlite3_bind_blob64(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count), CSQLite_TRANSIENT())
                }
            }
            try connection.check(rc, "bind parameter \(index)")
        }
    }

    /// Steps once: true with a row to read, false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        // SQLITE_ROW, SQLITE_DONE, or an error (SQLITE_BUSY, SQLITE_FULL, SQLITE_IOERR, ...).
        let rc = try connection.check(sqlite3_step(handle), "step", allowed: [SQLITE_ROW, SQLITE_DONE])
        return rc == SQLITE_ROW
    }

    /// Binds and runs a statement without results.
    func run(_ values: [SQLiteValue]) throws(SQLiteError) {
        try bind(values)
        try step()
        sqlite3_reset(handle)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: p)
    }
    func blob(_ column: Int32) -> [UInt8] {
        // The pointer is valid until the next step; the byte count is read after it (SQLite's rule).
        guard let p = sqlite3_column_blob(handle, column) else { return [] }
        let n = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}

enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}
