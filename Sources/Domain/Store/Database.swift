import CSQLite
import Foundation

/// One SQLite connection, set up the way Satchel needs it: extended result codes, a busy timeout,
/// foreign keys on, WAL (checked to really be WAL for files), cached prepared statements, and
/// transactions that nest as savepoints.
///
/// - Important: Not `Sendable`: a connection belongs to the thread that opened it.
public final class Database {
    let handle: OpaquePointer
    /// The file path, or `nil` for an in-memory database.
    public let path: String?
    private var statements: [SQLText: Statement] = [:]
    private var savepointDepth = 0
    /// `SAVEPOINT sN`, `RELEASE sN`, `ROLLBACK TO sN` for each depth N, so a savepoint costs no string work.
    private var savepointSQL: [(begin: String, release: String, rollback: String)] = []
    /// Whether a write group is armed: the next transaction opens one `BEGIN IMMEDIATE` that stays open
    /// (later transactions nest as savepoints) until ``commitGroup()``.
    private var groupArmed = false
    private var groupOpen = false
    /// SQLite rolled the group's transaction back on its own (disk full, I/O error): everything the group
    /// did is gone, so nothing more may join it and its commit must fail.
    private var groupLost = false
    /// Whether the armed group's reads share one read transaction (opened by the first read of the group
    /// that comes before any write): a chunk of pipelined reads takes SQLite's file locks once, not per read.
    private var readSnapshotOpen = false
    /// Counts the write transactions begun, so what is known within one can be told from the next.
    private(set) var writeTransactionNumber: UInt64 = 0

    /// Rows inserted, updated or deleted through this connection so far (SQLite's own count).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Counts the read snapshots opened, so a cache can tell one from the next.
    private(set) var readSnapshotNumber: UInt64 = 0

    /// Whether reads now share a chunk's read snapshot.
    var isInReadSnapshot: Bool { readSnapshotOpen && isInTransaction }

    /// Whether a transaction that may write is open (what is read there may not have been committed).
    var isInWriteTransaction: Bool { isInTransaction && !readSnapshotOpen }

    /// Rows that transactions record in memory and write in bulk (new notes, change events), kept in step
    /// with statements, commits, rollbacks and savepoints here (see ``DeferredRowWriter``).
    let deferredRows = DeferredRowWriters()
    /// Rows changed by writing deferred rows in this transaction (part of ``totalChanges``, but no
    /// mutation's own writing).
    private var deferredRowChanges: Int64 = 0

