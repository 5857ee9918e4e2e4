/// Reminders (SPEC §8): the list in the user's order, completion, swipe delete, moves; the editing
/// behaviour (tap-to-add, Return, empty-title cleanup) is in `ReminderStore+Editing.swift`.
public final class ReminderStore: Store {
    let order: OrderedList
    let sessions: EditingSessions

    override init(_ context: StoreContext) {
        self.order = OrderedList(context, table: "reminders", domain: .reminders)
        self.sessions = EditingSessions(context)
        super.init(context)
    }

    private static let columns =
        "id, title, memo, completed, completed_at, created_at, updated_at, revision, editing_session, position"

    static func reminder(_ row: Statement, session: ReminderEditingSession) -> Reminder {
        Reminder(
            id: row.text(0), title: row.text(1), memo: row.textOrNil(2), completed: row.int64(3) != 0,
            completedAt: row.int64OrNil(4), createdAt: row.int64(5), updatedAt: row.int64(6), revision: row.int64(7),
            editing: row.textOrNil(8) == session.id && session.editingID == row.text(0))
    }

    private lazy var selectByID = Prepared(database, "SELECT \(Self.columns) FROM reminders WHERE id = ?1")

    func find(_ id: String, session: ReminderEditingSession) throws -> Reminder? {
        try selectByID.first([.text(id)]) { Self.reminder($0, session: session) }
    }

    func require(_ id: String, session: ReminderEditingSession) throws -> Reminder {
        guard let reminder = try find(id, session: session) else {
            throw DomainError.notFound(kind: "reminder", id: id)
        }
        return reminder
    }

    private lazy var selectPage = Prepared(
        database, "SELECT \(Self.columns) FROM reminders WHERE position > ?1 ORDER BY position LIMIT ?2")

    /// A page of reminders in the user's order, after removing blank reminders that no live editor holds.
    public func list(_ request: PageRequest, session: ReminderEditingSession) throws(DomainError)
        -> (page: Page<Reminder>, editingID: String?)
    {
        try sweepAbandoned(session: session)
        try forgetLostEditing(session)
        let after = try order.resumePosition(after: request.cursor)
        return try storage {
            let page = try Page(
                keyset: selectPage, [.integer(after), .integer(Int64(request.limit + 1))], limit: request.limit, id: \.id
            ) {
                let reminder = Self.reminder($0, session: session)
                return (reminder, $0.int64(9), reminder.title.utf8.count + (reminder.memo?.utf8.count ?? 0))
            }
            return (page, session.editingID)
        }
    }

    private lazy var selectHeld = Prepared(
        database, "SELECT 1 FROM reminders WHERE id = ?1 AND editing_session = ?2")

    /// Clears this connection's editing state when its reminder was deleted or taken over by another
    /// connection meanwhile, so that `editingId` always agrees with the items' `editing`.
    func forgetLostEditing(_ session: ReminderEditingSession) throws(DomainError) {
        guard let id = session.editingID else { return }
        let held = try storage {
            try selectHeld.integer([.text(id), .text(session.id)])
        }
        if held == nil { session.editingID = nil }
    }

    /// One reminder.
    public func get(id: String, session: ReminderEditingSession) throws(DomainError) -> Reminder {
        try sweepAbandoned(session: session)
        return try storage { try require(id, session: session) }
    }

    private lazy var updateCompleted = Prepared(
        database,
        "UPDATE reminders SET completed = ?2, completed_at = ?3, updated_at = ?4, revision = ?5 WHERE id = ?1")

    /// Marks the reminder done (with the time) or not done.
    public func setCompleted(id: String, _ completed: Bool?, session: ReminderEditingSession) throws(DomainError)
        -> Reminder
    {
        try storage {
            try group.transaction {
                var reminder = try require(id, session: session)
                let target = completed ?? !reminder.completed
                guard target != reminder.completed else { return reminder }
                let now = clock.nowMilliseconds()
                reminder.completed = target
                reminder.completedAt = target ? now : nil
                reminder.updatedAt = now
                reminder.revision += 1
                try updateCompleted.run(
                    [
                        .text(id), .integer(target ? 1 : 0), reminder.completedAt.map { .integer($0) } ?? .null,
                        .integer(now), .integer(reminder.revision),
                    ])
                try changes.record(.reminders, .updated, id: id, at: now)
                return reminder
            }
        }
    }

    lazy var deleteReminder = Prepared(database, "DELETE FROM reminders WHERE id = ?1")

    /// Deletes the reminder (a swipe); if it was being edited, editing ends with it.
    public func delete(id: String, session: ReminderEditingSession) throws(DomainError) {
        try storage {
            try group.transaction {
                try deleteReminder.run([.text(id)])
                guard database.changes == 1 else { throw DomainError.notFound(kind: "reminder", id: id) }
                try changes.record(.reminders, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
        if session.editingID == id { session.editingID = nil }
    }

    /// Moves the reminder to 0-based `index` in the whole list.
    public func move(id: String, to index: Int, session: ReminderEditingSession) throws(DomainError) -> Reminder {
        try storage {
            try group.transaction {
                try order.move(
                    id: id, kind: "reminder", to: index, domain: .reminders, changes: changes, now: clock.nowMilliseconds()
                ) { try find(id, session: session) }
            }
        }
    }

    /// How many reminders there are (blank ones being edited included).
    public func count() throws(DomainError) -> Int {
        try storage { try order.count() }
    }

    /// Removes the blank reminders of editing sessions whose process is gone (kill -9, a crash).
    public func sweepAbandoned(session: ReminderEditingSession) throws(DomainError) {
        try storage { try sessions.sweepAbandoned(except: session.id) }
    }

    // MARK: Statements of the editing behaviour (`ReminderStore+Editing.swift`; an extension keeps none)

    lazy var hold = Prepared(database, "UPDATE reminders SET editing_session = ?2 WHERE id = ?1")

    lazy var updateReminder = Prepared(
        database,
        "UPDATE reminders SET title = ?2, blank = ?3, memo = ?4, updated_at = ?5, revision = ?6 WHERE id = ?1")

    lazy var release = Prepared(database, "UPDATE reminders SET editing_session = NULL WHERE id = ?1")

    lazy var countThrough = Prepared(database, "SELECT count(*) FROM reminders WHERE position <= ?1")

    lazy var insert = Prepared(
        database,
        """
        INSERT INTO reminders(id, title, blank, memo, completed, completed_at, position, editing_session,
                              created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, ?4, 0, NULL, ?5, ?6, ?7, ?7, 1)
        """)
}
