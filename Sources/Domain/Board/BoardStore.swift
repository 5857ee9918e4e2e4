/// The Reddit-like board (SPEC §10): posts, votes and five rankings.
///
/// A listing that needs more than one page is read from a frozen order (a snapshot of the ranking taken
/// at its first page, kept for an hour), so paging never skips or repeats a post while votes change; the
/// items themselves always show the current counts.
public final class BoardStore {
    private let database: Database
    private let clock: any Clock
    private let ids: any IDGenerator
    private let changes: ChangeLog

    /// How many frozen orders are kept at once.
    public static let maximumSnapshots = 16

    /// How long a paged listing's frozen order stays usable.
    public static let snapshotLifetime: Int64 = 3_600_000

    init(database: Database, clock: any Clock, ids: any IDGenerator, changes: ChangeLog) {
        self.database = database
        self.clock = clock
        self.ids = ids
        self.changes = changes
    }

    private static let columns = "p.id, p.title, p.ups, p.downs, p.created_at, p.updated_at, p.revision, v.direction"
    private static let selectByID = """
        SELECT \(columns) FROM board_posts AS p
        LEFT JOIN board_votes AS v ON v.post_id = p.id AND v.voter = ?2 WHERE p.id = ?1
        """

    static func orderClause(_ sort: BoardSort, alias: String = "") -> String {
        let p = alias.isEmpty ? "" : alias + "."
        switch sort {
        case .votes: return "(\(p)ups - \(p)downs) DESC, \(p)title_key ASC, \(p)id ASC"
        case .title: return "\(p)title_key ASC, \(p)id ASC"
        case .new: return "\(p)created_at DESC, \(p)id DESC"
        case .hot: return "\(p)hot DESC, \(p)id DESC"
        case .best: return "\(p)best DESC, (\(p)ups - \(p)downs) DESC, \(p)id ASC"
        }
    }

    private static func post(_ row: Statement) -> BoardPost {
        BoardPost(
            id: row.text(0), title: row.text(1), ups: row.int64(2), downs: row.int64(3), createdAt: row.int64(4),
            updatedAt: row.int64(5), revision: row.int64(6), myVote: row.int64OrNil(7).flatMap(VoteDirection.init(value:)))
    }

    private func find(_ id: String, voter: String?) throws -> BoardPost? {
        try database.statement(Self.selectByID).first([.text(id), voter.map { .text($0) } ?? .null], Self.post)
    }

    public func create(title: String) throws(DomainError) -> BoardPost {
        try BoardPost.check(title: title)
        return try storage {
            try database.transaction {
                let now = clock.nowMilliseconds()
                // Greater than any post of this same millisecond, so `new` (and `hot`'s ties) keep creation order.
                let id = ids.makeID(kind: "bp", after: try database.scalarText(
                    "SELECT max(id) FROM board_posts WHERE created_at = ?1", [.integer(now)]))
                let post = BoardPost(
                    id: id, title: title, ups: 0, downs: 0, createdAt: now, updatedAt: now,
                    revision: 1, myVote: nil)
                try database.run(
                    """
                    INSERT INTO board_posts(id, title, title_key, ups, downs, hot, best, created_at, updated_at, revision)
                    VALUES (?1, ?2, ?3, 0, 0, ?4, 0, ?5, ?5, 1)
                    """,
                    [
                        .text(post.id), .text(title), .text(title.lowercased()),
                        .real(BoardRanking.hot(votes: 0, createdAt: now)), .integer(now),
                    ])
                try changes.record(.board, .created, id: post.id, at: now)
                return post
            }
        }
    }

    public func get(id: String, voter: String? = nil) throws(DomainError) -> BoardPost {
        guard let post = try storage({ try find(id, voter: voter) }) else { throw .notFound(kind: "boardPost", id: id) }
        return post
    }

