#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One local change on its way to PostgreSQL: the entity's state now (or its deletion), numbered by the
/// change-log entry that sent it, so pushing it again adds nothing twice; `base`, the row of the shared log
/// its version here stood on; `fields`, the fields it changed since that version (all, for a new entity).
public struct PushRow: Sendable, Equatable {
    public var deviceSeq: Int64
    public var domain: String
    public var entity: String
    /// `put` or `delete`.
    public var op: String
    /// The entity's version (JSON), for `put`.
    public var body: String?
    public var base: Int64?
    public var fields: [String]?
    /// The images the version shows, by content (SHA-256): in PostgreSQL before the row is.
    public var images: [String] = []
}

/// One row of the shared log, as a pull brings it.
public struct PulledRow: Sendable, Equatable {
    public var seq: Int64
    /// The device that pushed it.
    public var device: String
    /// The account (PostgreSQL role) that pushed it.
    public var account: String
    /// Pushed by this device (`deviceSeq`: its change-log entry).
    public var own: Bool
    public var deviceSeq: Int64
    public var domain: String
    public var entity: String
    public var op: String
    public var body: String?
    public var base: Int64?
    /// The fields it changed since `base` (`nil`: every field, as rows from before fields were kept).
    public var fields: [String]?

    public init(
        seq: Int64, device: String, account: String = "", own: Bool, deviceSeq: Int64, domain: String, entity: String, op: String,
        body: String?, base: Int64?, fields: [String]? = nil
    ) {
        self.seq = seq
        self.device = device
        self.account = account
        self.own = own
        self.deviceSeq = deviceSeq
        self.domain = domain
        self.entity = entity
        self.op = op
        self.body = body
        self.base = base
        self.fields = fields
    }
}

/// What applying a pull did.
public struct PullSummary: Sendable, Equatable {
    public var applied = 0
    /// Versions kept beside the one in place as conflict copies (their ids).
    public var copies: [String] = []
    /// Rows that break a rule (the reason of each, for the log): skipped, never a crash.
    public var skipped: [String] = []
    /// Images (SHA-256) the next rows show that are neither here nor fetched: the pull stopped before the
    /// first row that needs one, and goes on once they are fetched.
    public var missingImages: [String] = []
}

/// What this database knows of sync (SPEC §14): its device id, made once per database; how far it has
/// pushed its change log (`pushed`) and pulled the shared one (`pulled`); which change-log entries came
/// from other devices (`sync_skip`: never pushed back); and per entity, the log's version of it, the row
/// that made it and which row last changed each of its fields. It reads what to push and applies what was
/// pulled, on the server loop's thread, each in one step: the network part runs elsewhere.
///
/// Merging follows the shared log's order, so every device ends the same (docs/protocol.md, "Sync"): a
/// row takes the fields it changed into the log's version. When a content field it changed had been
/// changed by another device after the version the row stood on (both changed it while apart), notes,
/// photos and diary posts keep the version it overwrote as a conflict copy ("… (conflict)", made alike by
/// every device from the log, its id the entity's and the overwritten row's); reminders let the later
/// change win that field. A deletion that had not seen an edit loses to it; a version this device has not
/// yet seen back in the log stays in place.
public final class SyncStateStore: Store {
    /// The domains whose changes sync today.
    public static let syncedDomains: [ChangeDomain] = [.notes, .photos, .diary, .reminders, .messages, .board]

    /// The account this device syncs as (the PostgreSQL role), once sync is on: its board votes are that
    /// account's, and it deletes only the shared messages and posts that account wrote.
    public var account: String?

    private let images: ImageStore
    private let context: StoreContext
    private let localAuthor: Author
    private lazy var notes = SyncedNotes(context)
    private lazy var photos = SyncedPhotos(context)
    private lazy var diary = SyncedDiary(context)
    private lazy var reminders = SyncedReminders(context)
    private lazy var messages = SyncedMessages(context, localAuthor: localAuthor) { [unowned self] in account }
    private lazy var board = SyncedBoard(context)
    private lazy var votes = SyncedVotes(context) { [unowned self] in account }

