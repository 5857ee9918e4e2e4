/// The editing behaviour of Reminders: tap-to-add, Return inserts the next item, and empty-title cleanup
/// wherever an editing session ends.
extension ReminderStore {
    /// Tap on the empty screen or below the last row: ends the current editing session (a blank reminder
    /// is removed), inserts a reminder at the end or right after `afterID`, and starts editing it.
    public func add(
        title: String = "", memo: String? = nil, after afterID: String? = nil, session: ReminderEditingSession
    ) throws(DomainError) -> (reminder: Reminder, removedIDs: [String]) {
        try Reminder.check(title: title, memo: memo)
        let result = try storage {
            try group.transaction {
                // Where to insert is decided before the cleanup, which may remove the row it points at.
                var afterPosition: Int64? = nil
                if let afterID {
                    guard let position = try order.position(of: afterID) else {
                        throw DomainError.notFound(kind: "reminder", id: afterID)
                    }
                    afterPosition = position
                }
                let removed = try endEditingLocked(session).removedID
                let reminder = try insertBlankOrTitled(
                    title: title, memo: memo, afterPosition: afterPosition, session: session)
                return (reminder, removed.map { [$0] } ?? [])
            }
        }
        session.editingID = result.0.id
        return (result.0, result.1)
    }

    /// Puts the cursor in reminder `id`, ending the previous editing session (with cleanup).
    public func beginEditing(id: String, session: ReminderEditingSession) throws(DomainError)
        -> (reminder: Reminder, removedIDs: [String])
    {
        let result = try storage {
            try group.transaction { () throws -> (Reminder, [String]) in
                var reminder = try require(id, session: session)
                if session.editingID == id, reminder.editing { return (reminder, []) }
                let removed = try endEditingLocked(session).removedID
                try sessions.register(session.id)
                try hold.run([.text(id), .text(session.id)])
                reminder.editing = true
                return (reminder, removed.map { [$0] } ?? [])
            }
        }
        session.editingID = id
        return result
    }

    /// The keyboard is dismissed: editing ends, and the reminder is removed if its title is blank.
    public func endEditing(session: ReminderEditingSession) throws(DomainError)
        -> (reminder: Reminder?, removedID: String?)
    {
        let result = try storage { try group.transaction { try endEditingLocked(session) } }
        session.editingID = nil
        return result
    }

    /// Ends this connection's editing for good (end of input, a signal, `exit`).
    public func endSession(_ session: ReminderEditingSession) throws(DomainError) {
        _ = try endEditing(session: session)
        try storage { try group.transaction { try sessions.unregister(session.id) } }
    }

    /// Changes title and/or memo. A blank title is allowed only while this connection edits the reminder.
    public func update(id: String, _ changes: ReminderChanges, ifRevision: Int64? = nil, session: ReminderEditingSession)
        throws(DomainError) -> Reminder
    {
        try Reminder.check(title: changes.title, memo: changes.memo ?? nil)
        return try storage {
            try group.transaction {
                var reminder = try require(id, session: session)
                if let ifRevision, ifRevision != reminder.revision {
                    throw DomainError.revisionConflict(current: reminder.revision)
                }
                if let title = changes.title { reminder.title = title }
                if let memo = changes.memo { reminder.memo = memo }
                let blank = TextRules.isBlank(reminder.title)
                if blank && !reminder.editing {
                    throw DomainError.validation(reason: .emptyTitle, field: "title")
                }
                reminder.updatedAt = clock.nowMilliseconds()
                reminder.revision += 1
                try updateReminder.run(
                    [
                        .text(id), .text(reminder.title), .integer(blank ? 1 : 0), reminder.memo.map { .text($0) } ?? .null,
                        .integer(reminder.updatedAt), .integer(reminder.revision),
                    ])
                try self.changes.record(.reminders, .updated, id: id, at: reminder.updatedAt)
                return reminder
            }
        }
    }

    /// Return in the title field. A non-blank title gets a new blank reminder right after it, and editing
    /// moves there; a blank title ends editing, which removes the reminder, and adds nothing.
    public func submit(id: String, session: ReminderEditingSession) throws(DomainError)
        -> (created: Reminder?, removedID: String?)
    {
        let result = try storage {
            try group.transaction { () throws -> (Reminder?, String?) in
                let reminder = try require(id, session: session)
                if TextRules.isBlank(reminder.title) {
                    guard reminder.editing else { throw DomainError.validation(reason: .emptyTitle, field: "title") }
                    return (nil, try endEditingLocked(session).removedID)
                }
                guard let position = try order.position(of: id) else {
                    throw DomainError.notFound(kind: "reminder", id: id)
                }
                let removed = try endEditingLocked(session).removedID
                let created = try insertBlankOrTitled(title: "", memo: nil, afterPosition: position, session: session)
                return (created, removed)
            }
        }
        session.editingID = result.0?.id
        return result
    }

    /// Ends `session`'s editing inside the caller's transaction: removes the reminder if its title is blank,
    /// otherwise releases it. Does not touch `session.editingID` (the caller does, after the commit).
    func endEditingLocked(_ session: ReminderEditingSession) throws -> (reminder: Reminder?, removedID: String?) {
        guard let id = session.editingID else { return (nil, nil) }
        defer { _ = try? sessions.unregister(session.id) }
        guard var reminder = try find(id, session: session) else { return (nil, nil) }
        guard reminder.editing else {
            // Another connection took it over; nothing of ours to end.
            return (reminder, nil)
        }
        if TextRules.isBlank(reminder.title) {
            try deleteReminder.run([.text(id)])
            try changes.record(.reminders, .deleted, id: id, at: clock.nowMilliseconds())
            return (nil, id)
        }
        try release.run([.text(id)])
        reminder.editing = false
        return (reminder, nil)
    }

    /// Inserts a reminder being edited by `session`, at the end or right after `afterPosition`.
    private func insertBlankOrTitled(
        title: String, memo: String?, afterPosition: Int64?, session: ReminderEditingSession
    ) throws -> Reminder {
        let position: Int64
        if let afterPosition {
            let index = Int(try countThrough.integer([.integer(afterPosition)]) ?? 0)
            position = try order.positionForInsert(at: index, count: try order.count())
        } else {
            position = try order.positionForAppend()
        }
        let now = clock.nowMilliseconds()
        let reminder = Reminder(
            id: ids.makeID(kind: "rem"), title: title, memo: memo, completed: false, completedAt: nil, createdAt: now,
            updatedAt: now, revision: 1, editing: true)
        try sessions.register(session.id)
        try insert.run(
            [
                .text(reminder.id), .text(title), .integer(TextRules.isBlank(title) ? 1 : 0),
                memo.map { .text($0) } ?? .null, .integer(position), .text(session.id), .integer(now),
            ])
        try changes.record(.reminders, .created, id: reminder.id, at: now)
        return reminder
    }
}
