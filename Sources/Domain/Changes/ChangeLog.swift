/// What happened to an entity.
public enum ChangeKind: String, Sendable, CaseIterable {
    case created, updated, deleted, moved

    /// The raw value as a literal (bound to SQL without a copy).
    var literal: StaticString {
        switch self {
        case .created: "created"
        case .updated: "updated"
        case .deleted: "deleted"
        case .moved: "moved"
        }
    }
}

/// The app an entity belongs to, as named in change events and search hits.
public enum ChangeDomain: String, Sendable, CaseIterable {
    case notes, photos, images, diary, reminders, messages, board

    /// The raw value as a literal (bound to SQL without a copy).
    var literal: StaticString {
        switch self {
        case .notes: "notes"
        case .photos: "photos"
        case .images: "images"
        case .diary: "diary"
        case .reminders: "reminders"
        case .messages: "messages"
        case .board: "board"
        }
    }
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
///
/// Events are batched rows (see ``WriteGroup``): in a run of pipelined creates they are held and written
/// many to a statement (a statement per event cost a create ~7,800 instructions).
public final class ChangeLog {
    let database: Database
    private let group: WriteGroup
    private let clock: any Clock
    private let events: BatchedInsert<(at: Int64, domain: ChangeDomain, kind: ChangeKind, id: BatchText)>

    init(database: Database, group: WriteGroup, clock: any Clock) {
        self.database = database
        self.group = group
        self.clock = clock
        events = group.batch(table: "changes", columns: ["at", "domain", "kind", "entity_id"]) {
            (statement, first, event, texts) throws(SQLiteError) in
            try statement.bind(first, integer: event.at)
            try statement.bind(first + 1, literal: event.domain.literal)
            try statement.bind(first + 2, literal: event.kind.literal)
            try texts.bind(event.id, to: statement, at: first + 3)
        }
    }

    /// The sequence number of the newest event, or 0.
    static let newestSQL = "SELECT coalesce(max(seq), 0) FROM changes"

    /// Records that `id` in `domain` was `kind`. Must run inside the mutation's transaction.
    func record(_ domain: ChangeDomain, _ kind: ChangeKind, id: String, at time: Int64) throws {
        try group.add(to: events) { text in (time, domain, kind, text(id)) }
    }

    private lazy var selectAfter = Prepared(
        database, "SELECT seq, at, domain, kind, entity_id FROM changes WHERE seq > ?1 ORDER BY seq LIMIT ?2")

    /// Events after `sequence`, oldest first.
    public func events(after sequence: Int64, limit: Int) throws(DomainError) -> [ChangeEvent] {
        try storage {
            var events: [ChangeEvent] = []
            try selectAfter.forEachRow([.integer(sequence), .integer(Int64(limit))]) { row in
                events.append(
                    ChangeEvent(
                        sequence: row.int64(0), at: row.int64(1),
                        domain: try stored(ChangeDomain.self, row.text(2)),
                        kind: try stored(ChangeKind.self, row.text(3)), id: row.text(4)))
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

    private lazy var selectNewest = Prepared(database, Self.newestSQL)

    /// The sequence number of the newest event (0 when there is none).
    public func latestSequence() throws(DomainError) -> Int64 {
        try storage {
            return try selectNewest.integer() ?? 0
        }
    }
}
