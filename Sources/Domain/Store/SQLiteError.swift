import CSQLite

/// A failure reported by SQLite: the extended result code, SQLite's message, and the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_FULL`, ...).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    /// `SQLITE_READONLY_DBMOVED` (a macro Swift does not import): the database file moved away.
    static let databaseMovedCode: Int32 = SQLITE_READONLY | (4 << 8)

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { extendedCode & 0xFF }

    init(code: Int32, message: String, sql: String? = nil) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
    }

    init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " — in \(sql)" }
        return text
    }

    /// Another connection holds the lock this one needed.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY }

    /// The stable reason reported to clients as `-32005 {reason}`.
    public var storageReason: Reason {
        if extendedCode == Self.databaseMovedCode { return .databaseMoved }
        switch primaryCode {
        case SQLITE_FULL: return .diskFull
        case SQLITE_READONLY: return .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: return .databaseBusy
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .databaseCorrupt
        case SQLITE_IOERR: return .ioError
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return .cannotOpen
        default: return .storageError
        }
    }
}
