/// How many rows a counted table holds, kept by triggers in `row_counts` (schema 8): a count is one
/// indexed read whatever the table's size.
struct RowCounts {
    let database: Database

    /// The rows of `table` (one of the counted tables), including rows this transaction has deferred.
    func rows(of table: String) throws -> Int {
        // Deferred rows reach the counter (through its trigger) only when they are written.
        try database.writeDeferredRows(before: nil)
        return Int(try database.scalarInteger("SELECT rows FROM row_counts WHERE name = ?1", [.text(table)]) ?? 0)
    }
}