    /// How long a writer waits for another process's lock before giving up with `SQLITE_BUSY`.
    public static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens (creating if needed) the database at `path`, or an in-memory one when `path` is `nil`.
    /// A new file is created with permissions 0600 and its directory with 0700.
    public init(path: String?) throws(SQLiteError) {
        _ = Self.configureOnce
        if let path {
            try Self.prepareLocation(path)
        }
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path ?? ":memory:", &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(connection: connection, code: code, sql: nil)
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        if path != nil {
            // Switching a new file to WAL can meet another process doing the same: SQLite reports that as
            // SQLITE_BUSY at once, without its busy handler, so it is retried here for the same time.
            let mode = try whileBusy { () throws(SQLiteError) -> String? in try scalarText("PRAGMA journal_mode = WAL") }
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(code: SQLITE_ERROR, message: "journal_mode is \(mode ?? "nil"), not wal")
            }
            // In WAL mode NORMAL loses nothing when the process dies; only a power cut can cost the last commits.
            try execute("PRAGMA synchronous = NORMAL")
        }
        // Touch the schema now so an unreadable or non-database file fails at start-up, not later.
        _ = try scalarInteger("SELECT count(*) FROM sqlite_master")
    }

    /// Runs `body` again while it fails with `SQLITE_BUSY`, for up to the busy timeout.
    private func whileBusy<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        var waited: Int32 = 0
        while true {
            do {
                return try body()
            } catch where error.isBusy && waited < Self.busyTimeoutMilliseconds {
                usleep(5_000)
                waited += 5
            }
        }
    }

    /// Process-wide SQLite settings, made before the first connection opens.
    private static let configureOnce: Void = {
        _ = satchel_sqlite_disable_memory_statistics()
    }()

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    private static func prepareLocation(_ path: String) throws(SQLiteError) {
        let manager = FileManager.default
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !manager.fileExists(atPath: directory) {
            do {
                try manager.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create directory \(directory): \(error.localizedDescription)")
            }
        }
        if !manager.fileExists(atPath: path) {
            let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            close(descriptor)
        }
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        // What these statements touch is not known in advance: everything deferred is written first.
        if deferredRows.waiting { try writeDeferredRows(before: nil) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// A cached prepared statement for `sql`.
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        let key = SQLText(sql)
        if let cached = statements[key] { return cached }
        let statement = try Statement(database: self, sql: sql)
        statements[key] = statement
        return statement
    }

    /// Runs `sql` with `values` (no result rows expected).
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) {
        try statement(sql).run(values)
    }

    /// The first column of the first row as an integer.
    public func scalarInteger(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        do {
            return try statement(sql).first(values) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
        } catch let error as SQLiteError {
            throw error
        } catch {
            fatalError("unreachable: \(error)")
        }
    }

    /// The first column of the first row as text.
    public func scalarText(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        do {
            return try statement(sql).first(values) { $0.textOrNil(0) } ?? nil
        } catch let error as SQLiteError {
            throw error
        } catch {
            fatalError("unreachable: \(error)")
        }
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How a mutation in a write group is undone when it fails.
    public enum MutationUndo: Sendable {
        /// By a savepoint of its own: it is undone alone and its neighbours in the group are untouched.
        case savepoint
        /// Without a savepoint (which costs every mutation a copy of each page it touches), for a mutation
        /// that checks everything before its first write, so that after it only SQLite itself can fail it
        /// (a full disk, an I/O error). Failing before any write undoes nothing; failing after one (a deferred
        /// row counts as one) gives the whole group up, as SQLite itself mostly does on such errors.
        case wholeGroup
    }

    /// Runs `body` atomically: all of it is committed, or (when it throws) none of it.
    ///
    /// Outermost calls open `BEGIN IMMEDIATE` (taking the write lock up front, so a busy database is waited
    /// for under the busy timeout instead of failing half-way); nested calls become savepoints.
    /// Within an armed write group (see ``armGroup()``), the outermost transaction stays open until
    /// ``commitGroup()``, so pipelined mutations share one commit; each is undone as `undo` says.
    public func transaction<T>(undo: MutationUndo = .savepoint, _ body: () throws -> T) throws -> T {
        if readSnapshotOpen { endReadSnapshot() }
        if groupOpen && (groupLost || !isInTransaction) {
            groupLost = true
            throw Self.groupRolledBack
        }
        if !isInTransaction {
            try run("BEGIN IMMEDIATE")
            writeTransactionNumber &+= 1
            if groupArmed {
                groupOpen = true
                return try groupMember(undo, body)
            }
            do {
                let result = try body()
                try writeDeferredRows(before: nil)
                try run("COMMIT")
                resetDeferredRows()
                return result
            } catch {
                if isInTransaction { try? run("ROLLBACK") }
                resetDeferredRows()
                throw error
            }
        }
        if groupOpen && savepointDepth == 0 { return try groupMember(undo, body) }
        return try savepoint(body)
    }

    /// One mutation directly in the open group.
    private func groupMember<T>(_ undo: MutationUndo, _ body: () throws -> T) throws -> T {
        guard undo == .wholeGroup else { return try savepoint(body) }
        let written = ownChanges
        let recorded = deferredRows.recordedCount
        do {
            return try body()
        } catch {
            // A row it deferred counts as written: only a mutation that failed before writing anything at
            // all is undone alone (by doing nothing); anything else gives the group up.
            if !isInTransaction || ownChanges != written || deferredRows.recordedCount != recorded {
                groupLost = true
            }
            throw error
        }
    }

    /// Rows changed by mutations themselves: SQLite's count less the writing of deferred rows.
    private var ownChanges: Int64 { sqlite3_total_changes64(handle) - deferredRowChanges }

    /// Runs `body` with no busy timeout: a lock held by another connection fails at once with
    /// `SQLITE_BUSY` instead of being waited for (for optional work that must not stall the caller).
    func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
        return try body()
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`), so it sees one consistent state without
    /// taking the write lock; inside a transaction it simply runs there.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try run("BEGIN DEFERRED")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if isInTransaction { try? run("ROLLBACK") }
            throw error
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        if savepointSQL.count == savepointDepth {
            let name = "s\(savepointDepth + 1)"
            savepointSQL.append(("SAVEPOINT \(name)", "RELEASE \(name)", "ROLLBACK TO \(name)"))
        }
        let sql = savepointSQL[savepointDepth]
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        // Cached statements: a savepoint per mutation must not cost an SQL parse each time.
        try run(sql.begin)
        let deferred = deferredRows.savePositions()
        defer { deferredRows.dropPositions(deferred) }
        do {
            let result = try body()
            try run(sql.release)
            return result
        } catch {
            if isInTransaction {
                try? run(sql.rollback)
                try? run(sql.release)
                deferredRows.restorePositions(deferred)
            } else if groupOpen {
                groupLost = true
            }
            throw error
        }
    }

    /// Arms a write group: the next transactions share one commit, made by ``commitGroup()``. Reads made
    /// in the group before its first write share one read transaction (one snapshot), ended by the first
    /// write or by ``commitGroup()``.
    public func armGroup() {
        groupArmed = true
    }

    /// Called by every statement that is about to run (other than transaction control).
    @inline(__always)
    func beforeRunning(reading: Bool) throws(SQLiteError) {
        guard groupArmed else { return }
        if reading {
            if !readSnapshotOpen && !groupOpen && !isInTransaction {
                readSnapshotOpen = true
                readSnapshotNumber &+= 1
                try run("BEGIN DEFERRED")
            }
        } else if readSnapshotOpen {
            // A write outside `transaction` (none is expected) must not upgrade the shared read transaction.
            endReadSnapshot()
        }
    }

    private func endReadSnapshot() {
        readSnapshotOpen = false
        // Ending a read-only transaction cannot lose anything; should it fail, the connection rolls back.
        if isInTransaction { try? run("COMMIT") }
        if isInTransaction { try? run("ROLLBACK") }
    }

    /// Commits the write group, if one was opened, and disarms it. When the commit fails, everything in
    /// the group is rolled back and the error is thrown: none of the group's mutations happened.
    public func commitGroup() throws {
        groupArmed = false
        if readSnapshotOpen { endReadSnapshot() }
        guard groupOpen else { return }
        groupOpen = false
        if groupLost || !isInTransaction {
            groupLost = false
            if isInTransaction { try? run("ROLLBACK") }
            resetDeferredRows()
            throw Self.groupRolledBack
        }
        do {
            try writeDeferredRows(before: nil)
            try run("COMMIT")
            resetDeferredRows()
        } catch {
            if isInTransaction { try? run("ROLLBACK") }
            resetDeferredRows()
            throw error
        }
    }

    /// The error of a write group whose transaction SQLite rolled back before its commit.
    static let groupRolledBack = SQLiteError(
        code: SQLITE_ABORT, message: "the shared transaction was rolled back before its commit; nothing of it was kept")

    /// Whether a write group holds uncommitted work.
    public var hasOpenGroup: Bool { groupOpen }

    // MARK: Deferred rows

    /// A writer recorded a row (inside the transaction it belongs to).
    func recordedDeferredRow() {
        precondition(isInTransaction, "deferred rows belong to a transaction")
        deferredRows.recordedRow()
    }

    /// Writes the deferred rows that `statement` could see or disturb, or, for `nil`, all of them. Should
    /// writing fail, the rows of mutations already answered cannot be kept, so an open write group is
    /// given up.
    func writeDeferredRows(before statement: Statement?) throws(SQLiteError) {
        guard deferredRows.waiting else { return }
        guard isInTransaction else {
            // The transaction they were recorded in is gone (SQLite rolled it back): so are they.
            resetDeferredRows()
            return
        }
        let before = sqlite3_total_changes64(handle)
        defer { deferredRowChanges += sqlite3_total_changes64(handle) - before }
        do {
            try deferredRows.write(before: statement)
        } catch {
            if groupOpen { groupLost = true }
            throw error
        }
    }

    private func resetDeferredRows() {
        deferredRows.reset()
        deferredRowChanges = 0
    }
}
