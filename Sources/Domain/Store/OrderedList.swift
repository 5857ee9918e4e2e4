/// An entity kept in a user's order: a move bumps its revision.
protocol OrderedEntity {
    var updatedAt: Int64 { get set }
    var revision: Int64 { get set }
}

extension Note: OrderedEntity {}
extension PhotoNote: OrderedEntity {}
extension Reminder: OrderedEntity {}

/// The user's order of a table's rows, kept in an integer `position` column with gaps.
///
/// Appends take the next gap; inserts and moves take the midpoint of their new neighbours, and only when
/// two neighbours have no room left between them is the whole list renumbered (rarely: gaps start at 2^20).
/// Reading a page by position is a keyset range scan, so it costs the same anywhere in the list.
final class OrderedList {
    let database: Database
    let table: String
    private let counts: RowCounts
    private let domain: ChangeDomain
    private let changes: ChangeLog
    private let clock: any Clock

    static let gap: Int64 = 1 << 20

    /// The places a row may hold: far from Int64's ends, so that a place plus a gap, or the middle of two,
    /// never overflows (a place from another device outside them is refused).
    static let validPositions: ClosedRange<Int64> = -(1 << 62)...(1 << 62)

    init(_ context: StoreContext, table: String, domain: ChangeDomain) {
        database = context.database
        self.table = table
        counts = context.counts
        self.domain = domain
        changes = context.changes
        clock = context.clock
    }

    func count() throws -> Int {
        try counts.rows(of: table)
    }

    private lazy var indexOfPosition = Prepared(database, "SELECT count(*) FROM \(table) WHERE position < ?1")
    private lazy var positionOfID = Prepared(database, "SELECT position FROM \(table) WHERE id = ?1")
    private lazy var positionAtIndex = Prepared(
        database, "SELECT position FROM \(table) ORDER BY position LIMIT 1 OFFSET ?1")

    /// The 0-based index of the row with `id`, or `nil`.
    func index(of id: String) throws -> Int? {
        guard let position = try position(of: id) else { return nil }
        return Int(try indexOfPosition.integer([.integer(position)]) ?? 0)
    }

    func position(of id: String) throws -> Int64? {
        try positionOfID.integer([.text(id)])
    }

    /// The position at 0-based `index` in the current order.
    private func position(at index: Int) throws -> Int64? {
        try positionAtIndex.integer([.integer(Int64(index))])
    }

    private lazy var touchMoved = Prepared(
        database, "UPDATE \(table) SET updated_at = ?2, revision = revision + 1 WHERE id = ?1")
    private lazy var revisionOfID = Prepared(database, "SELECT revision FROM \(table) WHERE id = ?1")

    /// `entity.move` for every ordered store: moves row `id` (a `kind`, for errors) to 0-based `index` in the
    /// whole list, bumps its revision and records a `moved` event in `domain`, and returns the entity as
    /// `find` reads it, with its new `updatedAt` and `revision` (unchanged when it was already there). Runs
    /// inside the caller's transaction.
    func move<Entity: OrderedEntity>(
        id: String, kind: String, to index: Int, domain: ChangeDomain, changes: ChangeLog, now: Int64,
        find: () throws -> Entity?
    ) throws -> Entity {
        guard var entity = try find(), let from = try self.index(of: id) else {
            throw DomainError.notFound(kind: kind, id: id)
        }
        let count = try self.count()
        guard index >= 0, index < count else {
            throw DomainError.validation(reason: .indexOutOfRange, field: "toIndex", limit: Int64(count - 1))
        }
        guard index != from else { return entity }
        try move(id: id, from: from, to: index, count: count)
        try touchMoved.run([.text(id), .integer(now)])
        try changes.record(domain, .moved, id: id, at: now)
        entity.updatedAt = now
        entity.revision = try revisionOfID.integer([.text(id)]) ?? 0
        return entity
    }

    /// Where the page after `cursor` starts: after the cursor's row where it is now (the list may have been
    /// reordered or renumbered since), or after the position it had when that row is gone.
    func resumePosition(after cursor: String?) throws(DomainError) -> Int64 {
        guard let cursor else { return Int64.min }
        let (key, id) = try KeysetCursor.read(cursor)
        return try storage { try position(of: id) ?? key }
    }

    private lazy var appendPosition = Prepared(
        database, "SELECT (SELECT coalesce(max(position), 0) FROM \(table)) + \(OrderedList.gap)")

    /// A position after every row.
    func positionForAppend() throws -> Int64 {
        try appendPosition.integer() ?? Self.gap
    }

    /// A free position that puts a new row at `index` (0...count), shifting later rows down by one.
    func positionForInsert(at index: Int, count: Int) throws -> Int64 {
        if index >= count { return try positionForAppend() }
        return try positionBetween(before: index - 1, after: index, excluding: nil)
    }

    private lazy var setPosition = Prepared(database, "UPDATE \(table) SET position = ?1 WHERE id = ?2")

    /// Moves the row `id` (currently at `from`) to `to`, both 0-based indexes in the current order.
    func move(id: String, from: Int, to: Int, count: Int) throws {
        guard from != to else { return }
        let newPosition: Int64
        if to == count - 1 {
            newPosition = try positionForAppend()
        } else if to > from {
            // The row leaves its place, so its new neighbours are the rows now at `to` and `to + 1`.
            newPosition = try positionBetween(before: to, after: to + 1, excluding: id)
        } else {
            newPosition = try positionBetween(before: to - 1, after: to, excluding: id)
        }
        try setPosition.run([.integer(newPosition), .text(id)])
    }

    /// A position strictly between the rows at indexes `before` (-1: the start) and `after`.
    private func positionBetween(before: Int, after: Int, excluding id: String?) throws -> Int64 {
        for attempt in 0..<2 {
            guard let upper = try position(at: after) else { return try positionForAppend() }
            // Positions stay positive: the start of the list is 0.
            let lower = before >= 0 ? (try position(at: before) ?? 0) : 0
            if upper - lower >= 2 { return lower + (upper - lower) / 2 }
            precondition(attempt == 0, "renumbering always leaves room")
            try renumber()
        }
        fatalError("unreachable")
    }

    /// Spreads every row out to multiples of the gap, keeping the order. Positions are always positive, so
    /// negating them first frees the positive range without ever colliding on the UNIQUE index. Rare
    /// enough to be prepared each time. Every row's place changed: each is logged as moved (sync sends the
    /// new places, so other devices keep the same order).
    private func renumber() throws {
        try database.run("UPDATE \(table) SET position = -position")
        try database.run(
            """
            UPDATE \(table) SET position = ranked.rank * ?1
            FROM (SELECT id, row_number() OVER (ORDER BY position DESC) AS rank FROM \(table)) AS ranked
            WHERE \(table).id = ranked.id
            """, [.integer(Self.gap)])
        let now = clock.nowMilliseconds()
        var ids: [String] = []
        try Prepared(database, "SELECT id FROM \(table) ORDER BY position").forEachRow { ids.append($0.text(0)) }
        for id in ids { try changes.record(domain, .moved, id: id, at: now) }
    }
}
