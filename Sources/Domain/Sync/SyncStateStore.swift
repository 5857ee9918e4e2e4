import Foundation

/// One local change on its way to PostgreSQL: the entity's state now (or its deletion), numbered by the
/// change-log entry that sent it, so pushing it again adds nothing twice; `base`, the row of the shared log
/// its version here stood on.
public struct PushRow: Sendable, Equatable {
    public var deviceSeq: Int64
    public var domain: String
    public var entity: String
    /// `put` or `delete`.
    public var op: String
    /// The entity as the export writes it (JSON), for `put`.
    public var body: String?
    public var base: Int64?
}

/// One row of the shared log, as a pull brings it.
public struct PulledRow: Sendable, Equatable {
    public var seq: Int64
    /// Pushed by this device (`deviceSeq`: its change-log entry).
    public var own: Bool
    public var deviceSeq: Int64
    public var domain: String
    public var entity: String
    public var op: String
    public var body: String?
    public var base: Int64?

    public init(
        seq: Int64, own: Bool, deviceSeq: Int64, domain: String, entity: String, op: String, body: String?,
        base: Int64?
    ) {
        self.seq = seq
        self.own = own
        self.deviceSeq = deviceSeq
        self.domain = domain
        self.entity = entity
        self.op = op
        self.body = body
        self.base = base
    }
}

/// What applying a pull did.
public struct PullSummary: Sendable, Equatable {
    public var applied = 0
    /// Versions kept beside the one in place as conflict copies (their ids).
    public var copies: [String] = []
    /// Rows that break a rule (the reason of each, for the log): skipped, never a crash.
    public var skipped: [String] = []
}

/// What this database knows of sync (SPEC §14): its device id, made once per database; how far it has
/// pushed its change log (`pushed`) and pulled the shared one (`pulled`); which change-log entries came
/// from other devices (`sync_skip`: never pushed back); and per entity, the row of the shared log its
/// version stands on. It reads what to push and applies what was pulled, on the server loop's thread, each
/// in one step: the network part runs elsewhere.
///
/// Merging follows the shared log's order, so every device ends the same (docs/protocol.md, "Sync"): a
/// version pushed without having seen the version before it in the log (both changed while apart) wins in
/// place, and the version it overwrote is kept as a conflict copy ("… (conflict)"), which every device
/// makes alike from the log (its id is the entity's and the overwritten row's); a deletion that had not
/// seen an edit loses to it; a version this device has not yet seen back in the log stays in place.
public final class SyncStateStore: Store {
    /// The domains whose changes sync today.
    public static let syncedDomains: [ChangeDomain] = [.notes]

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

    private func number(_ key: String) throws -> Int64 {
        Int64(try select.text([.text(key)]) ?? "0") ?? 0
    }

    /// The last entry of the local change log that is in PostgreSQL (or was passed over: not synced).
    public func pushedThrough() throws(DomainError) -> Int64 {
        try storage { try number("pushed") }
    }

    /// The last row of the shared log applied here.
    public func pulledThrough() throws(DomainError) -> Int64 {
        try storage { try number("pulled") }
    }

    private static let syncedList = syncedDomains.map { "'\($0.rawValue)'" }.joined(separator: ", ")

    private lazy var countPending = Prepared(
        database,
        """
        SELECT count(*) FROM changes WHERE seq > ?1 AND domain IN (\(Self.syncedList))
        AND seq NOT IN (SELECT seq FROM sync_skip)
        """)

    /// How many local changes are not yet in PostgreSQL.
    public func pending() throws(DomainError) -> Int {
        try storage { Int(try countPending.integer([.integer(try number("pushed"))]) ?? 0) }
    }

