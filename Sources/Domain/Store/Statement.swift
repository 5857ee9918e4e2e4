import CSQLite

/// A value bound to, or read from, a statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared statement, finalized when it goes away. A store keeps the statements it runs (see
/// ``Prepared``): running one again costs no parse.
///
/// - Important: Like its ``Database``, not thread-safe; use it only where the database is used.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    private let parameterCount: Int
    private unowned let database: Database
    /// Whether running it can change nothing (SQLite's `sqlite3_stmt_readonly`).
    let isReadOnly: Bool
    /// Whether the database's ``StatementObserver`` hears of it before it runs (all but the connection's own
    /// BEGIN, COMMIT and savepoints).
    private let isObserved: Bool

    init(database: Database, sql: String, observed: Bool = true) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(connection: database.handle, code: code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.parameterCount = Int(sqlite3_bind_parameter_count(statement))
        self.database = database
        self.isReadOnly = sqlite3_stmt_readonly(statement) != 0
        self.isObserved = observed
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears earlier results, then binds `values` to the parameters `?1`, `?2`, ... (parameters left
    /// without a value are bound to NULL, never to a previous call's value).
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        try resetForRun(clearingBindings: values.count < parameterCount)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: try check(sqlite3_bind_null(handle, index))
            case .integer(let number): try bind(index, integer: number)
            case .real(let number): try bind(index, real: number)
            case .text(let text): try bind(index, text: text)
            case .blob(let bytes):
                try check(
                    bytes.withUnsafeBytes { raw in
                        sqlite3_bind_blob64(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                            sqlite3_uint64(raw.count), satchel_sqlite_transient())
                    })
            }
        }
    }

    /// What every run starts with: the database's observer hears of it, and earlier results (and, when
    /// asked, bindings) are cleared.
    private func resetForRun(clearingBindings: Bool) throws(SQLiteError) {
        if isObserved, let observer = database.observer { try observer.willRun(readOnly: isReadOnly) }
        sqlite3_reset(handle)
        if clearingBindings { sqlite3_clear_bindings(handle) }
    }

    /// Advances to the next row; `false` when there are no more.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: database.handle, code: sqlite3_extended_errcode(database.handle), sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    // MARK: Binding one parameter at a time (for hot paths that would otherwise build an array)

    /// Clears earlier results, and unless told otherwise (when every parameter will be bound anew) earlier
    /// bindings, before parameters are bound one by one.
    func prepareForBinding(clearing: Bool = true) throws(SQLiteError) {
        try resetForRun(clearingBindings: clearing)
    }

    func bind(_ index: Int32, integer value: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, text value: String) throws(SQLiteError) {
        var text = value
        try check(
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    sqlite3_bind_text64(
                        handle, index, characters.baseAddress ?? UnsafePointer(bitPattern: 1)!,
                        sqlite3_uint64(characters.count), satchel_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            })
    }

    func bind(_ index: Int32, real value: Double) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds `value`, or NULL for `nil`.
    func bind(_ index: Int32, integerOrNull value: Int64?) throws(SQLiteError) {
        if let value { try bind(index, integer: value) } else { try check(sqlite3_bind_null(handle, index)) }
    }

    /// Binds UTF-8 text without a copy: the caller keeps `bytes` unchanged until the statement has run and
    /// ``clearBindings()`` has let go of them.
    func bind(_ index: Int32, unownedText bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        try check(
            sqlite3_bind_text64(
                handle, index, (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self),
                sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8)))
    }

    /// Drops every binding (to NULL).
    func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Binds text that lives as long as the program (a literal), so SQLite need not copy it.
    func bind(_ index: Int32, literal value: StaticString) throws(SQLiteError) {
        precondition(value.hasPointerRepresentation, "a literal of one Unicode scalar has no UTF-8 to point at")
        try check(
            value.utf8Start.withMemoryRebound(to: CChar.self, capacity: value.utf8CodeUnitCount) { characters in
                sqlite3_bind_text64(
                    handle, index, characters, sqlite3_uint64(value.utf8CodeUnitCount), nil, UInt8(SQLITE_UTF8))
            })
    }

    /// Runs the statement, bound one parameter at a time, to completion.
    func runBound() throws(SQLiteError) {
        while try step() {}
        sqlite3_reset(handle)
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(connection: database.handle, code: code, sql: sql) }
    }

    /// Binds `values` and runs the statement to completion.
    public func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try bind(values)
        try runBound()
    }

    /// Binds `values`, then calls `row` for each result row.
    public func forEachRow(_ values: [SQLValue] = [], _ row: (Statement) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() { try row(self) }
    }

    /// Binds `values`, then calls `row` for each result row for as long as it answers true.
    public func readRows(_ values: [SQLValue] = [], while row: (Statement) throws -> Bool) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {
            guard try row(self) else { return }
        }
    }

    /// The first column of the first row as an integer (`nil` for no row or NULL).
    public func integer(_ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        guard try step(), !isNull(0) else { return nil }
        return int64(0)
    }

    /// The first column of the first row as text (`nil` for no row or NULL).
    public func text(_ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        guard try step(), !isNull(0) else { return nil }
        return text(0)
    }

    /// Binds `values` and maps the first row, if any.
    public func first<T>(_ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return try map(self)
    }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int64OrNil(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    public func textOrNil(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

/// A statement its owner keeps, declared where it is used (`lazy var selectByID = Prepared(database,
/// "SELECT …")`): prepared the first time it runs, then run again without a parse.
final class Prepared {
    private unowned let database: Database
    let sql: String
    private let observed: Bool
    private var prepared: Statement?

    /// - Parameter observed: whether the database's observer hears of it (all but transaction control).
    init(_ database: Database, _ sql: String, observed: Bool = true) {
        self.database = database
        self.sql = sql
        self.observed = observed
    }

    /// The prepared statement.
    func statement() throws(SQLiteError) -> Statement {
        if let prepared { return prepared }
        let statement = try Statement(database: database, sql: sql, observed: observed)
        prepared = statement
        return statement
    }

    func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try statement().run(values)
    }

    func forEachRow(_ values: [SQLValue] = [], _ row: (Statement) throws -> Void) throws {
        try statement().forEachRow(values, row)
    }

    func readRows(_ values: [SQLValue] = [], while row: (Statement) throws -> Bool) throws {
        try statement().readRows(values, while: row)
    }

    func first<T>(_ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> T? {
        try statement().first(values, map)
    }

    func integer(_ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        try statement().integer(values)
    }

    func text(_ values: [SQLValue] = []) throws(SQLiteError) -> String? {
        try statement().text(values)
    }
}