    init(_ context: StoreContext, images: ImageStore, localAuthor: Author) {
        self.context = context
        self.images = images
        self.localAuthor = localAuthor
        super.init(context)
    }

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
        AND NOT (domain = 'messages' AND entity_id IN (SELECT id FROM messages WHERE origin = 'remote'))
        """)

    /// How many local changes are not yet in PostgreSQL.
    public func pending() throws(DomainError) -> Int {
        try storage { Int(try countPending.integer([.integer(try number("pushed"))]) ?? 0) }
    }

    private lazy var selectToPush = Prepared(
        database,
        """
        SELECT seq, domain, entity_id, seq IN (SELECT seq FROM sync_skip) FROM changes WHERE seq > ?1
        ORDER BY seq LIMIT ?2
        """)
    private lazy var selectEntity = Prepared(
        database, "SELECT known, awaiting, state, fields FROM sync_entities WHERE domain = ?1 AND entity = ?2")
    private lazy var setAwaiting = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, awaiting) VALUES (?1, ?2, ?3)
        ON CONFLICT(domain, entity) DO UPDATE SET awaiting = ?3
        """)
    private lazy var upsertEntity = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, known, awaiting, state, fields) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT(domain, entity) DO UPDATE SET known = ?3, awaiting = ?4, state = ?5, fields = ?6
        """)

    /// Which row of the log last changed a field, and on which device.
    struct FieldStamp: Codable, Equatable {
        var seq: Int64
        var device: String
    }

    /// Where an entity stands in the log: the row that made the log's version of it (`known`, 0: none), that
    /// version (`state`, JSON; none when deleted or unknown), the row that last changed each field, and this
    /// device's push of it not yet seen back (`awaiting`).
    private struct Entity {
        var known: Int64 = 0
        var awaiting: Int64?
        var state: String?
        var stamps: [String: FieldStamp] = [:]
    }

    private func entity(_ domain: String, _ id: String) throws -> Entity {
        try selectEntity.first([.text(domain), .text(id)]) { row in
            Entity(
                known: row.int64(0), awaiting: row.isNull(1) ? nil : row.int64(1), state: row.textOrNil(2),
                stamps: try row.textOrNil(3).map { try JSONDecoder().decode([String: FieldStamp].self, from: Data($0.utf8)) }
                    ?? [:])
        } ?? Entity()
    }

    private func save(_ domain: String, _ id: String, _ entity: Entity) throws {
        try upsertEntity.run(
            [
                .text(domain), .text(id), .integer(entity.known), entity.awaiting.map { .integer($0) } ?? .null,
                entity.state.map { .text($0) } ?? .null,
                .text(String(decoding: try JSONEncoder.sorted.encode(entity.stamps), as: UTF8.self)),
            ])
    }

    /// Images pushed in one round at most, in bytes: a round with photos stays a bounded size.
    public static let imageBytesPerRound = 48 << 20

    /// The next changes to push (at most `limit` change-log entries), each entity once, at its newest entry,
    /// with its state now and the fields it changed since the log's version; `through`: the last entry
    /// looked at (entries of domains that do not sync are passed over).
    public func pushBatch(limit: Int) throws(DomainError) -> (rows: [PushRow], through: Int64) {
        try storage {
            try database.readTransaction {
                var newest: [String: (seq: Int64, domain: ChangeDomain, id: String)] = [:]
                var order: [String] = []
                var through = try number("pushed")
                try selectToPush.forEachRow([.integer(through), .integer(Int64(limit))]) { row in
                    through = row.int64(0)
                    guard row.int64(3) == 0, let domain = ChangeDomain(rawValue: row.text(1)),
                        Self.syncedDomains.contains(domain)
                    else { return }  // came from elsewhere, or does not sync: passed over
                    let key = domain.rawValue + "/" + row.text(2)
                    if newest[key] == nil { order.append(key) }
                    newest[key] = (row.int64(0), domain, row.text(2))
                }
                var rows: [PushRow] = []
                for key in order {
                    let (seq, domain, id) = newest[key]!
                    rows += try pushRows(domain, id, seq: seq)
                }
                // In the order of the entries; a vote (its entry's number negated) after its post.
                return (rows.sorted { (abs($0.deviceSeq), -$0.deviceSeq) < (abs($1.deviceSeq), -$1.deviceSeq) }, through)
            }
        }
    }

    /// The rows one change-log entry sends. A board post's entry may carry this account's vote on it too:
    /// that row takes the entry's number negated (a device's numbers stay its own, each once).
    private func pushRows(_ domain: ChangeDomain, _ id: String, seq: Int64) throws -> [PushRow] {
        switch domain {
        case .notes: return try [pushRow(notes, id, seq: seq)].compactMap { $0 }
        case .photos: return try [pushRow(photos, id, seq: seq)].compactMap { $0 }
        case .diary: return try [pushRow(diary, id, seq: seq)].compactMap { $0 }
        case .reminders: return try [pushRow(reminders, id, seq: seq)].compactMap { $0 }
        case .messages: return try [pushRow(messages, id, seq: seq)].compactMap { $0 }
        case .board:
            var rows = try [pushRow(board, id, seq: seq, onlyWhenChanged: true)].compactMap { $0 }
            if let account {
                let vote = SyncedVotes.entity(post: id, account: account)
                rows += try [pushRow(votes, vote, seq: -seq, onlyWhenChanged: true)].compactMap { $0 }
            }
            return rows
        default: return []
        }
    }

    /// The row that sends `id`'s state now; none when it is not to be shared, or is a deletion of what the
    /// log never had or of another account's shared entity; with `onlyWhenChanged`, none when it says
    /// nothing the log does not (a vote's entry may be a post's, and the other way round).
    private func pushRow<D: SyncDomain>(
        _ kind: D, _ id: String, seq: Int64, onlyWhenChanged: Bool = false
    ) throws -> PushRow? {
        let known = try entity(kind.logDomain, id)
        let base = known.known == 0 ? nil : known.known
        let logVersion = try known.state.map(kind.decode)
        switch try kind.read(id) {
        case .hidden:
            return nil
        case .gone:
            if known.known == 0 && known.awaiting == nil { return nil }
            if let author = try author(kind.logDomain, id), author != account { return nil }
            return PushRow(deviceSeq: seq, domain: kind.logDomain, entity: id, op: "delete", body: nil, base: base)
        case .version(let version):
            let fields = version.changedFields(since: logVersion)
            if onlyWhenChanged {
                if logVersion != nil && fields.isEmpty { return nil }
                if logVersion == nil, let vote = version as? SyncVote, vote.direction == "none" { return nil }
            }
            return PushRow(
                deviceSeq: seq, domain: kind.logDomain, entity: id, op: "put", body: try version.encoded(),
                base: base, fields: fields, images: version.images)
        }
    }

    private lazy var selectAuthor = Prepared(
        database, "SELECT json_extract(state, '$.author') FROM sync_entities WHERE domain = ?1 AND entity = ?2")

    private func author(_ domain: String, _ id: String) throws -> String? {
        try selectAuthor.text([.text(domain), .text(id)])
    }

    /// Refuses to delete a shared message or board post that another account wrote (SPEC §14: only the
    /// author deletes); without sync, or for what this account wrote, it does nothing.
    public func checkAuthor(_ domain: ChangeDomain, _ id: String) throws(DomainError) {
        guard let account, let author = try storage({ try author(domain.rawValue, id) }), author != account else { return }
        throw .validation(reason: .notAuthor, field: "id")
    }

    private lazy var imageData = Prepared(database, "SELECT data FROM images WHERE sha256 = ?1")

    /// The bytes of the images with these contents that are here, as many as fit in one round (at least one).
    public func imageBytes(_ hashes: [String]) throws(DomainError) -> [(sha256: String, bytes: [UInt8])] {
        try storage {
            var found: [(String, [UInt8])] = []
            var total = 0
            for sha256 in hashes {
                guard let bytes = try imageData.first([.text(sha256)], { $0.blob(0) }) else { continue }
                if !found.isEmpty && total + bytes.count > Self.imageBytesPerRound { break }
                found.append((sha256, bytes))
                total += bytes.count
            }
            return found
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

    /// How many images one pull asks to fetch at most before it goes on.
    static let imagesPerFetch = 8

    /// Applies rows pulled from the shared log (in its order, this device's own among them), and moves
    /// `pulled` to `through`, in one transaction: a pull cut short by a crash is applied again, whole, by
    /// the next one. What it changes is logged as having come from elsewhere (never pushed back).
    ///
    /// A row whose images are neither here nor in `fetched` stops the pull before it (`missingImages` says
    /// which to fetch); one whose images were asked for (`tried`) and are not in PostgreSQL is skipped.
    public func apply(
        _ rows: [PulledRow], through: Int64, fetched: [String: PreparedImage] = [:], tried: Set<String> = []
    ) throws(DomainError) -> PullSummary {
        try storage {
            try group.transaction {
                var summary = PullSummary()
                let pulled = try number("pulled")
                guard through > pulled else { return summary }
                let before = try newestSeq.integer() ?? 0
                localThrough = before
                let pushed = try number("pushed")
                let images = SyncImages(store: self.images, fetched: fetched)
                var reached = through
                for (index, row) in rows.enumerated() where row.seq > pulled {
                    let missing = try missingImages(row, images)
                    if !missing.isEmpty && !missing.allSatisfy(tried.contains) {
                        summary.missingImages = try missingImages(in: rows[index...], images)
                        reached = row.seq - 1
                        break
                    }
                    guard missing.isEmpty else {  // asked of PostgreSQL, which does not have them
                        summary.skipped.append(
                            "row \(row.seq) (\(row.domain) \(row.entity)): an image it shows is not in PostgreSQL")
                        continue
                    }
                    do {
                        try database.execute("SAVEPOINT sync_row")
                        try applyOne(row, pushed: pushed, images: images, summary: &summary)
                        try database.execute("RELEASE sync_row")
                    } catch {
                        try database.execute("ROLLBACK TO sync_row")
                        try database.execute("RELEASE sync_row")
                        summary.skipped.append("row \(row.seq) (\(row.domain) \(row.entity)): \(Self.reason(error))")
                    }
                }
                if pushed >= before {
                    // Nothing of this device's own waits: what the pull logged is passed over at once (so
                    // the entries still to push stay few, however much was pulled).
                    try upsert.run([.text("pushed"), .text(String(try newestSeq.integer() ?? before))])
                } else {
                    try skipAfter.run([.integer(before)])
                }
                if reached > pulled { try upsert.run([.text("pulled"), .text(String(reached))]) }
                return summary
            }
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as DecodingError: "body\(ExchangeDocument.path(of: error)) is not readable"
        default: "\(error)"
        }
    }

    /// The images `row` shows that are neither here nor fetched (none when its body is unreadable: the row
    /// is skipped when applied).
    /// The log's version is among them: a conflict copy of it shows its images.
    private func missingImages(_ row: PulledRow, _ images: SyncImages) throws -> [String] {
        guard row.op == "put", let body = row.body else { return [] }
        let state = try entity(row.domain, row.entity).state
        let shown: [String]
        switch ChangeDomain(rawValue: row.domain) {
        case .photos: shown = [body, state].compactMap { $0.flatMap { try? photos.decode($0) }?.images }.flatMap { $0 }
        case .diary: shown = [body, state].compactMap { $0.flatMap { try? diary.decode($0) }?.images }.flatMap { $0 }
        default: return []
        }
        var missing: [String] = []
        for sha256 in shown where try !missing.contains(sha256) && !images.available(sha256) { missing.append(sha256) }
        return missing
    }

    private func missingImages(in rows: ArraySlice<PulledRow>, _ images: SyncImages) throws -> [String] {
        var missing: [String] = []
        for row in rows {
            for sha256 in try missingImages(row, images) where !missing.contains(sha256) {
                missing.append(sha256)
                if missing.count == Self.imagesPerFetch { return missing }
            }
        }
        return missing
    }

    /// Applies one row of the shared log to its domain.
    private func applyOne(_ row: PulledRow, pushed: Int64, images: SyncImages, summary: inout PullSummary) throws {
        switch row.domain {
        case "notes": try applyOne(notes, row, pushed: pushed, images: images, summary: &summary)
        case "photos": try applyOne(photos, row, pushed: pushed, images: images, summary: &summary)
        case "diary": try applyOne(diary, row, pushed: pushed, images: images, summary: &summary)
        case "reminders": try applyOne(reminders, row, pushed: pushed, images: images, summary: &summary)
        case "messages": try applyOne(messages, row, pushed: pushed, images: images, summary: &summary)
        case "board": try applyOne(board, row, pushed: pushed, images: images, summary: &summary)
        case "votes": try applyOne(votes, row, pushed: pushed, images: images, summary: &summary)
        default: if !row.own { summary.skipped.append("row \(row.seq): \(row.domain) does not sync yet") }
        }
    }

    /// First to the log's own version of the entity, which every device works out alike (the same rows in
    /// the same order, the same rules), conflict copies included; then this device's entity follows the
    /// log's version, unless this device has a version of its own that the log has not shown back yet (it
    /// stays, and goes out).
    private func applyOne<D: SyncDomain>(
        _ kind: D, _ row: PulledRow, pushed: Int64, images: SyncImages, summary: inout PullSummary
    ) throws {
        var entity = try entity(row.domain, row.entity)
        let logVersion = try entity.state.map(kind.decode)
        // Whether another device changed `field` after the version this row's writer stood on.
        let unseen = { (field: String) -> Bool in
            let stamp = entity.stamps[field] ?? FieldStamp(seq: entity.known, device: "")
            return stamp.seq > (row.base ?? 0) && stamp.device != row.device
        }
        if row.op == "put" {
            guard let body = row.body else { throw DomainError.validation(reason: .invalidDocument, field: "body") }
            let incoming = try kind.decode(body)
            try incoming.check()
            guard incoming.id == row.entity else { throw DomainError.validation(reason: .invalidDocument, field: "body.id") }
            let changed = Set(row.fields ?? D.Version.fields.map(\.name))
            var merged = incoming
            if let logVersion {
                merged = logVersion
                for field in D.Version.fields where changed.contains(field.name) { field.take(&merged, incoming) }
                merged.revision = max(logVersion.revision, incoming.revision)
                merged.dated(like: incoming)
                let conflict = D.Version.fields.contains { field in
                    field.content && changed.contains(field.name) && unseen(field.name) && !field.same(logVersion, incoming)
                }
                if conflict && kind.keepsCopies {
                    try keepCopy(kind, of: logVersion, overwrittenAt: entity.known, pushed: pushed, images: images, summary: &summary)
                }
            }
            merged = kind.stamped(merged, author: row.account, over: logVersion)
            for name in changed { entity.stamps[name] = FieldStamp(seq: row.seq, device: row.device) }
            entity.state = try merged.encoded()
            entity.known = row.seq
        } else if !D.Version.fields.contains(where: { logVersion != nil && unseen($0.name) }) {
            entity.state = nil
            entity.known = row.seq
            entity.stamps = [:]
        }  // else: a deletion that had not seen an edit loses to it
        if row.own && entity.awaiting == row.deviceSeq { entity.awaiting = nil }
        try save(row.domain, row.entity, entity)
        let followsLog =
            kind.changesHere(row.entity)
            ? try follows(kind.domain, kind.localEntity(row.entity), awaiting: entity.awaiting, pushed: pushed)
            : entity.awaiting == nil
        if followsLog {
            if try kind.write(row.entity, try entity.state.map(kind.decode), images: images) { summary.applied += 1 }
        }
    }

    /// Whether this device's entity follows the log's version: it has none of its own still unseen by the log.
    private func follows(_ domain: ChangeDomain, _ id: String, awaiting: Int64?, pushed: Int64) throws -> Bool {
        guard awaiting == nil else { return false }
        return try pendingOfEntity.integer([.integer(pushed), .text(domain.rawValue), .text(id), .integer(localThrough)])
            == nil
    }

    /// Keeps `version` as an entity of its own that says it is a conflict copy. It is made from the log alone
    /// (its id from the entity's and the overwritten row's, its times the version's), so every device makes
    /// the same copy, once, and never pushes it; from then on it is an entity like any other.
    private func keepCopy<D: SyncDomain>(
        _ kind: D, of version: D.Version, overwrittenAt seq: Int64, pushed: Int64, images: SyncImages,
        summary: inout PullSummary
    ) throws {
        var copy = version.markedAsConflict()
        copy.id = "\(version.id)-conflict-\(seq)"
        copy.revision = 1
        guard try entity(kind.logDomain, copy.id).known == 0 else { return }
        var stamps: [String: FieldStamp] = [:]
        for field in D.Version.fields { stamps[field.name] = FieldStamp(seq: seq, device: "") }
        try save(kind.logDomain, copy.id, Entity(known: seq, awaiting: nil, state: try copy.encoded(), stamps: stamps))
        if try follows(kind.domain, copy.id, awaiting: nil, pushed: pushed) {
            _ = try kind.write(copy.id, copy, images: images)
        }
        summary.copies.append(copy.id)
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
