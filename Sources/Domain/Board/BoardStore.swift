/// The Reddit-like board (SPEC §10): posts, votes and five rankings.
///
/// A listing that needs more than one page is read from a frozen order (a snapshot of the ranking taken
/// at its first page, kept for an hour), so paging never skips or repeats a post while votes change; the
/// items themselves always show the current counts.
public final class BoardStore: Store {
    /// How many frozen orders are kept at once.
    public static let maximumSnapshots = 16

    /// How long a paged listing's frozen order stays usable.
    public static let snapshotLifetime: Int64 = 3_600_000

    /// One statement for each ranking (their ORDER BY differs), each prepared the first time its ranking runs.
    private final class BySort {
        private unowned let database: Database
        private let sql: (BoardSort) -> String
        private var prepared: [BoardSort: Prepared] = [:]

        init(_ database: Database, _ sql: @escaping (BoardSort) -> String) {
            self.database = database
            self.sql = sql
        }

        subscript(_ sort: BoardSort) -> Prepared {
            if let statement = prepared[sort] { return statement }
            let statement = Prepared(database, sql(sort))
            prepared[sort] = statement
            return statement
        }
    }

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

    private static let columns = "p.id, p.title, p.ups, p.downs, p.created_at, p.updated_at, p.revision, v.direction"

    private static func post(_ row: Statement) -> BoardPost {
        BoardPost(
            id: row.text(0), title: row.text(1), ups: row.int64(2), downs: row.int64(3), createdAt: row.int64(4),
            updatedAt: row.int64(5), revision: row.int64(6), myVote: row.int64OrNil(7).flatMap(VoteDirection.init(value:)))
    }

    private lazy var selectByID = Prepared(
        database,
        """
        SELECT \(Self.columns) FROM board_posts AS p
        LEFT JOIN board_votes AS v ON v.post_id = p.id AND v.voter = ?2 WHERE p.id = ?1
        """)

    func find(_ id: String, voter: String?) throws -> BoardPost? {
        try selectByID.first([.text(id), voter.map { .text($0) } ?? .null], Self.post)
    }

