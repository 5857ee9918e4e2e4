import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hears of every statement just before it runs, and of every savepoint before it opens (see
/// ``Database/observer``).
protocol StatementObserver: AnyObject {
    /// `readOnly`: whether the statement can change nothing.
    func willRun(readOnly: Bool) throws(SQLiteError)
    func willOpenSavepoint() throws(SQLiteError)
}

/// One SQLite connection, set up the way Satchel needs it (extended result codes, a busy timeout, foreign
/// keys on, WAL checked to really be WAL for files), and nothing more: statements, and transactions that
/// nest as savepoints. What a chunk of pipelined requests shares (one commit, one read snapshot, batched
/// rows) is ``WriteGroup``'s.
///
/// - Important: Not `Sendable`: a connection belongs to the thread that opened it.
public final class Database {
    let handle: OpaquePointer
    /// The file path, or `nil` for an in-memory database.
    public let path: String?
    /// Hears of every statement before it runs, but for the transaction control below: the write group.
    weak var observer: (any StatementObserver)?

    /// How many savepoints are open.
    private(set) var savepointDepth = 0
    /// `SAVEPOINT sN`, `RELEASE sN`, `ROLLBACK TO sN` for each depth N, each kept (a savepoint per mutation
    /// must not cost an SQL parse).
    private var savepoints: [(begin: Prepared, release: Prepared, rollback: Prepared)] = []
    /// Counts the transactions begun, so what is known within one can be told from the next.
    private(set) var transactionNumber: UInt64 = 0

    /// Rows inserted, updated or deleted through this connection so far (SQLite's own count).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether the database can only be read (its file is write-protected, or was opened so).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The error of a write asked of a read-only database, before it has done anything.
    static let readOnlyError = SQLiteError(code: SQLITE_READONLY, message: "the database file is read-only")

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Whether the open transaction may write (what is read there may not have been committed).
    var isInWriteTransaction: Bool { sqlite3_txn_state(handle, nil) == SQLITE_TXN_WRITE }

    /// How long a writer waits for another process's lock before giving up with `SQLITE_BUSY`.
    public static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens (creating if needed) the database at `path`, or an in-memory one when `path` is `nil`.
    /// A new file is created with permissions 0600 and its directory with 0700. A new database (a file that
    /// was not there, or in memory) starts as a copy of `image`, the bytes of a database file, when given.
    public init(path: String?, image: (() -> [UInt8])? = nil) throws(SQLiteError) {
        _ = Self.configureOnce
        if let path {
            try Self.prepareLocation(path, image: image)
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
        if path == nil, let image {
            try load(image())
        }
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
        // A pull of sync applies up to 1,000 rows in one transaction, each under a savepoint: their journal
        // stays in memory up to 16 MiB (SQLite's default is 64 KiB), where a 10,000-note first pull wrote it
        // to a temporary file in 182,000 writes (6,800 writes in all now, its peak memory unchanged).
        _ = satchel_sqlite_statement_journal_spill(16 << 20)
    }()

    /// Makes this in-memory database a copy of `image` (SQLite's in-memory file, grown as it needs).
    private func load(_ image: [UInt8]) throws(SQLiteError) {
        guard let copy = sqlite3_malloc64(sqlite3_uint64(image.count)) else {
            throw SQLiteError(code: SQLITE_NOMEM, message: "no memory for a new database")
        }
        image.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: image.count) }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        let code = sqlite3_deserialize(handle, "main", copy.assumingMemoryBound(to: UInt8.self), Int64(image.count), Int64(image.count), flags)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: nil) }
        // Such a file stops growing at 1 GiB unless told otherwise; an in-memory database has no such limit.
        var limit = Int64.max
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit)
    }

    private static func prepareLocation(_ path: String, image: (() -> [UInt8])?) throws(SQLiteError) {
        let manager = FileManager.default
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty && !manager.fileExists(atPath: directory) {
            do {
                try manager.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                // FileManager's error wraps the system's; its text is what a person can act on.
                let reason = ((error as? CocoaError)?.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create directory \(directory): \(reason ?? "\(error)")")
            }
        }
        if !manager.fileExists(atPath: path) {
            if let image, try create(path, from: image()) { return }
            let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            close(descriptor)
        }
    }

    /// Puts a file holding `image` at `path`, whole or not at all: written beside it, flushed, then linked
    /// there, so that no process ever opens it half-written and a file another process made meanwhile is
    /// kept. `false` when the file system cannot link (the caller then makes an empty file).
    private static func create(_ path: String, from image: [UInt8]) throws(SQLiteError) -> Bool {
        /// The error for what failed, with the system's reason (read before anything else can change it).
        func failure(_ what: String) -> SQLiteError {
            SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(path): \(what): \(String(cString: strerror(errno)))")
        }
        var template = Array((path + ".new-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // 0600
        guard descriptor >= 0 else { throw failure("a file beside it") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(temporary) }
        var written = 0
        var error: SQLiteError? = nil
        while written < image.count {
            let count = image.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, image.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                error = failure("writing")
                break
            }
            written += count
        }
        if error == nil && fsync(descriptor) != 0 { error = failure("writing") }
        if close(descriptor) != 0 && error == nil { error = failure("writing") }
        if let error { throw error }
        if link(temporary, path) == 0 || errno == EEXIST { return true }
        if errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP { return false }
        throw failure("linking")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        try observer?.willRun(readOnly: false)
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Prepares `sql`, for its caller to keep and run as often as it likes.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs `sql` once with `values` (no result rows expected). Prepared for this run only: what runs
    /// often is a kept ``Statement``.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) {
        try prepare(sql).run(values)
    }

    /// The first column of the first row as an integer, from `sql` run once.
    public func scalarInteger(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        try prepare(sql).integer(values)
    }

    /// The first column of the first row as text, from `sql` run once.
    public func scalarText(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        try prepare(sql).text(values)
    }

    // MARK: Transactions

    /// Runs `body` atomically: all of it is committed, or (when it throws) none of it. The outermost call
    /// opens `BEGIN IMMEDIATE` (taking the write lock up front, so a busy database is waited for under the
    /// busy timeout instead of failing half-way); inside a transaction it is a savepoint. A store's
    /// mutations go through ``WriteGroup/transaction(undo:_:)`` instead, which joins an armed write group.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isReadOnly { throw Self.readOnlyError }
        if isInTransaction { return try savepoint(body) }
        return try run(in: .immediate, body)
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`), so it sees one consistent state without
    /// taking the write lock; inside a transaction it simply runs there.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        return try run(in: .deferred, body)
    }

    private func run<T>(in kind: Begin, _ body: () throws -> T) throws -> T {
        try begin(kind)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Runs `body` in a savepoint of the open transaction: when it throws, what it did is rolled back and
    /// the transaction goes on.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        if savepoints.count == savepointDepth {
            let name = "s\(savepointDepth + 1)"
            savepoints.append(
                (control("SAVEPOINT \(name)"), control("RELEASE \(name)"), control("ROLLBACK TO \(name)")))
        }
        try observer?.willOpenSavepoint()
        let savepoint = savepoints[savepointDepth]
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        try savepoint.begin.run()
        do {
            let result = try body()
            try savepoint.release.run()
            return result
        } catch {
            if isInTransaction {
                try? savepoint.rollback.run()
                try? savepoint.release.run()
            }
            throw error
        }
    }

    enum Begin {
        /// Takes the write lock at once.
        case immediate
        /// Takes locks as statements need them; a read-only transaction sees one snapshot.
        case deferred
    }

    /// Opens a transaction, to be ended by ``commit()`` or ``rollback()``.
    func begin(_ kind: Begin) throws(SQLiteError) {
        try (kind == .immediate ? beginImmediate : beginDeferred).run()
        transactionNumber &+= 1
    }

    /// Commits the open transaction, unless the file at this connection's path is no longer the one it
    /// opened (removed, moved, or replaced by another database): then nothing is written (a commit would go
    /// to a file nobody will open again, or through the write-ahead log onto the replacing database) and the
    /// error says why. A file that goes away during the commit itself fails it too, after the fact: nothing is
    /// acknowledged that is not stored at the path.
    func commit() throws(SQLiteError) {
        // Only a commit that writes is checked: ending a read (every chunk's shared snapshot) costs no stat.
        let writes = isInWriteTransaction
        if writes && fileHasMoved() {
            rollback()
            throw movedAway()
        }
        try commitStatement.run()
        if writes && fileHasMoved() { throw movedAway() }
    }

    /// Whether the database file at ``path`` is not the file this connection has open (SQLite's
    /// `SQLITE_FCNTL_HAS_MOVED`: the path is gone or names another file). In memory: never.
    public func fileHasMoved() -> Bool {
        guard path != nil else { return false }
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// The error of a write to a file that has moved away. The log this connection writes is emptied into
    /// the file it has open (best effort), so that a database put in its place never meets frames of it.
    private func movedAway() -> SQLiteError {
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        return SQLiteError(
            code: SQLiteError.databaseMovedCode,
            message: "the database file \(path ?? "") was removed, moved or replaced while satchel was running")
    }

    /// Copies everything in the write-ahead log into the database file, without waiting for anyone: after a
    /// clean exit the database file alone holds everything (unless another process still reads an older
    /// state, whose frames the last to close copies). Passive, so an exit is as quick as it was: with a
    /// waiting, log-emptying checkpoint (TRUNCATE) the three-device sync convergence test ended apart in one
    /// run of four on a loaded machine, against none in eight either without a checkpoint or with this one.
    public func checkpoint() {
        guard path != nil, !isReadOnly, !fileHasMoved() else { return }
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Rolls the open transaction back, if SQLite has not already done so.
    func rollback() {
        if isInTransaction { try? rollbackStatement.run() }
    }

    private lazy var beginImmediate = control("BEGIN IMMEDIATE")
    private lazy var beginDeferred = control("BEGIN DEFERRED")
    private lazy var commitStatement = control("COMMIT")
    private lazy var rollbackStatement = control("ROLLBACK")

    /// Transaction control: kept, and not shown to the observer.
    private func control(_ sql: String) -> Prepared {
        Prepared(self, sql, observed: false)
    }

    /// Runs `body` with no busy timeout: a lock held by another connection fails at once with
    /// `SQLITE_BUSY` instead of being waited for (for optional work that must not stall the caller).
    func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
        return try body()
    }
}
