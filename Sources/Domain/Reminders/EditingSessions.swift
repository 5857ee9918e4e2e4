/// The editing sessions recorded in the database, so that every process sharing it can tell whether the
/// editor of a blank reminder is still alive.
struct EditingSessions {
    let database: Database
    let clock: any Clock
    let changes: ChangeLog

    /// Records `id` as a session of this process (inside the caller's transaction).
    func register(_ id: String) throws {
        let me = ProcessIdentity.current
        try database.run(
            """
            INSERT INTO editing_sessions(id, pid, process_start, started_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(id) DO NOTHING
            """, [.text(id), .integer(Int64(me.pid)), .text(me.start), .integer(clock.nowMilliseconds())])
    }

    /// Forgets session `id` (inside the caller's transaction).
    func unregister(_ id: String) throws {
        try database.run("DELETE FROM editing_sessions WHERE id = ?1", [.text(id)])
    }

    /// Ends every session whose process is gone: their blank reminders are deleted, the others released.
    func sweepAbandoned(except current: String) throws {
        var dead: [String] = []
        try database.statement("SELECT id, pid, process_start FROM editing_sessions WHERE id != ?1").forEachRow(
            [.text(current)]
        ) { row in
            let identity = ProcessIdentity(pid: Int32(truncatingIfNeeded: row.int64(1)), start: row.text(2))
            if !identity.isAlive { dead.append(row.text(0)) }
        }
        guard !dead.isEmpty else { return }
        try database.transaction {
            for session in dead {
                try release(session)
                try unregister(session)
            }
        }
    }

    /// Deletes the blank reminders `session` holds and releases the rest. Returns the ids deleted.
    @discardableResult
    func release(_ session: String) throws -> [String] {
        var blank: [String] = []
        try database.statement("SELECT id FROM reminders WHERE editing_session = ?1 AND blank = 1").forEachRow(
            [.text(session)]
        ) { row in blank.append(row.text(0)) }
        let now = clock.nowMilliseconds()
        for id in blank {
            try database.run("DELETE FROM reminders WHERE id = ?1", [.text(id)])
            try changes.record(.reminders, .deleted, id: id, at: now)
        }
        try database.run("UPDATE reminders SET editing_session = NULL WHERE editing_session = ?1", [.text(session)])
        return blank
    }
}
