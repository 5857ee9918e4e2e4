/// Rows that a transaction records in memory and writes many to a statement, so that a stream of pipelined
/// inserts pays SQLite's per-statement cost once per many rows instead of once per row.
///
/// Nothing in the transaction can tell deferred rows from rows written at once: they are written before
/// any statement that touches their table runs (``Database`` checks every statement, using the tables
/// SQLite reported when it was prepared), and before the transaction commits. A savepoint that rolls back
/// forgets the rows recorded inside it; a transaction that ends forgets them all.
protocol DeferredRowWriter: AnyObject {
    /// The table the rows go to.
    var table: String { get }
    /// Whether rows have been recorded that are not written yet.
    var hasUnwritten: Bool { get }
    /// How far recording and writing have got; a savepoint keeps it and restores it when rolled back.
    var position: DeferredRowsPosition { get }
    /// Back to `position`, after a savepoint rolled back what was written since (rows recorded since are
    /// forgotten, rows written since count as unwritten again).
    func restore(_ position: DeferredRowsPosition)
    /// Writes what has been recorded and not yet written.
    func writePending() throws(SQLiteError)
    /// The transaction is over (committed or rolled back).
    func reset()
    /// Forgets written rows below `limit` (a row no savepoint could need again), so that a transaction
    /// writing millions of rows (a large import) does not keep them all.
    func compact(keepingFrom limit: Int)
}

/// Rows recorded, and of them written, since the transaction began.
struct DeferredRowsPosition {
    var recorded: Int
    var written: Int
}

/// The rows one table has deferred, and how to write them: each row is a `Row` (whose texts are kept in
/// one byte buffer, see ``text(_:)``), written with a multi-row `INSERT INTO table(columns) VALUES
/// (?, ...), (?, ...)`, up to ``rowsPerStatement`` rows to a statement.
///
/// Kept by the store whose rows they are, which forwards ``DeferredRowWriter`` to it with the code that binds
/// one of its rows (see ``DeferringInserts``): that code is then specialised for the row type, and binding
/// costs no more than it would for a single insert.
final class DeferredInserts<Row> {
    let table: String
    private let columnList: String
    /// One row's values, `(?, ?, 1)`: a `?` for each value bound.
    private let rowValues: String
    private let parametersPerRow: Int32
    /// The rows recorded and not yet forgotten: `rows[0]` is row number `base` of the transaction.
    private var rows: [Row] = []
    private var base = 0
    private var written = 0
    /// The rows' texts, one after the other; bound to the statement without a copy. `texts[0]` is text byte
    /// `textBase` of the transaction, and `textEnds[i]` where the texts of `rows[i]` end.
    private var texts: [UInt8] = []
    private var textBase = 0
    private var textEnds: [Int] = []
    /// The statement's text by number of rows (1...rowsPerStatement), made when first needed.
    private var sqlByRowCount: [Int: String] = [:]
    static var rowsPerStatement: Int { 64 }

    /// - Parameter rowValues: one row's values as SQL, with an anonymous `?` for each bound value (a
    ///   constant needs no binding); by default a `?` for each column.
    init(table: String, columns: [String], rowValues: String? = nil) {
        precondition(!columns.isEmpty)
        self.table = table
        self.columnList = columns.joined(separator: ", ")
        self.rowValues = rowValues ?? "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        self.parametersPerRow = Int32(self.rowValues.utf8.count { $0 == UInt8(ascii: "?") })
    }

    /// Keeps `value` for a row about to be appended.
    func text(_ value: String) -> DeferredText {
        var value = value
        let start = textBase + texts.count
        value.withUTF8 { texts.append(contentsOf: $0) }
        return DeferredText(start: start, count: textBase + texts.count - start)
    }

    /// Records a row. The caller must be inside the transaction the row belongs to, and tells `database`
    /// that rows are waiting.
    func append(_ row: Row) {
        rows.append(row)
        textEnds.append(textBase + texts.count)
    }

    private var recorded: Int { base + rows.count }

    /// How many rows are kept in memory (recorded and not yet forgotten).
    var keptRows: Int { rows.count }

    var hasUnwritten: Bool { written < recorded }

    var position: DeferredRowsPosition { DeferredRowsPosition(recorded: recorded, written: written) }

    func restore(_ position: DeferredRowsPosition) {
        precondition(position.written >= base, "a savepoint needs rows that were forgotten")
        if recorded > position.recorded {
            rows.removeSubrange((position.recorded - base)...)
            textEnds.removeSubrange((position.recorded - base)...)
        }
        written = min(written, position.written)
    }

