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
        database, "SELECT known, awaiting, state FROM sync_entities WHERE domain = ?1 AND entity = ?2")
    private lazy var setAwaiting = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, awaiting) VALUES (?1, ?2, ?3)
        ON CONFLICT(domain, entity) DO UPDATE SET awaiting = ?3
        """)
    private lazy var upsertEntity = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, known, awaiting, state) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT(domain, entity) DO UPDATE SET known = ?3, awaiting = ?4, state = ?5
        """)

    /// Where an entity stands: the row of the shared log that made the log's version of it (`known`, 0:
    /// none), that version (`state`, JSON; none when deleted or unknown), and this device's push of it not
    /// yet seen back (`awaiting`).
    private func entity(_ domain: String, _ id: String) throws -> (known: Int64, awaiting: Int64?, state: String?) {
        try selectEntity.first([.text(domain), .text(id)]) { row in
            (row.int64(0), row.isNull(1) ? nil : row.int64(1), row.textOrNil(2))
        } ?? (0, nil, nil)
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
                    try setAwaiting.run([.text(row.domain), .text(row.entity), .integer(row.deviceSeq)])
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
        SELECT 1 FROM changes WHERE seq > ?1 AND seq <= ?4 AND domain = ?2 AND entity_id = ?3
        AND seq NOT IN (SELECT seq FROM sync_skip) LIMIT 1
        """)
    /// The change log's last entry before the pull being applied: what the pull itself logs is not this
    /// device's own.
    private var localThrough: Int64 = 0

    /// Applies rows pulled from the shared log (in its order, this device's own among them), and moves
    /// `pulled` to `through`, in one transaction: a pull cut short by a crash is applied again, whole, by
    /// the next one. What it changes is logged as having come from elsewhere (never pushed back).
    public func apply(_ rows: [PulledRow], through: Int64) throws(DomainError) -> PullSummary {
        try storage {
            try group.transaction {
                var summary = PullSummary()
                guard through > (try number("pulled")) else { return summary }
                let before = try newestSeq.integer() ?? 0
                localThrough = before
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

    /// Applies one row of the shared log. First to the log's own version of the entity, which every device
    /// works out alike (the same rows in the same order, the same rules), conflict copies included; then
    /// this device's note follows the log's version, unless this device has a version of its own that the
    /// log has not shown back yet (it stays, and goes out).
    private func applyOne(_ row: PulledRow, pushed: Int64, summary: inout PullSummary) throws {
        guard row.domain == ChangeDomain.notes.rawValue else {
            if !row.own { summary.skipped.append("row \(row.seq): \(row.domain) does not sync yet") }
            return
        }
        let (known, awaiting, state) = try entity(row.domain, row.entity)
        let logVersion = try state.map { try JSONDecoder().decode(ExchangeDocument.Note.self, from: Data($0.utf8)) }
        // The writer of this row had not seen the log's version before it: both changed it apart.
        let overwritesUnseen = logVersion != nil && known > (row.base ?? 0)
        var newVersion = logVersion
        var newKnown = known
        if row.op == "put" {
            guard let body = row.body else { throw DomainError.validation(reason: .invalidDocument, field: "body") }
            let incoming = try JSONDecoder().decode(ExchangeDocument.Note.self, from: Data(body.utf8))
            try ImportCheck.note(incoming, at: 0)
            guard incoming.id == row.entity else { throw DomainError.validation(reason: .invalidDocument, field: "body.id") }
            if overwritesUnseen, let logVersion, !Self.sameContent(logVersion, incoming) {
                // The later stays in place; the one it overwrote is kept beside it.
                try keepCopy(of: logVersion, overwrittenAt: known, pushed: pushed, summary: &summary)
            }
            (newVersion, newKnown) = (incoming, row.seq)
        } else if !overwritesUnseen {
            (newVersion, newKnown) = (nil, row.seq)
        }  // else: a deletion that had not seen an edit loses to it
        let stillAwaiting = row.own && awaiting == row.deviceSeq ? nil : awaiting
        try upsertEntity.run(
            [
                .text(row.domain), .text(row.entity), .integer(newKnown), stillAwaiting.map { .integer($0) } ?? .null,
                try newVersion.map { .text(String(decoding: try JSONEncoder.sorted.encode($0), as: UTF8.self)) } ?? .null,
            ])
        if try follows(row.entity, awaiting: stillAwaiting, pushed: pushed) {
            try materialize(row.entity, newVersion, summary: &summary)
        }
    }

    /// Whether this device's note follows the log's version: it has none of its own still unseen by the log.
    private func follows(_ id: String, awaiting: Int64?, pushed: Int64) throws -> Bool {
        guard awaiting == nil else { return false }
        return try pendingOfEntity.integer(
            [.integer(pushed), .text(ChangeDomain.notes.rawValue), .text(id), .integer(localThrough)]) == nil
    }

    /// Makes this device's note `id` the log's `version` (deleted when `nil`), when it is not that already.
    private func materialize(_ id: String, _ version: ExchangeDocument.Note?, summary: inout PullSummary) throws {
        let current = try note(id)
        guard let version else {
            guard current != nil else { return }
            try deleteNote.run([.text(id)])
            try changes.record(.notes, .deleted, id: id, at: clock.nowMilliseconds())
            summary.applied += 1
            return
        }
        if let current, Self.sameContent(current, version), current.revision == version.revision { return }
        let fields: [SQLValue] = [
            .text(version.title), .text(version.content), .real(version.color.hue), .real(version.color.saturation),
            .real(version.color.brightness), ImportCheck.time(version.deadline).map { .integer($0) } ?? .null,
        ]
        let updatedAt = ImportCheck.time(version.updatedAt) ?? clock.nowMilliseconds()
        if current != nil {
            try updateNote.run([.text(id)] + fields + [.integer(updatedAt), .integer(version.revision)])
            try changes.record(.notes, .updated, id: id, at: clock.nowMilliseconds())
        } else {
            try insertNote.run(
                [.text(id)] + fields + [
                    .integer((try lastNotePosition.integer() ?? 0) + OrderedList.gap),
                    .integer(ImportCheck.time(version.createdAt) ?? updatedAt), .integer(updatedAt),
                    .integer(version.revision),
                ])
            try changes.record(.notes, .created, id: id, at: clock.nowMilliseconds())
        }
        summary.applied += 1
    }

    /// Keeps `version` as a note of its own that says it is a conflict copy. It is made from the log alone
    /// (its id from the entity's and the overwritten row's, its times the version's), so every device makes
    /// the same copy, once, and never pushes it; from then on it is a note like any other.
    private func keepCopy(
        of version: ExchangeDocument.Note, overwrittenAt seq: Int64, pushed: Int64, summary: inout PullSummary
    ) throws {
        var copy = version
        copy.id = "\(version.id)-conflict-\(seq)"
        copy.title = Self.conflictTitle(version.title)
        copy.revision = 1
        guard try entity(ChangeDomain.notes.rawValue, copy.id).known == 0 else { return }
        try upsertEntity.run(
            [
                .text(ChangeDomain.notes.rawValue), .text(copy.id), .integer(seq), .null,
                .text(String(decoding: try JSONEncoder.sorted.encode(copy), as: UTF8.self)),
            ])
        if try follows(copy.id, awaiting: nil, pushed: pushed) { try materialize(copy.id, copy, summary: &summary) }
        summary.copies.append(copy.id)
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
