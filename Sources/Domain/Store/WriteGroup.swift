import CSQLite

/// What a chunk of pipelined requests shares: the server arms a group before the chunk's first request
/// and commits it before writing any answer (``arm()``, ``commit()``).
///
/// - **One commit.** The first mutation opens `BEGIN IMMEDIATE`; every later one joins that transaction,
///   and ``commit()`` commits them all at once. A mutation that fails is undone as its ``MutationUndo``
///   says; when SQLite itself gives the transaction up, the whole group is lost and ``commit()`` throws.
/// - **One read snapshot.** Reads before the group's first mutation share one `BEGIN DEFERRED`
///   transaction, ended by that mutation (a stale snapshot is never upgraded to a write) or by the commit.
/// - **Batched rows.** Inside a mutation that has no savepoint of its own (``MutationUndo/wholeGroup``),
///   rows added to a ``BatchedInsert`` outside any savepoint are held and written many to a statement
///   just before any other statement runs, before any savepoint opens (rolling it back must not take
///   them) and before the commit. Everywhere else they are written at once. So nothing in the
///   transaction can tell a held row from one written at once.
///
/// Not armed, it adds nothing: each ``transaction(undo:_:)`` is the database's own.
public final class WriteGroup: StatementObserver {
    /// How a mutation in a group is undone when it fails.
    public enum MutationUndo: Sendable {
        /// By a savepoint of its own: it is undone alone and its neighbours in the group are untouched.
        case savepoint
        /// Without a savepoint (which costs every mutation a copy of each page it touches), for a mutation
        /// that checks everything before its first write, so that after it only SQLite itself can fail it
        /// (a full disk, an I/O error). Failing before any write undoes nothing; failing after one (a held
        /// row counts as one) gives the whole group up, as SQLite itself mostly does on such errors.
        case wholeGroup
    }

    private enum State {
        /// Not armed: each transaction is its own.
        case off
        /// Armed, and nothing has run yet.
        case armed
        /// The read transaction shared by the reads before the first mutation is open.
        case reading
        /// The group's write transaction is open: mutations join it.
        case writing
        /// The group's transaction was rolled back: nothing more may join it, and its commit fails.
        case lost
    }

    let database: Database
    private var state = State.off
    /// Why the group was lost (a full disk, an I/O error): what its commit, and anything that tries to join
    /// it, reports.
    private var lostCause: SQLiteError?
    /// Whether a mutation of the group is running (a transaction begun inside it is a savepoint in it).
    private var inMutation = false
    /// Whether a ``MutationUndo/wholeGroup`` mutation runs: rows it adds outside any savepoint are held.
    private var inWholeGroupMutation = false
    private var batches: [any HeldRows] = []
    private var holdingRows = false
    private var writingHeldRows = false
    /// Rows held so far, and rows changed by writing them (SQLite counts those as changes too): what a
    /// mutation changed itself is what moved besides.
    private var rowsHeld = 0
    private var changesByHeldRows: Int64 = 0

    init(database: Database) {
        self.database = database
        database.observer = self
    }

    /// A batch of rows for `table` whose writing this group decides (see ``BatchedInsert``).
    func batch<Row>(
        table: String, columns: [String], rowValues: String? = nil, bind: @escaping BatchedInsert<Row>.Bind
    ) -> BatchedInsert<Row> {
        let batch = BatchedInsert(table: table, columns: columns, rowValues: rowValues, bind: bind)
        batches.append(batch)
        return batch
    }

    /// Adds the row `make` builds (keeping its texts with the `text` it is given) to `batch`: held inside a
    /// ``MutationUndo/wholeGroup`` mutation of the group's open transaction outside any savepoint (a
    /// savepoint's rollback could not take it back), otherwise written at once.
    func add<Row>(to batch: BatchedInsert<Row>, _ make: (_ text: (String) -> BatchText) -> Row) throws(SQLiteError) {
        let hold = inWholeGroupMutation && state == .writing && database.savepointDepth == 0
        // A row written at once may not overtake rows held before it.
        if !hold { try writeHeldRows() }
        batch.append(make(batch.text))
        if hold {
            holdingRows = true
            rowsHeld &+= 1
        } else {
            try batch.write(in: database)
        }
    }

    /// Arms the group: the transactions from now on share one commit, made by ``commit()``.
    public func arm() {
        if state == .off { state = .armed }
    }

    /// Commits the group's mutations, if there were any, and disarms it. When the commit fails, everything
    /// in the group is rolled back and the error is thrown: none of the group's mutations happened.
    public func commit() throws {
        defer { (state, lostCause) = (.off, nil) }
        switch state {
        case .off, .armed:
            return
        case .reading:
            endReadSnapshot()
        case .lost:
            throw lostCause ?? Self.rolledBack
        case .writing:
            guard database.isInTransaction else {
                giveUp()
                throw Self.rolledBack
            }
            do {
                try writeHeldRows()
                try database.commit()
            } catch {
                giveUp(error)
                throw error
            }
        }
    }

