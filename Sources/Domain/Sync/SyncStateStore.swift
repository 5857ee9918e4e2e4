#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What this database knows of sync (SPEC §14): its device id, made once per database; how far it has
/// pushed its change log (`pushed`) and pulled the shared one (`pulled`); which change-log entries came
/// from other devices (`sync_skip`: never pushed back); and per entity, the log's version of it, the row
/// that made it and which row last changed each of its fields. It reads what to push and applies what was
/// pulled, on the server loop's thread, each in one step: the network part runs elsewhere.
///
/// Merging follows the shared log's order, so every device ends the same (docs/protocol.md, "Sync"): a
/// row takes the fields it changed into the log's version. A text a person writes that another device
/// changed meanwhile is merged three-way against the base the row carries (``SyncEdit``, ``TextMerge``);
/// only a real clash (the same words changed differently, or another field changed by both apart) keeps
/// the version it overwrote as a conflict copy ("Shopping — laptop, 27 Nov 19:20", made alike by every
/// device from the log, its id the entity's and the overwritten row's). A deletion that had not seen an
/// edit loses to it; a version this device has not yet seen back in the log stays in place.
public final class SyncStateStore: Store {
    /// The domains whose changes sync today.
    public static let syncedDomains: [ChangeDomain] = [.notes, .photos, .diary, .reminders, .messages, .board]

    /// The account this device syncs as (the PostgreSQL role), once sync is on: its board votes are that
    /// account's, and it deletes only the shared messages and posts that account wrote.
    public var account: String?

    let images: ImageStore
    private let context: StoreContext
    private let localAuthor: Author
    lazy var notes = SyncedNotes(context)
    lazy var photos = SyncedPhotos(context)
    lazy var diary = SyncedDiary(context)
    lazy var reminders = SyncedReminders(context)
    lazy var messages = SyncedMessages(context, localAuthor: localAuthor) { [unowned self] in account }
    lazy var board = SyncedBoard(context, board: boardStore)
    lazy var votes = SyncedVotes(context, board: boardStore) { [unowned self] in account }
    private let boardStore: BoardStore

    init(_ context: StoreContext, images: ImageStore, board: BoardStore, localAuthor: Author) {
        self.context = context
        self.images = images
        boardStore = board
        self.localAuthor = localAuthor
        super.init(context)
    }