    public func delete(id: String) throws(DomainError) {
        try storage {
            try database.transaction {
                try database.run("DELETE FROM board_posts WHERE id = ?1", [.text(id)])
                guard database.changes == 1 else { throw DomainError.notFound(kind: "boardPost", id: id) }
                try changes.record(.board, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    /// Votes. Without a voter every call counts (as in the original app; `clear` needs a voter). With one,
    /// each voter has at most one vote per post: repeating it changes nothing, the opposite direction
    /// switches it, `clear` withdraws it.
    public func vote(id: String, _ request: VoteRequest, voter: String? = nil) throws(DomainError) -> BoardPost {
        if voter == nil, request == .clear {
            throw .validation(reason: .voterRequired, field: "voter")
        }
        return try storage {
            try database.transaction {
                guard var post = try find(id, voter: voter) else { throw DomainError.notFound(kind: "boardPost", id: id) }
                var upDelta: Int64 = 0
                var downDelta: Int64 = 0
                if let voter {
                    let previous = post.myVote
                    let next: VoteDirection? = request == .clear ? nil : VoteDirection(rawValue: request.rawValue)
                    guard previous != next else { return post }
                    if previous == .up { upDelta -= 1 }
                    if previous == .down { downDelta -= 1 }
                    if next == .up { upDelta += 1 }
                    if next == .down { downDelta += 1 }
                    if let next {
                        try database.run(
                            """
                            INSERT INTO board_votes(post_id, voter, direction) VALUES (?1, ?2, ?3)
                            ON CONFLICT(post_id, voter) DO UPDATE SET direction = excluded.direction
                            """, [.text(id), .text(voter), .integer(next.value)])
                    } else {
                        try database.run("DELETE FROM board_votes WHERE post_id = ?1 AND voter = ?2", [.text(id), .text(voter)])
                    }
                    post.myVote = next
                } else if request == .up {
                    upDelta = 1
                } else {
                    downDelta = 1
                }
                post.ups += upDelta
                post.downs += downDelta
                post.updatedAt = clock.nowMilliseconds()
                post.revision += 1
                try database.run(
                    """
                    UPDATE board_posts SET ups = ?2, downs = ?3, hot = ?4, best = ?5, updated_at = ?6, revision = ?7
                    WHERE id = ?1
                    """,
                    [
                        .text(id), .integer(post.ups), .integer(post.downs),
                        .real(BoardRanking.hot(votes: post.votes, createdAt: post.createdAt)),
                        .real(BoardRanking.best(ups: post.ups, downs: post.downs)), .integer(post.updatedAt),
                        .integer(post.revision),
                    ])
                try changes.record(.board, .updated, id: id, at: post.updatedAt)
                return post
            }
        }
    }

    /// A page of posts in `sort` order.
    public func list(sort: BoardSort, _ request: PageRequest, voter: String? = nil) throws(DomainError) -> Page<BoardPost> {
        let voterValue: SQLValue = voter.map { .text($0) } ?? .null
        if let cursor = request.cursor {
            let (rank, snapshot) = try KeysetCursor.read(cursor)
            return try storage {
                let oldest = clock.nowMilliseconds() - Self.snapshotLifetime
                guard
                    try database.scalarInteger(
                        "SELECT 1 FROM board_snapshots WHERE id = ?1 AND created_at >= ?2", [.text(snapshot), .integer(oldest)])
                        != nil
                else {
                    throw DomainError.invalidArgument(field: "cursor", expected: "a cursor of this listing (they last an hour)")
                }
                return try snapshotPage(snapshot, after: rank, limit: request.limit, voter: voterValue)
            }
        }
        return try storage {
            // One page holds everything: read it as it is, no frozen order needed.
            var items: [BoardPost] = []
            try database.statement(
                """
                SELECT \(Self.columns) FROM board_posts AS p
                LEFT JOIN board_votes AS v ON v.post_id = p.id AND v.voter = ?1
                ORDER BY \(Self.orderClause(sort, alias: "p")) LIMIT ?2
                """
            ).forEachRow([voterValue, .integer(Int64(request.limit + 1))]) { items.append(Self.post($0)) }
            if items.count <= request.limit { return Page(items: items, nextCursor: nil) }
            return try database.transaction {
                // More than one page: freeze the order now, and page through the frozen order.
                let now = clock.nowMilliseconds()
                try database.run("DELETE FROM board_snapshots WHERE created_at < ?1", [.integer(now - Self.snapshotLifetime)])
                // At most a few frozen orders are kept: a front-end that keeps reopening the list must not
                // grow the database (the oldest cursors stop working first).
                try database.run(
                    """
                    DELETE FROM board_snapshots WHERE id NOT IN
                        (SELECT id FROM board_snapshots ORDER BY created_at DESC, id DESC LIMIT ?1)
                    """, [.integer(Int64(Self.maximumSnapshots - 1))])
                let snapshot = ids.makeID(kind: "snap")
                try database.run("INSERT INTO board_snapshots(id, created_at) VALUES (?1, ?2)", [.text(snapshot), .integer(now)])
                try database.run(
                    """
                    INSERT INTO board_snapshot_rows(snapshot, rank, post_id)
                    SELECT ?1, row_number() OVER (ORDER BY \(Self.orderClause(sort))), id FROM board_posts
                    """, [.text(snapshot)])
                return try snapshotPage(snapshot, after: 0, limit: request.limit, voter: voterValue)
            }
        }
    }

    private func snapshotPage(_ snapshot: String, after rank: Int64, limit: Int, voter: SQLValue) throws -> Page<BoardPost> {
        var rows: [(item: BoardPost, key: Int64)] = []
        try database.statement(
            """
            SELECT \(Self.columns), s.rank FROM board_snapshot_rows AS s
            JOIN board_posts AS p ON p.id = s.post_id
            LEFT JOIN board_votes AS v ON v.post_id = p.id AND v.voter = ?3
            WHERE s.snapshot = ?1 AND s.rank > ?2 ORDER BY s.rank LIMIT ?4
            """
        ).forEachRow([.text(snapshot), .integer(rank), voter, .integer(Int64(limit + 1))]) { row in
            rows.append((Self.post(row), row.int64(8)))
        }
        return Page(keyset: rows, limit: limit) { _ in snapshot }
    }

    public func count() throws(DomainError) -> Int {
        try storage { try RowCounts(database: database).rows(of: "board_posts") }
    }
}