    private lazy var selectToPush = Prepared(
        database,
        """
        SELECT seq, domain, entity_id FROM changes WHERE seq > ?1 AND seq NOT IN (SELECT seq FROM sync_skip)
        ORDER BY seq LIMIT ?2
        """)
    private lazy var selectNote = Prepared(
        database,
        """
        SELECT id, title, content, hue, saturation, brightness, deadline, created_at, updated_at, revision
        FROM notes WHERE id = ?1
        """)
    private lazy var selectEntity = Prepared(
        database, "SELECT known, awaiting FROM sync_entities WHERE domain = ?1 AND entity = ?2")
    private lazy var upsertEntity = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, known, awaiting) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT(domain, entity) DO UPDATE SET known = ?3, awaiting = ?4
        """)

    /// Where an entity stands: the log row its version here is (`known`, 0: none), and this device's push
    /// of it not yet seen back (`awaiting`).
    private func entity(_ domain: String, _ id: String) throws -> (known: Int64, awaiting: Int64?) {
        try selectEntity.first([.text(domain), .text(id)]) { row in
            (row.int64(0), row.isNull(1) ? nil : row.int64(1))
        } ?? (0, nil)
    }

    /// The next changes to push (at most `limit` change-log entries), each entity once, at its newest entry,
    /// with its state now; `through`: the last entry looked at (entries of domains that do not sync yet
    /// are passed over).
    public func pushBatch(limit: Int) throws(DomainError) -> (rows: [PushRow], through: Int64) {
        try storage {
            try database.readTransaction {
                var newest: [String: (seq: Int64, domain: ChangeDomain)] = [:]
                var order: [String] = []
                var through = try number("pushed")
                try selectToPush.forEachRow([.integer(through), .integer(Int64(limit))]) { row in
                    through = row.int64(0)
                    guard let domain = ChangeDomain(rawValue: row.text(1)), Self.syncedDomains.contains(domain) else {
                        return
                    }
                    let key = domain.rawValue + "/" + row.text(2)
                    if newest[key] == nil { order.append(key) }
                    newest[key] = (row.int64(0), domain)
                }
                var rows: [PushRow] = []
                for key in order {
                    let (seq, domain) = newest[key]!
                    let id = String(key.dropFirst(domain.rawValue.count + 1))
                    let body = try state(domain, id)
                    let known = try entity(domain.rawValue, id).known
                    rows.append(
                        PushRow(
                            deviceSeq: seq, domain: domain.rawValue, entity: id, op: body == nil ? "delete" : "put",
                            body: body, base: known == 0 ? nil : known))
                }
                return (rows.sorted { $0.deviceSeq < $1.deviceSeq }, through)
            }
        }
    }

    /// The entity's state as JSON, or `nil` when it is gone.
    private func state(_ domain: ChangeDomain, _ id: String) throws -> String? {
        switch domain {
        case .notes:
            guard let note = try note(id) else { return nil }
            return String(decoding: try JSONEncoder.sorted.encode(note), as: UTF8.self)
        default:
            return nil
        }
    }

    private func note(_ id: String) throws -> ExchangeDocument.Note? {
        try selectNote.first([.text(id)]) { row in
            ExchangeDocument.Note(
                id: row.text(0), title: row.text(1), content: row.text(2),
                color: .init(hue: row.double(3), saturation: row.double(4), brightness: row.double(5)),
                deadline: Exchange.time(row.int64OrNil(6)), createdAt: Exchange.time(row.int64(7)),
                updatedAt: Exchange.time(row.int64(8)), revision: row.int64(9))
        }
    }

    private lazy var forgetSkipped = Prepared(database, "DELETE FROM sync_skip WHERE seq <= ?1")

    /// What was pushed is in PostgreSQL: the entries through `through` are done, and each pushed entity
    /// awaits its row in the log.
    public func pushed(_ rows: [PushRow], through: Int64) throws(DomainError) {
        try storage {
            try group.transaction {
                guard through > (try number("pushed")) else { return }
                for row in rows {
                    try upsertEntity.run(
                        [.text(row.domain), .text(row.entity), .integer(row.base ?? 0), .integer(row.deviceSeq)])
                }
                try upsert.run([.text("pushed"), .text(String(through))])
                try forgetSkipped.run([.integer(through)])
            }
        }
    }

    private lazy var newestSeq = Prepared(database, "SELECT max(seq) FROM changes")
    private lazy var skipAfter = Prepared(
        database, "INSERT OR IGNORE INTO sync_skip(seq) SELECT seq FROM changes WHERE seq > ?1")
    private lazy var pendingOfEntity = Prepared(
        database,
        """
        SELECT 1 FROM changes WHERE seq > ?1 AND domain = ?2 AND entity_id = ?3
        AND seq NOT IN (SELECT seq FROM sync_skip) LIMIT 1
        """)

    /// Applies rows pulled from the shared log (in its order, this device's own among them), and moves
    /// `pulled` to `through`, in one transaction: a pull cut short by a crash is applied again, whole, by
    /// the next one. What it changes is logged as having come from elsewhere (never pushed back).
    public func apply(_ rows: [PulledRow], through: Int64) throws(DomainError) -> PullSummary {
        try storage {
            try group.transaction {
                var summary = PullSummary()
                guard through > (try number("pulled")) else { return summary }
                let before = try newestSeq.integer() ?? 0
                let pushed = try number("pushed")
                for row in rows {
                    do {
                        try applyOne(row, pushed: pushed, summary: &summary)
                    } catch let error as DomainError {
                        summary.skipped.append("row \(row.seq) (\(row.domain) \(row.entity)): \(error)")
                    } catch let error as DecodingError {
                        summary.skipped.append(
                            "row \(row.seq) (\(row.domain) \(row.entity)): body\(ExchangeDocument.path(of: error)) is not readable")
                    }
                }
                try skipAfter.run([.integer(before)])
                try upsert.run([.text("pulled"), .text(String(through))])
                return summary
            }
        }
    }

    private lazy var noteExists = Prepared(database, "SELECT 1 FROM notes WHERE id = ?1")
    private lazy var lastNotePosition = Prepared(database, "SELECT max(position) FROM notes")
    private lazy var insertNote = Prepared(database, Importer.insertNoteSQL)
    private lazy var updateNote = Prepared(
        database,
        """
        UPDATE notes SET title = ?2, content = ?3, hue = ?4, saturation = ?5, brightness = ?6, deadline = ?7,
                         updated_at = ?8, revision = ?9
        WHERE id = ?1
        """)
    private lazy var deleteNote = Prepared(database, "DELETE FROM notes WHERE id = ?1")

    private func applyOne(_ row: PulledRow, pushed: Int64, summary: inout PullSummary) throws {
        guard row.domain == ChangeDomain.notes.rawValue else {
            if !row.own { summary.skipped.append("row \(row.seq): \(row.domain) does not sync yet") }
            return
        }
        let (known, awaiting) = try entity(row.domain, row.entity)
        if row.own {
            // This device's push, back from the log: its version here now stands on that row.
            let still: SQLValue = awaiting == nil || awaiting == row.deviceSeq ? .null : .integer(awaiting!)
            try upsertEntity.run([.text(row.domain), .text(row.entity), .integer(row.seq), still])
            return
        }
        // A version of this device's that the log has not shown back yet (pushed, or still to push) came
        // later than this row: it stays in place.
        let pendingHere = try pendingOfEntity.integer([.integer(pushed), .text(row.domain), .text(row.entity)]) != nil
        let mineLater = awaiting != nil || pendingHere
        // The writer of this row had not seen the version in place here.
        let overwritesUnseen = known > (row.base ?? 0)
        let now = clock.nowMilliseconds()
        let current = try note(row.entity)
        guard row.op == "put" else {
            // A deletion loses to an edit it had not seen.
            guard !mineLater, !overwritesUnseen, current != nil else { return }
            try deleteNote.run([.text(row.entity)])
            try changes.record(.notes, .deleted, id: row.entity, at: now)
            try upsertEntity.run([.text(row.domain), .text(row.entity), .integer(row.seq), .null])
            summary.applied += 1
            return
        }
        guard let body = row.body else { throw DomainError.validation(reason: .invalidDocument, field: "body") }
        let incoming = try JSONDecoder().decode(ExchangeDocument.Note.self, from: Data(body.utf8))
        try ImportCheck.note(incoming, at: 0)
        guard incoming.id == row.entity else { throw DomainError.validation(reason: .invalidDocument, field: "body.id") }
        if mineLater, let current {
            // Theirs came first and ours overwrote it unseen: theirs is kept beside ours.
            if !Self.sameContent(current, incoming) {
                try keepCopy(of: incoming, overwrittenAt: row.seq, now: now, summary: &summary)
            }
            return
        }
        if overwritesUnseen, let current, !Self.sameContent(current, incoming) {
            try keepCopy(of: current, overwrittenAt: known, now: now, summary: &summary)
        }
        let fields: [SQLValue] = [
            .text(incoming.title), .text(incoming.content), .real(incoming.color.hue),
            .real(incoming.color.saturation), .real(incoming.color.brightness),
            ImportCheck.time(incoming.deadline).map { .integer($0) } ?? .null,
        ]
        if current != nil {
            try updateNote.run(
                [.text(incoming.id)] + fields + [
                    .integer(ImportCheck.time(incoming.updatedAt)!), .integer(incoming.revision),
                ])
            try changes.record(.notes, .updated, id: incoming.id, at: now)
        } else {
            try insertNote.run(
                [.text(incoming.id)] + fields + [
                    .integer((try lastNotePosition.integer() ?? 0) + OrderedList.gap),
                    .integer(ImportCheck.time(incoming.createdAt)!), .integer(ImportCheck.time(incoming.updatedAt)!),
                    .integer(incoming.revision),
                ])
            try changes.record(.notes, .created, id: incoming.id, at: now)
        }
        try upsertEntity.run([.text(row.domain), .text(row.entity), .integer(row.seq), .null])
        summary.applied += 1
    }

    /// Keeps `version` as a note of its own that says it is a conflict copy. Its id comes from the entity's
    /// and the log row that was overwritten, so every device makes the same copy (and makes it once).
    private func keepCopy(
        of version: ExchangeDocument.Note, overwrittenAt seq: Int64, now: Int64, summary: inout PullSummary
    ) throws {
        let id = "\(version.id)-conflict-\(seq)"
        guard try noteExists.integer([.text(id)]) == nil else { return }
        try insertNote.run(
            [
                .text(id), .text(Self.conflictTitle(version.title)), .text(version.content), .real(version.color.hue),
                .real(version.color.saturation), .real(version.color.brightness),
                ImportCheck.time(version.deadline).map { .integer($0) } ?? .null,
                .integer((try lastNotePosition.integer() ?? 0) + OrderedList.gap),
                .integer(ImportCheck.time(version.createdAt) ?? now), .integer(now), .integer(1),
            ])
        try changes.record(.notes, .created, id: id, at: now)
        summary.copies.append(id)
    }

    static func sameContent(_ a: ExchangeDocument.Note, _ b: ExchangeDocument.Note) -> Bool {
        a.title == b.title && a.content == b.content && a.color == b.color && a.deadline == b.deadline
    }

    /// `title (conflict)`, kept within the title's limit.
    static func conflictTitle(_ title: String) -> String {
        let mark = " (conflict)"
        return String(title.prefix(Note.maximumTitleLength - mark.count)) + mark
    }
}

extension JSONEncoder {
    /// Keys sorted: the same entity always encodes to the same bytes.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
