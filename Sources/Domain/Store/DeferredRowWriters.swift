/// The writers of a connection's deferred rows (see ``DeferredRowWriter``), and where they stand: which of
/// them hold rows not written yet, and the positions that the mutations under way saved.
///
/// ``Database`` owns one and ties it to transactions: it writes the rows a statement could see before the
/// statement runs, all of them before COMMIT, and restores or resets them when savepoints and transactions
/// end.
final class DeferredRowWriters {
    private struct WeakWriter {
        weak var writer: (any DeferredRowWriter)?
    }

    private var writers: [WeakWriter] = []
    /// Set when a writer records a row; cleared once every recorded row is written. Every statement looks
    /// at it before running, so while it is clear deferring costs a statement nothing.
    private(set) var waiting = false
    /// Counts the rows recorded (a mutation that records one has written, as far as undoing it goes).
    private(set) var recordedCount = 0
    private var writing = false
    /// The writers' positions saved by the mutations under way, innermost last (one stack for all, so
    /// saving allocates nothing).
    private var savedPositions: [DeferredRowsPosition] = []

    func register(_ writer: any DeferredRowWriter) {
        precondition(savedPositions.isEmpty, "writers register before any mutation runs")
        writers.removeAll { $0.writer == nil }
        writers.append(WeakWriter(writer: writer))
    }

    /// A writer recorded a row.
    func recordedRow() {
        waiting = true
        recordedCount &+= 1
    }

    /// Writes the rows that `statement` could see or disturb (those of the tables it touches), or, for
    /// `nil`, all of them. Does nothing while already writing (the writers' own statements).
    func write(before statement: Statement?) throws(SQLiteError) {
        guard waiting, !writing else { return }
        writing = true
        defer { writing = false }
        var stillWaiting = false
        for (index, entry) in writers.enumerated() {
            guard let writer = entry.writer, writer.hasUnwritten else { continue }
            guard statement?.touches(writer.table) ?? true else {
                stillWaiting = true
                continue
            }
            try writer.writePending()
            writer.compact(keepingFrom: neededFrom(writer: index))
        }
        waiting = stillWaiting
    }

    /// The first row of writer `index` that a savepoint under way could need again: rolled back, a savepoint
    /// forgets the rows recorded in it, but the rows recorded before it and written in it are to be written
    /// again. Every other written row is needed by no one.
    private func neededFrom(writer index: Int) -> Int {
        var needed = Int.max
        // Each save appended one position per writer, in the writers' order.
        for saved in stride(from: index, to: savedPositions.count, by: writers.count) {
            let position = savedPositions[saved]
            if position.written < position.recorded { needed = min(needed, position.written) }
        }
        return needed
    }

    /// Saves every writer's position; returns where they are kept, for ``restorePositions(_:)`` and
    /// ``dropPositions(_:)``.
    func savePositions() -> Int {
        let base = savedPositions.count
        for entry in writers {
            savedPositions.append(entry.writer?.position ?? DeferredRowsPosition(recorded: 0, written: 0))
        }
        return base
    }

    func dropPositions(_ base: Int) {
        savedPositions.removeSubrange(base...)
    }

    /// After a savepoint rolled back: rows recorded in it are forgotten, rows written in it are unwritten.
    func restorePositions(_ base: Int) {
        for (offset, entry) in writers.enumerated() { entry.writer?.restore(savedPositions[base + offset]) }
        waiting = writers.contains { $0.writer?.hasUnwritten == true }
    }

    /// The transaction is over: every writer forgets its rows.
    func reset() {
        for entry in writers { entry.writer?.reset() }
        waiting = false
    }
}