    /// Runs `body` atomically: all of it is kept, or (when it throws) none of it. Not armed, it is the
    /// database's own transaction; in an armed group it joins the group's transaction, undone as `undo` says.
    public func transaction<T>(undo: MutationUndo = .savepoint, _ body: () throws -> T) throws -> T {
        // A write is refused before it does anything, so nothing it would hold can fail a read behind it.
        if database.isReadOnly { throw Database.readOnlyError }
        switch state {
        case .off:
            return try database.transaction(body)
        case .lost:
            throw lostCause ?? Self.rolledBack
        case .armed, .reading:
            if state == .reading { endReadSnapshot() }
            try database.begin(.immediate)
            state = .writing
        case .writing:
            guard database.isInTransaction else {
                giveUp()
                throw Self.rolledBack
            }
        }
        guard !inMutation else { return try savepoint(body) }
        inMutation = true
        defer { inMutation = false }
        guard undo == .wholeGroup else {
            do {
                return try savepoint(body)
            } catch {
                if !database.isInTransaction { giveUp(error) }
                throw error
            }
        }
        inWholeGroupMutation = true
        defer { inWholeGroupMutation = false }
        let (changed, held) = (ownChanges, rowsHeld)
        do {
            return try body()
        } catch {
            // Only a mutation that failed before writing anything at all is undone alone (by doing nothing).
            if !database.isInTransaction || ownChanges != changed || rowsHeld != held { giveUp(error) }
            throw error
        }
    }

    /// A savepoint in the group's transaction (no rows are held inside it: see ``add(to:_:)``).
    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        try database.savepoint(body)
    }

    /// Rows changed by mutations themselves: SQLite's count less the writing of held rows.
    private var ownChanges: Int64 { database.totalChanges - changesByHeldRows }

    func willRun(readOnly: Bool) throws(SQLiteError) {
        if holdingRows && !writingHeldRows { try writeHeldRows() }
        switch state {
        case .armed where readOnly && !database.isInTransaction:
            try database.begin(.deferred)
            state = .reading
        case .reading where !readOnly:
            // A write outside `transaction` (none is expected) must not upgrade the shared read transaction.
            endReadSnapshot()
        default:
            break
        }
    }

    /// Held rows are written before any savepoint opens, whoever opens it: rolling it back must not take them.
    func willOpenSavepoint() throws(SQLiteError) {
        try writeHeldRows()
        // Inside the shared read snapshot a savepoint could only be for writes, which must not upgrade it.
        precondition(state != .reading, "a write in an armed write group goes through WriteGroup.transaction")
    }

    /// Writes the rows held. They belong to mutations already done, so should writing fail, the group is lost.
    private func writeHeldRows() throws(SQLiteError) {
        guard holdingRows else { return }
        // Without the transaction they were held for (SQLite rolled it back), they are lost with it.
        guard database.isInTransaction else {
            giveUp()
            throw Self.rolledBack
        }
        writingHeldRows = true
        defer { writingHeldRows = false }
        let before = database.totalChanges
        defer { changesByHeldRows += database.totalChanges - before }
        do {
            for batch in batches where !batch.isEmpty { try batch.write(in: database) }
            holdingRows = false
        } catch {
            giveUp(error)
            throw error
        }
    }

    private func endReadSnapshot() {
        // Ending a read-only transaction cannot lose anything; should it fail, the connection rolls back.
        try? database.commit()
        database.rollback()
        state = .armed
    }

    /// Everything of the group goes: its transaction is rolled back and its held rows forgotten.
    private func giveUp(_ cause: (any Error)? = nil) {
        for batch in batches { batch.discard() }
        holdingRows = false
        database.rollback()
        if state != .lost { lostCause = cause as? SQLiteError }
        state = .lost
    }

    /// When the group was lost (everything in it rolled back), why; the group is armed afresh, so that
    /// what comes next runs in a transaction of its own instead of failing with it. `nil` otherwise.
    public func takeLoss() -> SQLiteError? {
        guard state == .lost else { return nil }
        defer { (state, lostCause) = (.armed, nil) }
        return lostCause ?? Self.rolledBack
    }

    /// The error of a group whose transaction was rolled back before its commit.
    static let rolledBack = SQLiteError(
        code: SQLITE_ABORT, message: "the shared transaction was rolled back before its commit; nothing of it was kept")
}

/// Rows a ``WriteGroup`` holds for writing later.
protocol HeldRows: AnyObject {
    var isEmpty: Bool { get }
    func write(in database: Database) throws(SQLiteError)
    func discard()
}

extension BatchedInsert: HeldRows {}
