/// The editing sessions recorded in the database, so that every process sharing it can tell whether the
/// editor of a blank reminder is still alive.
final class EditingSessions: Store {
    private lazy var insertSession = Prepared(
        database,
        """
        INSERT INTO editing_sessions(id, pid, process_start, started_at) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT(id) DO NOTHING
        """)

    /// Records `id` as a session of this process (inside the caller's transaction).
    func register(_ id: String) throws {
        let me = ProcessIdentity.current
        try insertSession.run([.text(id), .integer(Int64(me.pid)), .text(me.start), .integer(clock.nowMilliseconds())])
    }

    private lazy var deleteSession = Prepared(database, "DELETE FROM editing_sessions WHERE id = ?1")

    /// Forgets session `id` (inside the caller's transaction).
    func unregister(_ id: String) throws {
        try deleteSession.run([.text(id)])
    }

    private lazy var selectOthers = Prepared(
        database, "SELECT id, pid, process_start FROM editing_sessions WHERE id != ?1")

    /// Ends every session whose process is gone: their blank reminders are deleted, the others released.
    func sweepAbandoned(except current: String) throws {
        var dead: [String] = []
        try selectOthers.forEachRow([.text(current)]) { row in
            let identity = ProcessIdentity(pid: Int32(truncatingIfNeeded: row.int64(1)), start: row.text(2))
            if !identity.isAlive { dead.append(row.text(0)) }
        }
        guard !dead.isEmpty else { return }
        try group.transaction {
            for session in dead {
                try release(session)
                try unregister(session)
            }
        }
    }

    private lazy var selectBlankHeld = Prepared(
        database, "SELECT id FROM reminders WHERE editing_session = ?1 AND blank = 1")
    private lazy var deleteReminder = Prepared(database, "DELETE FROM reminders WHERE id = ?1")
    private lazy var releaseAll = Prepared(
        database, "UPDATE reminders SET editing_session = NULL WHERE editing_session = ?1")

    /// Deletes the blank reminders `session` holds and releases the rest. Returns the ids deleted.
    @discardableResult
    func release(_ session: String) throws -> [String] {
        var blank: [String] = []
        try selectBlankHeld.forEachRow([.text(session)]) { row in blank.append(row.text(0)) }
        let now = clock.nowMilliseconds()
        for id in blank {
            try deleteReminder.run([.text(id)])
            try changes.record(.reminders, .deleted, id: id, at: now)
        }
        try releaseAll.run([.text(session)])
        return blank
    }
}
