import Foundation
import Testing

@testable import Domain

#if canImport(Glibc)
    import Glibc
#endif

// Helpers for the Reminders domain tests, in their own namespace so they cannot collide with other files'.
enum ReminderTestSupport {
    // MARK: Listing

    /// Every reminder as `session` sees it, in the user's order, read page by page.
    static func all(_ store: DataStore, _ session: ReminderEditingSession, pageSize: Int = PageRequest.maximumLimit)
        throws -> [Reminder]
    {
        var items: [Reminder] = []
        var cursor: String?
        repeat {
            let page = try store.reminders.list(PageRequest(limit: pageSize, cursor: cursor), session: session).page
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return items
    }

    static func titles(_ store: DataStore, _ session: ReminderEditingSession) throws -> [String] {
        try all(store, session).map(\.title)
    }

    static func ids(_ store: DataStore, _ session: ReminderEditingSession) throws -> [String] {
        try all(store, session).map(\.id)
    }

    // MARK: Making reminders

    /// Adds reminders with these titles at the end, one after the other, and leaves none in editing.
    /// Returns their ids in order.
    @discardableResult
    static func addTitled(_ titles: [String], _ store: DataStore, _ session: ReminderEditingSession) throws -> [String] {
        var ids: [String] = []
        for title in titles { ids.append(try store.reminders.add(title: title, session: session).reminder.id) }
        _ = try store.reminders.endEditing(session: session)
        return ids
    }

    // MARK: Editing sessions in the database

    /// A pid no Linux process can have (pid_max is at most 2^22).
    static let deadPID: Int32 = Int32.max - 1

    /// Records editing session `id` as belonging to the process `pid` started at `start` (by default one
    /// that does not exist: the state a kill -9 leaves behind). Replaces the pid and start of an existing row.
    static func recordSession(_ id: String, in store: DataStore, pid: Int32 = deadPID, start: String = "1") throws {
        try store.database.run(
            """
            INSERT INTO editing_sessions(id, pid, process_start, started_at) VALUES (?1, ?2, ?3, 0)
            ON CONFLICT(id) DO UPDATE SET pid = excluded.pid, process_start = excluded.process_start
            """, [.text(id), .integer(Int64(pid)), .text(start)])
    }

    /// Points reminder `reminderID`'s `editing_session` at `sessionID`.
    static func hold(_ reminderID: String, by sessionID: String, in store: DataStore) throws {
        try store.database.run(
            "UPDATE reminders SET editing_session = ?2 WHERE id = ?1", [.text(reminderID), .text(sessionID)])
    }

    /// The `editing_session` column of reminder `id` (nil when NULL or when the reminder is gone).
    static func editingSessionColumn(of id: String, in store: DataStore) throws -> String? {
        try store.database.scalarText("SELECT editing_session FROM reminders WHERE id = ?1", [.text(id)])
    }

    /// Whether reminder `id` is still stored (without sweeping anything).
    static func isStored(_ id: String, in store: DataStore) throws -> Bool {
        try store.database.scalarInteger("SELECT count(*) FROM reminders WHERE id = ?1", [.text(id)]) == 1
    }

    /// Whether `editing_sessions` has a row for session `id`.
    static func hasSessionRow(_ id: String, in store: DataStore) throws -> Bool {
        try store.database.scalarInteger("SELECT count(*) FROM editing_sessions WHERE id = ?1", [.text(id)]) == 1
    }

    // MARK: Change log

    /// The reminders events of the log, oldest first, as "kind id".
    static func events(_ store: DataStore) throws -> [String] {
        try DomainTestSupport.allEvents(store).filter { $0.domain == .reminders }.map { "\($0.kind.rawValue) \($0.id)" }
    }

    // MARK: Processes

    struct SpawnError: Error { var code: Int32 }

    /// Starts `path` with `arguments` via posix_spawn; nobody waits for it until the caller does.
    static func spawn(_ path: String, _ arguments: [String] = []) throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let code = posix_spawn(&pid, path, nil, nil, argv, environ)
        guard code == 0 else { throw SpawnError(code: code) }
        return pid
    }

    /// Waits for child `pid` to end and reaps it.
    static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// The fields of `/proc/PID/stat` after the command name, read independently of `ProcessIdentity`.
    static func statFields(of pid: pid_t) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ").map(String.init)
    }

    /// The process state letter (R, S, Z, ...), or nil when there is no such process.
    static func state(of pid: pid_t) -> String? { statFields(of: pid)?.first }

    /// The start time (field 22) of `pid`, as /proc gives it.
    static func startTime(of pid: pid_t) -> String? {
        guard let fields = statFields(of: pid), fields.count > 19 else { return nil }
        return fields[19]
    }

    /// Polls until `pid` is in `state` (up to `seconds`); returns whether it got there.
    static func waitUntil(_ pid: pid_t, isIn wanted: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if state(of: pid) == wanted { return true }
            usleep(20_000)
        }
        return state(of: pid) == wanted
    }
}