    private lazy var selectLastIDAt = Prepared(database, "SELECT max(id) FROM board_posts WHERE created_at = ?1")
    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO board_posts(id, title, title_key, ups, downs, hot, best, created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, 0, 0, ?4, 0, ?5, ?5, 1)
        """)

    public func create(title: String) throws(DomainError) -> BoardPost {
        try BoardPost.check(title: title)
        return try storage {
            try group.transaction {
                let now = clock.nowMilliseconds()
                // Greater than any post of this same millisecond, so `new` (and `hot`'s ties) keep creation order.
                let id = ids.makeID(kind: "bp", after: try selectLastIDAt.text([.integer(now)]))
                return try insertPost(id: id, title: title, createdAt: now, at: now)
            }
        }
    }

    /// Stores a new post without votes and logs it: the one place a post is made, by `create` or by a post
    /// pulled from another device.
    func insertPost(id: String, title: String, createdAt: Int64, at now: Int64) throws -> BoardPost {
        try insert.run(
            [
                .text(id), .text(title), .text(title.lowercased()),
                .real(BoardRanking.hot(votes: 0, createdAt: createdAt)), .integer(createdAt),
            ])
        try changes.record(.board, .created, id: id, at: now)
        return BoardPost(
            id: id, title: title, ups: 0, downs: 0, createdAt: createdAt, updatedAt: createdAt, revision: 1, myVote: nil)
    }

    public func get(id: String, voter: String? = nil) throws(DomainError) -> BoardPost {
        guard let post = try storage({ try find(id, voter: voter) }) else { throw .notFound(kind: "boardPost", id: id) }
        return post
    }

    private lazy var deletePost = Prepared(database, "DELETE FROM board_posts WHERE id = ?1")

    public func delete(id: String) throws(DomainError) {
        try storage {
            try group.transaction {
                try deletePost.run([.text(id)])
                guard database.changes == 1 else { throw DomainError.notFound(kind: "boardPost", id: id) }
                try changes.record(.board, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    private lazy var upsertVote = Prepared(
        database,
        """
        INSERT INTO board_votes(post_id, voter, direction) VALUES (?1, ?2, ?3)
        ON CONFLICT(post_id, voter) DO UPDATE SET direction = excluded.direction
        """)
    private lazy var deleteVote = Prepared(database, "DELETE FROM board_votes WHERE post_id = ?1 AND voter = ?2")
    private lazy var updateVotes = Prepared(
        database,
        """
        UPDATE board_posts SET ups = ?2, downs = ?3, hot = ?4, best = ?5, updated_at = ?6, revision = ?7
        WHERE id = ?1
        """)

    /// Votes. Without a voter every call counts (as in the original app; `clear` needs a voter). With one,
    /// each voter has at most one vote per post: repeating it changes nothing, the opposite direction
    /// switches it, `clear` withdraws it.
    public func vote(id: String, _ request: VoteRequest, voter: String? = nil) throws(DomainError) -> BoardPost {
        if voter == nil, request == .clear {
            throw .validation(reason: .voterRequired, field: "voter")
        }
        return try storage {
            try group.transaction {
                guard var post = try find(id, voter: voter) else { throw DomainError.notFound(kind: "boardPost", id: id) }
                if let voter {
                    let next: VoteDirection? = request == .clear ? nil : VoteDirection(rawValue: request.rawValue)
                    _ = try setVote(&post, voter: voter, to: next)
                    return post
                }
                try count(&post, ups: request == .up ? 1 : 0, downs: request == .up ? 0 : 1)
                return post
            }
        }
    }

    /// Makes `voter`'s one vote on `post` `next` (`nil`: withdrawn), its counts and rankings following, and
    /// logs the change: the one place a voter's vote is counted, by `vote` or by a vote pulled from another
    /// device. Answers whether anything changed.
    func setVote(_ post: inout BoardPost, voter: String, to next: VoteDirection?) throws -> Bool {
        let previous = post.myVote
        guard previous != next else { return false }
        if let next {
            try upsertVote.run([.text(post.id), .text(voter), .integer(next.value)])
        } else {
            try deleteVote.run([.text(post.id), .text(voter)])
        }
        post.myVote = next
        try count(
            &post, ups: (next == .up ? 1 : 0) - (previous == .up ? 1 : 0),
            downs: (next == .down ? 1 : 0) - (previous == .down ? 1 : 0))
        return true
    }

    /// Moves `post`'s counts by these, and its rankings with them, and logs the change.
    private func count(_ post: inout BoardPost, ups: Int64, downs: Int64) throws {
        post.ups += ups
        post.downs += downs
        post.updatedAt = clock.nowMilliseconds()
        post.revision += 1
        try updateVotes.run(
            [
                .text(post.id), .integer(post.ups), .integer(post.downs),
                .real(BoardRanking.hot(votes: post.votes, createdAt: post.createdAt)),
                .real(BoardRanking.best(ups: post.ups, downs: post.downs)), .integer(post.updatedAt),
                .integer(post.revision),
            ])
        try changes.record(.board, .updated, id: post.id, at: post.updatedAt)
    }

    private lazy var selectLiveSnapshot = Prepared(
        database, "SELECT 1 FROM board_snapshots WHERE id = ?1 AND created_at >= ?2")
    /// A page of posts in each ranking, read as they are.
    private lazy var selectRanked = BySort(database) { sort in
        """
        SELECT \(BoardStore.columns) FROM board_posts AS p
        LEFT JOIN board_votes AS v ON v.post_id = p.id AND v.voter = ?1
        ORDER BY \(BoardStore.orderClause(sort, alias: "p")) LIMIT ?2
        """
    }

    /// A page of posts in `sort` order.
    public func list(sort: BoardSort, _ request: PageRequest, voter: String? = nil) throws(DomainError) -> Page<BoardPost> {
        let voterValue: SQLValue = voter.map { .text($0) } ?? .null
        if let cursor = request.cursor {
            let (rank, snapshot) = try KeysetCursor.read(cursor)
            return try storage {
                let oldest = clock.nowMilliseconds() - Self.snapshotLifetime
                guard try selectLiveSnapshot.integer([.text(snapshot), .integer(oldest)]) != nil else {
                    throw DomainError.invalidArgument(field: "cursor", expected: "a cursor of this listing (they last an hour)")
                }
                return try snapshotPage(snapshot, after: rank, limit: request.limit, voter: voterValue)
            }
        }
        return try storage {
            // One page holds everything: read it as it is, no frozen order needed.
            var items: [BoardPost] = []
            try selectRanked[sort].forEachRow([voterValue, .integer(Int64(request.limit + 1))]) {
                items.append(Self.post($0))
            }
            if items.count <= request.limit { return Page(items: items, nextCursor: nil) }
            return try group.transaction {
                // More than one page: freeze the order now, and page through the frozen order.
                let snapshot = try freeze(sort)
                return try snapshotPage(snapshot, after: 0, limit: request.limit, voter: voterValue)
            }
        }
    }

    private lazy var deleteExpiredSnapshots = Prepared(database, "DELETE FROM board_snapshots WHERE created_at < ?1")
    private lazy var deleteOldestSnapshots = Prepared(
        database,
        """
        DELETE FROM board_snapshots WHERE id NOT IN
            (SELECT id FROM board_snapshots ORDER BY created_at DESC, id DESC LIMIT ?1)
        """)
    private lazy var insertSnapshot = Prepared(database, "INSERT INTO board_snapshots(id, created_at) VALUES (?1, ?2)")
    /// Freezes each ranking into a snapshot's rows.
    private lazy var freezeRanking = BySort(database) { sort in
        """
        INSERT INTO board_snapshot_rows(snapshot, rank, post_id)
        SELECT ?1, row_number() OVER (ORDER BY \(BoardStore.orderClause(sort))), id FROM board_posts
        """
    }

    /// Freezes the `sort` order into a new snapshot and returns the snapshot's id. Runs inside the caller's
    /// transaction.
    private func freeze(_ sort: BoardSort) throws -> String {
        let now = clock.nowMilliseconds()
        try deleteExpiredSnapshots.run([.integer(now - Self.snapshotLifetime)])
        // At most a few frozen orders are kept: a front-end that keeps reopening the list must not
        // grow the database (the oldest cursors stop working first).
        try deleteOldestSnapshots.run([.integer(Int64(Self.maximumSnapshots - 1))])
        let snapshot = ids.makeID(kind: "snap")
        try insertSnapshot.run([.text(snapshot), .integer(now)])
        try freezeRanking[sort].run([.text(snapshot)])
        return snapshot
    }

    private lazy var selectSnapshotPage = Prepared(
        database,
        """
        SELECT \(Self.columns), s.rank FROM board_snapshot_rows AS s
        JOIN board_posts AS p ON p.id = s.post_id
        LEFT JOIN board_votes AS v ON v.post_id = p.id AND v.voter = ?3
        WHERE s.snapshot = ?1 AND s.rank > ?2 ORDER BY s.rank LIMIT ?4
        """)

    private func snapshotPage(_ snapshot: String, after rank: Int64, limit: Int, voter: SQLValue) throws -> Page<BoardPost> {
        var rows: [(item: BoardPost, key: Int64)] = []
        try selectSnapshotPage.forEachRow([
            .text(snapshot), .integer(rank), voter, .integer(Int64(limit + 1)),
        ]) { row in
            rows.append((Self.post(row), row.int64(8)))
        }
        return Page(keyset: rows, limit: limit) { _ in snapshot }
    }

    public func count() throws(DomainError) -> Int {
        try storage { try counts.rows(of: "board_posts") }
    }
}
