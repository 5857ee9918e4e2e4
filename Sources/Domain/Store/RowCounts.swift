/// How many rows a counted table holds, kept by triggers in `row_counts` (schema 8): a count is one
/// indexed read whatever the table's size.
struct RowCounts {
    private let select: Prepared

    init(database: Database) {
        select = Prepared(database, "SELECT rows FROM row_counts WHERE name = ?1")
    }

    /// The rows of `table` (one of the counted tables). Rows a write group holds are written before the
    /// read, as before any statement, so they are counted.
    func rows(of table: String) throws -> Int {
        Int(try select.integer([.text(table)]) ?? 0)
    }
}
