/// Rows a transaction records in memory and writes many to a statement: just before it commits, or when
/// something in the transaction is about to read them (``Database/writeDeferredRows()``).
protocol DeferredRows: AnyObject {
    /// How far recording and writing have got; a savepoint keeps it and restores it when rolled back.
    var position: DeferredRowsPosition { get }
    func restore(_ position: DeferredRowsPosition)
    /// Writes what has been recorded and not yet written.
    func writePending() throws
    /// The transaction is over (committed or rolled back).
    func reset()
}

/// Rows recorded, and of them written, since the transaction began.
struct DeferredRowsPosition {
    var recorded: Int
    var written: Int
}

extension Database {
    /// Writes the transaction's deferred rows now, for code about to read their table.
    func writeDeferredRows() throws {
        try deferredRows?.writePending()
    }
}
