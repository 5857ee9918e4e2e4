import Foundation

/// What this database knows of sync (SPEC §14): its device id, made once per database, and how far it has
/// pushed its change log and pulled the shared one. Read and written on the server loop's thread.
public final class SyncStateStore: Store {
    private lazy var select = Prepared(database, "SELECT value FROM sync_state WHERE key = ?1")
    private lazy var upsert = Prepared(
        database, "INSERT INTO sync_state(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = ?2")

    /// This database's device id: made the first time it is asked for, the same ever after.
    public func deviceID() throws(DomainError) -> String {
        try storage {
            if let known = try select.text([.text("device")]) { return known }
            let made = UUID().uuidString.lowercased()
            try group.transaction { try upsert.run([.text("device"), .text(made)]) }
            return made
        }
    }

    /// The last entry of the local change log that is in PostgreSQL.
    public func pushedThrough() throws(DomainError) -> Int64 {
        try storage { Int64(try select.text([.text("pushed")]) ?? "0") ?? 0 }
    }

    private lazy var countAfter = Prepared(database, "SELECT count(*) FROM changes WHERE seq > ?1")

    /// How many local changes are not yet in PostgreSQL.
    public func pending() throws(DomainError) -> Int {
        let pushed = try pushedThrough()
        return try storage { Int(try countAfter.integer([.integer(pushed)]) ?? 0) }
    }
}
