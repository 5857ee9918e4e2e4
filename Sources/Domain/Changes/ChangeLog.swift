/// What happened to an entity.
public enum ChangeKind: String, Sendable {
    case created, updated, deleted, moved
}

/// The app an entity belongs to, as named in change events and search hits.
public enum ChangeDomain: String, Sendable, CaseIterable {
    case notes, photos, images, diary, reminders, messages, board
}

/// One committed mutation, as recorded in the event log (SPEC §11).
public struct ChangeEvent: Sendable, Equatable {
    public var sequence: Int64
    public var at: Int64
    public var domain: ChangeDomain
    public var kind: ChangeKind
    public var id: String
}

/// Appends an event for every mutation, inside the mutation's own transaction, so the log and the data
/// can never disagree.
public final class ChangeLog {
    private let database: Database
    private let clock: any Clock

    init(database: Database, clock: any Clock) {
        self.database = database
        self.clock = clock
    }

    /// Records that `id` in `domain` was `kind`. Must run inside the mutation's transaction.
    func record(_ domain: ChangeDomain, _ kind: ChangeKind, id: String, at time: Int64) throws {
        precondition(database.isInTransaction, "change events are written in the mutation's transaction")
        try database.run(
            "INSERT INTO changes(at, domain, kind, entity_id) VALUES (?1, ?2, ?3, ?4)",
            [.integer(time), .text(domain.rawValue), .text(kind.rawValue), .text(id)])
    }

    /// Events after `sequence`, oldest first.
    public func events(after sequence: Int64, limit: Int) throws(DomainError) -> [ChangeEvent] {
        try storage {
            var events: [ChangeEvent] = []
            try database.statement(
                "SELECT seq, at, domain, kind, entity_id FROM changes WHERE seq > ?1 ORDER BY seq LIMIT ?2"
            ).forEachRow([.integer(sequence), .integer(Int64(limit))]) { row in
                events.append(
                    ChangeEvent(
                        sequence: row.int64(0), at: row.int64(1),
                        domain: ChangeDomain(rawValue: row.text(2)) ?? .notes,
                        kind: ChangeKind(rawValue: row.text(3)) ?? .updated, id: row.text(4)))
            }
            return events
        }
    }

    /// The opaque cursor that stands for "after event `sequence`".
    public static func cursor(after sequence: Int64) -> String {
        KeysetCursor.make(key: sequence, id: "changes")
    }

    /// The sequence a cursor of ``cursor(after:)`` stands for; `-32602` for anything else.
    public static func sequence(of cursor: String) throws(DomainError) -> Int64 {
        guard let (sequence, tag) = try? KeysetCursor.read(cursor), tag == "changes", sequence >= 0 else {
            throw .invalidArgument(field: "cursor", expected: "a cursor returned by changes.since or changes.subscribe")
        }
        return sequence
    }

    /// The sequence number of the newest event (0 when there is none).
    public func latestSequence() throws(DomainError) -> Int64 {
        try storage { try database.scalarInteger("SELECT coalesce(max(seq), 0) FROM changes") ?? 0 }
    }
}