    lazy var select = Prepared(database, "SELECT value FROM sync_state WHERE key = ?1")
    lazy var upsert = Prepared(
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

    /// This device's name once read (SyncStateStore+Device.swift).
    var knownDeviceName: String?

    /// The time zone a conflict copy's label tells the time in.
    public var zone: TimeZoneRules = .gmt

    func number(_ key: String) throws -> Int64 {
        Int64(try select.text([.text(key)]) ?? "0") ?? 0
    }

    /// The last entry of the local change log that is in PostgreSQL (or was passed over: not synced).
    public func pushedThrough() throws(DomainError) -> Int64 {
        try storage { try number("pushed") }
    }

    /// How far this device has pulled the shared log: the last row applied of each account, as the JSON
    /// object `satchel.pull` takes. A database that synced before cursors were kept per account says its
    /// one position under the key "" (PostgreSQL takes it for every account, unless it is past the log's
    /// end: then from the start, and rows already applied are passed over by entity).
    public func cursor() throws(DomainError) -> String {
        try storage { String(decoding: try JSONEncoder.sorted.encode(try positions()), as: UTF8.self) }
    }

    /// The last row applied of each account.
    func positions() throws -> [String: Int64] {
        if let saved = try select.text([.text("cursor")]) {
            return (try? JSONDecoder().decode([String: Int64].self, from: Data(saved.utf8))) ?? [:]
        }
        let before = try number("pulled")
        return before > 0 ? ["": before] : [:]
    }

    private static let syncedList = syncedDomains.map { "'\($0.rawValue)'" }.joined(separator: ", ")

    private lazy var countPending = Prepared(
        database,
        """
        SELECT count(*) FROM changes WHERE seq > ?1 AND domain IN (\(Self.syncedList))
        AND seq NOT IN (SELECT seq FROM sync_skip)
        AND NOT (domain = 'messages' AND entity_id IN (SELECT id FROM messages WHERE origin = 'remote'))
        """)

    private lazy var countHeld = Prepared(database, "SELECT count(*) FROM sync_held")
    // Private changes a locked device holds back (SyncStateStore+Device.swift).
    lazy var insertHeld = Prepared(database, "INSERT OR IGNORE INTO sync_held(seq) VALUES (?1)")
    lazy var firstHeld = Prepared(database, "SELECT min(seq) FROM sync_held")
    lazy var clearHeld = Prepared(database, "DELETE FROM sync_held")

    /// How many local changes are not yet in PostgreSQL (those a locked device holds back among them).
    public func pending() throws(DomainError) -> Int {
        try storage { Int(try countPending.integer([.integer(try number("pushed"))]) ?? 0) + Int(try countHeld.integer() ?? 0) }
    }

    private lazy var selectToPush = Prepared(
        database,
        """
        SELECT seq, domain, entity_id, seq IN (SELECT seq FROM sync_skip) FROM changes WHERE seq > ?1
        ORDER BY seq LIMIT ?2
        """)
    private lazy var selectEntity = Prepared(
        database,
        "SELECT known, awaiting, state, fields, follows, stood, stood_state FROM sync_entities WHERE domain = ?1 AND entity = ?2")
    private lazy var setAwaiting = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, awaiting) VALUES (?1, ?2, ?3)
        ON CONFLICT(domain, entity) DO UPDATE SET awaiting = ?3
        """)
    private lazy var upsertEntity = Prepared(
        database,
        """
        INSERT INTO sync_entities(domain, entity, known, awaiting, state, fields, follows, stood, stood_state)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        ON CONFLICT(domain, entity) DO UPDATE SET known = ?3, awaiting = ?4, state = ?5, fields = ?6, follows = ?7,
                                                  stood = ?8, stood_state = ?9
        """)

    /// Which row of the log last changed a field, and on which device.
    struct FieldStamp: Codable, Equatable {
        var seq: Int64
        var device: String
    }

    /// Where an entity stands in the log: the row that made the log's version of it (`known`, 0: none), that
    /// version (`state`, JSON; none when deleted or unknown), the row that last changed each field, and this
    /// device's push of it not yet seen back (`awaiting`).
    struct Entity {
        var known: Int64 = 0
        var awaiting: Int64?
        var state: String?
        var stamps: [String: FieldStamp] = [:]
        /// The log's version is this device's own entity as it stands (`state` is not kept), or, once it
        /// was changed here, as its shadow keeps it (``SyncDomain/shadow(_:)``).
        var follows = false
        /// While this device's entity has changes of its own and the log moved on meanwhile: the row and the
        /// log's version those changes stood on. Its push says so (its `base`, and what its texts were), so
        /// every device merges it with what it had not seen; gone once the entity follows the log again.
        var stood: (seq: Int64, state: String)?
    }

    func entity(_ domain: String, _ id: String) throws -> Entity {
        try selectEntity.first([.text(domain), .text(id)]) { row in
            Entity(
                known: row.int64(0), awaiting: row.isNull(1) ? nil : row.int64(1), state: row.textOrNil(2),
                stamps: try row.textOrNil(3).map(stampCodec.decode) ?? [:], follows: row.int64(4) != 0,
                stood: row.isNull(5) ? nil : (row.int64(5), row.textOrNil(6) ?? ""))
        } ?? Entity()
    }

    /// The log's version of `id`: kept as JSON, or, when this device's entity follows it, that entity as it
    /// was before it was first changed here (its shadow), else as it is.
    func logVersion<D: SyncDomain>(_ kind: D, _ id: String, _ entity: Entity) throws -> D.Version? {
        guard entity.follows else { return try entity.state.map(kind.decode) }
        if let kept = try kind.shadow(id) { return kept }
        guard case .version(let version) = try kind.read(id) else { return nil }
        return version
    }

    /// Saves `entity` with the log's version `version`: not kept when this device's own entity is that
    /// version to the last field (read back), for the domains that keep shadows.
    func save<D: SyncDomain>(_ kind: D, _ id: String, _ entity: Entity, version: D.Version?) throws {
        var entity = entity
        entity.follows = false
        entity.state = try version.map { try $0.encoded() }
        if kind.keepsShadows {
            if let version, case .version(let held) = try kind.read(id), held == version {
                entity.follows = true
                entity.state = nil
            }
            try kind.dropShadow(id)
        }
        try save(kind.logDomain, id, entity)
    }

    func save(_ domain: String, _ id: String, _ entity: Entity) throws {
        try upsertEntity.run(
            [
                .text(domain), .text(id), .integer(entity.known), entity.awaiting.map { .integer($0) } ?? .null,
                entity.state.map { .text($0) } ?? .null, .text(try stampCodec.encode(entity.stamps)),
                .integer(entity.follows ? 1 : 0), entity.stood.map { .integer($0.seq) } ?? .null,
                entity.stood.map { .text($0.state) } ?? .null,
            ])
    }

    /// Which row last changed each field, as kept in sync_entities (SyncStamps.swift).
    lazy var stampCodec = SyncStamps(database)

    /// Images pushed in one round at most, in bytes: a round with photos stays a bounded size.
    public static let imageBytesPerRound = 48 << 20

    /// The private apps' domains: with end-to-end encryption, what a locked device holds back.
    public static let privateDomains: Set<ChangeDomain> = [.notes, .photos, .diary, .reminders]

    /// The next changes to push (at most `limit` change-log entries), each entity once, at its newest entry,
    /// with its state now and the fields it changed since the log's version; `through`: the last entry
    /// looked at (entries of domains that do not sync are passed over). `holdingPrivate` (a device locked
    /// out of its account's encrypted apps): the private apps' entries are left out, and `held` lists them
    /// (``pushed(_:through:held:)`` keeps them, ``releaseHeld()`` sends them once unlocked).
    public func pushBatch(limit: Int, holdingPrivate: Bool = false) throws(DomainError)
        -> (rows: [PushRow], through: Int64, held: [Int64])
    {
        try storage {
            try database.readTransaction {
                var newest: [String: (seq: Int64, domain: ChangeDomain, id: String)] = [:]
                var order: [String] = []
                var through = try number("pushed")
                var held: [Int64] = []
                try selectToPush.forEachRow([.integer(through), .integer(Int64(limit))]) { row in
                    through = row.int64(0)
                    guard row.int64(3) == 0, let domain = ChangeDomain(rawValue: row.text(1)),
                        Self.syncedDomains.contains(domain)
                    else { return }  // came from elsewhere, or does not sync: passed over
                    if holdingPrivate && Self.privateDomains.contains(domain) {
                        held.append(row.int64(0))
                        return
                    }
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
                return (rows.sorted { (abs($0.deviceSeq), -$0.deviceSeq) < (abs($1.deviceSeq), -$1.deviceSeq) }, through, held)
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
        // What this device's version stands on: the log's version when it was first changed here, if the
        // log moved on since.
        let base = known.stood?.seq ?? (known.known == 0 ? nil : known.known)
        let logVersion = try known.stood.map { try kind.decode($0.state) } ?? self.logVersion(kind, id, known)
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
            // One account's own rows say which device made the edit, and what the texts it changed were.
            let body = try kind.isPrivate ? SyncEdit.of(version, over: logVersion, by: currentDeviceName()).body(version) : version.encoded()
            return PushRow(
                deviceSeq: seq, domain: kind.logDomain, entity: id, op: "put", body: body,
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
    /// What was pushed is in PostgreSQL: the entries through `through` are done, but `held` (kept to send
    /// once unlocked), and each pushed entity awaits its row in the log.
    public func pushed(_ rows: [PushRow], through: Int64, held: [Int64] = []) throws(DomainError) {
        try storage {
            try group.transaction {
                guard through > (try number("pushed")) else { return }
                for seq in held { try insertHeld.run([.integer(seq)]) }
                for row in rows {
                    try setAwaiting.run([.text(row.domain), .text(row.entity), .integer(row.deviceSeq)])
                }
                try upsert.run([.text("pushed"), .text(String(through))])
                try forgetSkipped.run([.integer(through)])
            }
        }
    }

    /// A row skipped, as `sync.status` shows it.
    public struct Skipped: Sendable, Equatable {
        /// The row of the shared log (none: a change of this device's that PostgreSQL refused).
        public var row: Int64?
        public var domain: String
        public var entity: String
        public var reason: String
        public var at: Int64
    }

    /// How many skipped rows are kept with their reasons (the count goes on).
    public static let skippedKept = 100

    private lazy var insertSkipped = Prepared(
        database, "INSERT INTO sync_skipped(row, domain, entity, reason, at) VALUES (?1, ?2, ?3, ?4, ?5)")
    private lazy var trimSkipped = Prepared(
        database, "DELETE FROM sync_skipped WHERE id <= (SELECT max(id) FROM sync_skipped) - ?1")
    private lazy var countSkipped = Prepared(database, "SELECT max(id) FROM sync_skipped")
    private lazy var recentSkipped = Prepared(
        database, "SELECT row, domain, entity, reason, at FROM sync_skipped ORDER BY id DESC LIMIT ?1")

    func recordSkipped(row: Int64?, domain: String, entity: String, reason: String) throws {
        try insertSkipped.run(
            [
                row.map { .integer($0) } ?? .null, .text(domain), .text(String(entity.prefix(200))),
                .text(String(reason.prefix(500))), .integer(clock.nowMilliseconds()),
            ])
        try trimSkipped.run([.integer(Int64(Self.skippedKept))])
    }

    /// Rows skipped in all, and the most recent (`limit` at most), newest first.
    public func skippedRows(limit: Int = 20) throws(DomainError) -> (count: Int, recent: [Skipped]) {
        try storage {
            var recent: [Skipped] = []
            try recentSkipped.forEachRow([.integer(Int64(limit))]) { row in
                recent.append(
                    Skipped(
                        row: row.isNull(0) ? nil : row.int64(0), domain: row.text(1), entity: row.text(2),
                        reason: row.text(3), at: row.int64(4)))
            }
            return (Int(try countSkipped.integer() ?? 0), recent)
        }
    }

    private lazy var skipEntity = Prepared(
        database,
        "INSERT OR IGNORE INTO sync_skip(seq) SELECT seq FROM changes WHERE seq > ?1 AND domain = ?2 AND entity_id = ?3")

    /// PostgreSQL refused `row` (a change of this device's): its entity's changes waiting to go out are
    /// passed over (it stays here as it is, unsynced) and the refusal is recorded.
    public func refused(_ row: PushRow, reason: String) throws(DomainError) {
        try storage {
            try group.transaction {
                let local = row.domain == votes.logDomain ? (ChangeDomain.board.rawValue, votes.localEntity(row.entity)) : (row.domain, row.entity)
                try skipEntity.run([.integer(try number("pushed")), .text(local.0), .text(local.1)])
                try recordSkipped(row: nil, domain: row.domain, entity: row.entity, reason: "not synced: " + reason)
            }
        }
    }

    lazy var newestSeq = Prepared(database, "SELECT max(seq) FROM changes")
    /// The conflict copies kept of an entity (ids from `?2` up to `?3`: `<id>-conflict-…`).
    lazy var countCopies = Prepared(
        database, "SELECT count(*) FROM sync_entities WHERE domain = ?1 AND entity > ?2 AND entity < ?3")
    // Each pulled row is applied under a savepoint of its own: one that breaks a rule is undone alone.
    lazy var savepoint = Prepared(database, "SAVEPOINT sync_row")
    lazy var release = Prepared(database, "RELEASE sync_row")
    lazy var rollbackToSavepoint = Prepared(database, "ROLLBACK TO sync_row")
    lazy var skipAfter = Prepared(
        database, "INSERT OR IGNORE INTO sync_skip(seq) SELECT seq FROM changes WHERE seq > ?1")
    lazy var pendingOfEntity = Prepared(
        database,
        """
        SELECT 1 FROM changes WHERE seq > ?1 AND seq <= ?4 AND domain = ?2 AND entity_id = ?3
        AND seq NOT IN (SELECT seq FROM sync_skip) LIMIT 1
        """)
    /// The change log's last entry before the pull being applied (SyncStateStore+Pull.swift): what the
    /// pull itself logs is not this device's own.
    var localThrough: Int64 = 0
}

extension JSONEncoder {
    /// Keys sorted: the same entity always encodes to the same bytes.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