    func reset() {
        rows.removeAll(keepingCapacity: rows.capacity <= 1 << 12)
        textEnds.removeAll(keepingCapacity: textEnds.capacity <= 1 << 12)
        texts.removeAll(keepingCapacity: texts.capacity <= 1 << 20)
        base = 0
        textBase = 0
        written = 0
    }

    /// Rows are forgotten in runs of at least this many (each time the arrays' rest moves down).
    static var compactionRun: Int { 4096 }

    func compact(keepingFrom limit: Int) {
        let drop = min(written, limit) - base
        // Only long runs, and only when they are most of what is kept, so moving the rest costs little.
        guard drop >= Self.compactionRun, drop * 2 >= rows.count else { return }
        let textCut = textEnds[drop - 1] - textBase
        rows.removeFirst(drop)
        textEnds.removeFirst(drop)
        texts.removeFirst(textCut)
        base += drop
        textBase += textCut
    }

    /// Writes the rows not written yet; `bind` binds one row's values from parameter `first` on.
    func writePending(
        in database: Database, _ bind: (Statement, _ first: Int32, Row, DeferredTexts) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        while written < recorded {
            let count = min(Self.rowsPerStatement, recorded - written)
            let sql = sqlByRowCount[count] ?? sql(rows: count)
            sqlByRowCount[count] = sql
            let statement = try database.statement(sql)
            // Every parameter is bound below, so the earlier bindings need no clearing first.
            try statement.prepareForBinding(clearing: false)
            let range = written..<written + count
            do {
                try texts.withUnsafeBytes { texts in
                    // The texts are bound without a copy: the statement lets go of them before they can change.
                    defer { statement.clearBindings() }
                    let rowTexts = DeferredTexts(bytes: texts, base: textBase)
                    var first: Int32 = 1
                    for index in range {
                        try bind(statement, first, rows[index - base], rowTexts)
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

    /// Anonymous parameters, numbered by SQLite in order (`?NNN` would cost a name lookup per parameter
    /// while the statement is prepared).
    private func sql(rows: Int) -> String {
        "INSERT INTO \(table)(\(columnList)) VALUES " + Array(repeating: rowValues, count: rows).joined(separator: ", ")
    }
}

/// Where a deferred row's text is kept (see ``DeferredInserts/text(_:)``).
struct DeferredText {
    fileprivate var start: Int
    fileprivate var count: Int
}

/// The texts of the rows being written, for binding.
struct DeferredTexts {
    fileprivate let bytes: UnsafeRawBufferPointer
    /// The transaction's text offset of `bytes[0]`.
    fileprivate let base: Int

    func bind(_ text: DeferredText, to statement: Statement, at index: Int32) throws(SQLiteError) {
        let start = text.start - base
        try statement.bind(index, unownedText: UnsafeRawBufferPointer(rebasing: bytes[start..<start + text.count]))
    }
}

/// A store that defers its inserts into one table: it keeps them in ``deferredInserts`` and binds one of its
/// rows in ``bind(_:to:from:texts:)``; ``DeferredRowWriter`` comes with that.
protocol DeferringInserts: DeferredRowWriter {
    associatedtype Row
    var database: Database { get }
    var deferredInserts: DeferredInserts<Row> { get }
    /// Binds `row`'s values to `statement`'s parameters from `first` on.
    func bind(_ row: Row, to statement: Statement, from first: Int32, texts: DeferredTexts) throws(SQLiteError)
}

extension DeferringInserts {
    var table: String { deferredInserts.table }
    var hasUnwritten: Bool { deferredInserts.hasUnwritten }
    var position: DeferredRowsPosition { deferredInserts.position }
    func restore(_ position: DeferredRowsPosition) { deferredInserts.restore(position) }
    func reset() { deferredInserts.reset() }
    func compact(keepingFrom limit: Int) { deferredInserts.compact(keepingFrom: limit) }

    func writePending() throws(SQLiteError) {
        try deferredInserts.writePending(in: database) { (statement, first, row, texts) throws(SQLiteError) in
            try bind(row, to: statement, from: first, texts: texts)
        }
    }

    /// Records `row` (inside the transaction it belongs to).
    func deferInsert(_ row: Row) {
        database.recordedDeferredRow()
        deferredInserts.append(row)
    }
}
