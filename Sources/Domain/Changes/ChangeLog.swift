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
/// Events are kept in memory while their transaction runs and written before it commits, up to 64 to a
/// statement (a statement per event cost a create ~7,800 instructions); reading the log inside the
/// transaction writes them first, and a savepoint or transaction that rolls back forgets its own.
public final class ChangeLog: DeferredRows {
    private let database: Database
    private let clock: any Clock
    private var recorded: [(at: Int64, domain: ChangeDomain, kind: ChangeKind, id: String)] = []
    private var written = 0
    /// `INSERT ... VALUES (...), (...)` by number of rows (1...rowsPerStatement), written when first needed.
    private var insertSQL: [Int: String] = [:]
    static let rowsPerStatement = 64

    init(database: Database, clock: any Clock) {
        self.database = database
        self.clock = clock
        database.deferredRows = self
    }

    /// Records that `id` in `domain` was `kind`. Must run inside the mutation's transaction.
    func record(_ domain: ChangeDomain, _ kind: ChangeKind, id: String, at time: Int64) throws {
        precondition(database.isInTransaction, "change events are written in the mutation's transaction")
        recorded.append((time, domain, kind, id))
    }

    var position: DeferredRowsPosition { DeferredRowsPosition(recorded: recorded.count, written: written) }

    func restore(_ position: DeferredRowsPosition) {
        if recorded.count > position.recorded { recorded.removeSubrange(position.recorded...) }
        written = min(written, position.written)
    }

    func writePending() throws {
        while written < recorded.count {
            let rows = min(Self.rowsPerStatement, recorded.count - written)
            let sql = insertSQL[rows] ?? Self.insertSQL(rows: rows)
            insertSQL[rows] = sql
            let statement = try database.statement(sql)
            try statement.prepareForBinding()
            var parameter: Int32 = 1
            for event in recorded[written..<written + rows] {
                try statement.bind(parameter, integer: event.at)
                try statement.bind(parameter + 1, literal: event.domain.literal)
                try statement.bind(parameter + 2, literal: event.kind.literal)
                try statement.bind(parameter + 3, text: event.id)
                parameter += 4
            }
            try statement.runBound()
            written += rows
        }
    }

    private static func insertSQL(rows: Int) -> String {
        "INSERT INTO changes(at, domain, kind, entity_id) VALUES "
            + (0..<rows).map { "(?\($0 * 4 + 1), ?\($0 * 4 + 2), ?\($0 * 4 + 3), ?\($0 * 4 + 4))" }
            .joined(separator: ", ")
    }

    func reset() {
        recorded.removeAll(keepingCapacity: true)
        written = 0
    }

    /// Events after `sequence`, oldest first.
    public func events(after sequence: Int64, limit: Int) throws(DomainError) -> [ChangeEvent] {
        try storage {
            try database.writeDeferredRows()
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
        try storage {
            try database.writeDeferredRows()
            return try database.scalarInteger("SELECT coalesce(max(seq), 0) FROM changes") ?? 0
        }
    }
}
