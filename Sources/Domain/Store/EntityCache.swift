/// Entities read recently, kept coherent with the database through the change log (SPEC §11) instead of
/// by each write path: every committed mutation, by any process, appends an event naming the entity, and
/// the cache drops what those events name before it answers.
///
/// - Values are remembered only when read outside a write transaction, so nothing uncommitted (which a
///   rollback could take back) is ever kept.
/// - Before a lookup the log is checked once per read-only transaction (such as a write group's read
///   snapshot, see ``WriteGroup``; outside one, once per lookup): a look at the newest sequence number,
///   and only when it moved, at the events since. After a long absence (more than ``catchUpLimit`` events) everything is dropped instead.
/// - Memory is bounded: past ``capacity`` entities or ``byteBudget`` bytes the cache starts over.
final class EntityCache<Value> {
    private let database: Database
    private let domain: ChangeDomain
    private let cost: (Value) -> Int
    private var values: [String: Value] = [:]
    private var bytes = 0
    /// The newest change event accounted for.
    private var seenThrough: Int64 = -1
    /// The read-only transaction in which the log was last checked.
    private var checkedInTransaction: UInt64 = 0
    private lazy var selectNewest = Prepared(database, ChangeLog.newestSQL)
    private lazy var selectChanged = Prepared(
        database, "SELECT entity_id FROM changes WHERE seq > ?1 AND seq <= ?2 AND domain = ?3")

    let capacity: Int
    let byteBudget: Int
    static var catchUpLimit: Int64 { 1_000 }

    init(database: Database, domain: ChangeDomain, capacity: Int = 10_000, byteBudget: Int = 16 << 20,
         cost: @escaping (Value) -> Int) {
        self.database = database
        self.domain = domain
        self.capacity = capacity
        self.byteBudget = byteBudget
        self.cost = cost
    }

    /// How many entities are remembered.
    var count: Int { values.count }

    /// The remembered value for `id`, if it is still what the database holds.
    func value(for id: String) throws -> Value? {
        guard !database.isInWriteTransaction else { return nil }
        try checkLog()
        return values[id]
    }

    /// Remembers `value`, read just now, unless it was read inside a write transaction.
    func remember(_ value: Value, for id: String) {
        guard !database.isInWriteTransaction, seenThrough >= 0 else { return }
        let size = cost(value)
        if values.count >= capacity || bytes + size > byteBudget {
            values.removeAll(keepingCapacity: true)
            bytes = 0
        }
        if values.updateValue(value, forKey: id) == nil { bytes += size }
    }

    private var inReadOnlyTransaction: Bool { database.isInTransaction && !database.isInWriteTransaction }

    private func checkLog() throws {
        // A read-only transaction sees one state of the log: it is checked once in it.
        if inReadOnlyTransaction && checkedInTransaction == database.transactionNumber { return }
        let newest = try selectNewest.integer() ?? 0
        // Asked after the read, which may have opened a write group's read snapshot.
        if inReadOnlyTransaction { checkedInTransaction = database.transactionNumber }
        guard newest != seenThrough else { return }
        if seenThrough < 0 || newest < seenThrough || newest - seenThrough > Self.catchUpLimit {
            values.removeAll(keepingCapacity: true)
            bytes = 0
        } else if !values.isEmpty {
            try selectChanged.forEachRow([.integer(seenThrough), .integer(newest), .text(domain.rawValue)]) { row in
                    if let gone = values.removeValue(forKey: row.text(0)) { bytes -= cost(gone) }
                }
        }
        seenThrough = newest
    }
}
