/// Entities read recently, kept coherent with the database through the change log (SPEC §11) instead of
/// by each write path: every committed mutation, by any process, appends an event naming the entity, and
/// the cache drops what those events name before it answers.
///
/// - Values are remembered only when read outside a write transaction, so nothing uncommitted (which a
///   rollback could take back) is ever kept.
/// - Before a lookup the log is checked once per read snapshot (see ``Database/armGroup()``; outside a
///   group, once per lookup): a look at the newest sequence number, and only when it moved, at the events
///   since. After a long absence (more than ``catchUpLimit`` events) everything is dropped instead.
/// - Memory is bounded: past ``capacity`` entities or ``byteBudget`` bytes the cache starts over.
final class EntityCache<Value> {
    private let database: Database
    private let domain: ChangeDomain
    private let cost: (Value) -> Int
    private var values: [String: Value] = [:]
    private var bytes = 0
    /// The newest change event accounted for.
    private var seenThrough: Int64 = -1
    /// The read snapshot in which the log was last checked.
    private var checkedInSnapshot: UInt64 = 0

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

    private func checkLog() throws {
        if database.isInReadSnapshot && checkedInSnapshot == database.readSnapshotNumber { return }
        let newest = try database.scalarInteger("SELECT coalesce(max(seq), 0) FROM changes") ?? 0
        if database.isInReadSnapshot { checkedInSnapshot = database.readSnapshotNumber }
        guard newest != seenThrough else { return }
        if seenThrough < 0 || newest < seenThrough || newest - seenThrough > Self.catchUpLimit {
            values.removeAll(keepingCapacity: true)
            bytes = 0
        } else if !values.isEmpty {
            try database.statement("SELECT entity_id FROM changes WHERE seq > ?1 AND seq <= ?2 AND domain = ?3")
                .forEachRow([.integer(seenThrough), .integer(newest), .text(domain.rawValue)]) { row in
                    if let gone = values.removeValue(forKey: row.text(0)) { bytes -= cost(gone) }
                }
        }
        seenThrough = newest
    }
}
