/// Rows for one table that a ``WriteGroup`` may hold back and write many to a statement (`INSERT INTO
/// table(columns) VALUES (...), (...)`, up to ``rowsPerStatement`` rows each), so that a run of pipelined
/// creates pays SQLite's per-statement cost once per many rows instead of once per row.
///
/// Made by ``WriteGroup/batch(table:columns:rowValues:bind:)``, which decides when rows are written. A row's
/// texts are kept in one byte buffer (see ``text(_:)``) and bound without a copy; `bind` binds one row's
/// values, and is written where the row type is known, so binding costs what a single insert's would.
final class BatchedInsert<Row> {
    typealias Bind = (_ statement: Statement, _ first: Int32, _ row: Row, _ texts: BatchTexts) throws(SQLiteError)
        -> Void

    let table: String
    private let columnList: String
    /// One row's values, `(?, ?, 1)`: a `?` for each value bound.
    private let rowValues: String
    private let parametersPerRow: Int32
    private let bind: Bind
    private var rows: [Row] = []
    /// The rows' texts, one after the other.
    private var texts: [UInt8] = []
    /// The statements, by number of rows (1...rowsPerStatement), prepared when first needed.
    private var statements: [Statement?] = Array(repeating: nil, count: rowsPerStatement + 1)
    static var rowsPerStatement: Int { 64 }

    /// - Parameter rowValues: one row's values as SQL, with an anonymous `?` for each bound value (a
    ///   constant needs no binding); by default a `?` for each column.
    init(table: String, columns: [String], rowValues: String?, bind: @escaping Bind) {
        precondition(!columns.isEmpty)
        self.table = table
        self.columnList = columns.joined(separator: ", ")
        self.rowValues = rowValues ?? "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        self.parametersPerRow = Int32(self.rowValues.utf8.count { $0 == UInt8(ascii: "?") })
        self.bind = bind
    }

    /// Keeps `value` for the row being added (see ``WriteGroup/add(to:_:)``, which hands this to the code
    /// making the row, so that nothing can write and empty the batch between the two).
    func text(_ value: String) -> BatchText {
        var value = value
        let start = texts.count
        value.withUTF8 { texts.append(contentsOf: $0) }
        return BatchText(start: start, count: texts.count - start)
    }

    func append(_ row: Row) {
        rows.append(row)
    }

    var isEmpty: Bool { rows.isEmpty }

    /// Writes every row held, then forgets them.
    func write(in database: Database) throws(SQLiteError) {
        defer { discard() }
        var written = 0
        while written < rows.count {
            let count = min(Self.rowsPerStatement, rows.count - written)
            let statement = try statement(rows: count, in: database)
            // Every parameter is bound below, so the earlier bindings need no clearing first.
            try statement.prepareForBinding(clearing: false)
            do {
                try texts.withUnsafeBytes { texts in
                    // The texts are bound without a copy: the statement lets go of them before they can change.
                    defer { statement.clearBindings() }
                    let rowTexts = BatchTexts(bytes: texts)
                    var first: Int32 = 1
                    for index in written..<written + count {
                        try bind(statement, first, rows[index], rowTexts)
                        first += parametersPerRow
                    }
                    try statement.runBound()
                }
            } catch let error as SQLiteError {
                throw error
            } catch {
                fatalError("unreachable: \(error)")
            }
            written += count
        }
    }

    /// Forgets the rows held (their transaction is gone, or they are written).
    func discard() {
        rows.removeAll(keepingCapacity: rows.capacity <= 1 << 12)
        texts.removeAll(keepingCapacity: texts.capacity <= 1 << 20)
    }

    /// Anonymous parameters, numbered by SQLite in order (`?NNN` would cost a name lookup per parameter
    /// while the statement is prepared).
    private func statement(rows count: Int, in database: Database) throws(SQLiteError) -> Statement {
        if let prepared = statements[count] { return prepared }
        let sql = "INSERT INTO \(table)(\(columnList)) VALUES "
            + Array(repeating: rowValues, count: count).joined(separator: ", ")
        let prepared = try database.prepare(sql)
        statements[count] = prepared
        return prepared
    }
}

/// Where a batched row's text is kept (see ``BatchedInsert/text(_:)``).
struct BatchText {
    fileprivate var start: Int
    fileprivate var count: Int
}

/// The texts of the rows being written, for binding.
struct BatchTexts {
    fileprivate let bytes: UnsafeRawBufferPointer

    func bind(_ text: BatchText, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.bind(
            index, unownedText: UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.start + text.count]))
    }
}
