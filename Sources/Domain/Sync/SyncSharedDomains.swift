// The domains every account of the database shares (SPEC §14): messages, board posts, and each account's
// votes. How each reads and writes on this device; PostgreSQL holds each to its author (SyncSchema).

/// A shared entity's version says who wrote it: the account of its first row in the log.
protocol AuthoredVersion: SyncVersion {
    var author: String? { get set }
}

extension SyncMessage: AuthoredVersion {}
extension SyncBoardPost: AuthoredVersion {}

extension SyncDomain where Version: AuthoredVersion {
    func stamped(_ version: Version, author: String, over logVersion: Version?) -> Version {
        var stamped = version
        stamped.author = logVersion?.author ?? author
        return stamped
    }

    /// Only its author changes or deletes a shared message or post.
    func check(_ row: PulledRow, _ incoming: Version, over logVersion: Version?) throws {
        if let author = logVersion?.author, author != row.account { throw DomainError.validation(reason: .notAuthor, field: "account") }
    }

    func checkDeletion(_ row: PulledRow, of logVersion: Version?) throws {
        if let author = logVersion?.author, author != row.account { throw DomainError.validation(reason: .notAuthor, field: "account") }
    }
}

/// Messages of the conversation every account shares. Only this account's own messages go out (sent here
/// or on its other devices); those loaded from the upstream feed are this device's history.
final class SyncedMessages: Store, SyncDomain {
    let domain = ChangeDomain.messages
    let keepsCopies = false
    private let localAuthor: Author
    private let account: () -> String?
    private lazy var select = Prepared(database, "SELECT id, text, sent_at, origin, author_name FROM messages WHERE id = ?1")
    private lazy var newest = Prepared(database, "SELECT max(position) FROM messages")
    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO messages(id, text, sent_at, author_name, author_avatar_url, origin, feed_key, position)
        VALUES (?1, ?2, ?3, ?4, NULL, ?5, NULL, ?6)
        """)
    private lazy var delete = Prepared(database, "DELETE FROM messages WHERE id = ?1")

    init(_ context: StoreContext, localAuthor: Author, account: @escaping () -> String?) {
        self.localAuthor = localAuthor
        self.account = account
        super.init(context)
    }

    func read(_ id: String) throws -> SyncRead<SyncMessage> {
        try select.first([.text(id)]) { row in
            guard row.text(3) == Message.Origin.local.rawValue else { return SyncRead<SyncMessage>.hidden }
            return .version(SyncMessage(id: row.text(0), text: row.text(1), sentAt: Exchange.time(row.int64(2))))
        } ?? .gone
    }

    /// A message arrives as the newest; this account's own shows as sent here, another's with its account's name.
    func write(_ id: String, _ version: SyncMessage?, images: SyncImages) throws -> Bool {
        let now = clock.nowMilliseconds()
        let held = try select.first([.text(id)]) { _ in true } ?? false
        guard let version else {
            guard held else { return false }
            try delete.run([.text(id)])
            try changes.record(.messages, .deleted, id: id, at: now)
            return true
        }
        guard !held else { return false }  // a message is never edited
        let own = version.author == nil || version.author == account()
        try insert.run(
            [
                .text(id), .text(version.text), .integer(ImportCheck.time(version.sentAt) ?? now),
                .text(own ? localAuthor.name : version.author ?? ""),
                .text((own ? Message.Origin.local : .remote).rawValue), .integer((try newest.integer() ?? 0) + 1),
            ])
        try changes.record(.messages, .created, id: id, at: now)
        return true
    }
}

/// Board posts every account reads. Their vote counts are not theirs to carry: each account's vote is an
/// entity of its own (``SyncedVotes``).
final class SyncedBoard: Store, SyncDomain {
    let domain = ChangeDomain.board
    let keepsCopies = false

    func changesHere(_ id: String) -> Bool { false }
    private lazy var select = Prepared(database, "SELECT id, title, created_at FROM board_posts WHERE id = ?1")
    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO board_posts(id, title, title_key, ups, downs, hot, best, created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, 0, 0, ?4, 0, ?5, ?5, 1)
        """)
    private lazy var update = Prepared(
        database, "UPDATE board_posts SET title = ?2, title_key = ?3, revision = revision + 1 WHERE id = ?1")
    private lazy var delete = Prepared(database, "DELETE FROM board_posts WHERE id = ?1")

    func read(_ id: String) throws -> SyncRead<SyncBoardPost> {
        try select.first([.text(id)]) { row in
            .version(SyncBoardPost(id: row.text(0), title: row.text(1), createdAt: Exchange.time(row.int64(2))))
        } ?? .gone
    }

    func write(_ id: String, _ version: SyncBoardPost?, images: SyncImages) throws -> Bool {
        let now = clock.nowMilliseconds()
        let current = try read(id)
        guard let version else {
            guard case .version = current else { return false }
            try delete.run([.text(id)])
            try changes.record(.board, .deleted, id: id, at: now)
            return true
        }
        if case .version(let held) = current {
            guard held.title != version.title else { return false }
            try update.run([.text(id), .text(version.title), .text(version.title.lowercased())])
            try changes.record(.board, .updated, id: id, at: now)
        } else {
            let createdAt = ImportCheck.time(version.createdAt) ?? now
            try insert.run(
                [
                    .text(id), .text(version.title), .text(version.title.lowercased()),
                    .real(BoardRanking.hot(votes: 0, createdAt: createdAt)), .integer(createdAt),
                ])
            try changes.record(.board, .created, id: id, at: now)
        }
        return true
    }
}

/// Each account's one vote per board post (entity `<post>/<account>`), kept here as that account's vote
/// (voter: the account), the post's counts and rankings following it.
final class SyncedVotes: Store, SyncDomain {
    let domain = ChangeDomain.board
    let logDomain = "votes"
    let keepsCopies = false
    private let account: () -> String?

    init(_ context: StoreContext, account: @escaping () -> String?) {
        self.account = account
        super.init(context)
    }

    func changesHere(_ id: String) -> Bool { voter(id) == account() }

    /// A vote is its account's own (`<post>/<account>`), on a post by its id.
    func check(_ row: PulledRow, _ incoming: SyncVote, over logVersion: SyncVote?) throws {
        guard EntityID.isValid(incoming.post), row.entity == Self.entity(post: incoming.post, account: row.account) else {
            throw DomainError.validation(reason: .invalidDocument, field: "entity")
        }
    }

    /// A vote is withdrawn ("none"), never deleted.
    func checkDeletion(_ row: PulledRow, of logVersion: SyncVote?) throws {
        throw DomainError.validation(reason: .invalidDocument, field: "op")
    }
    private lazy var selectVote = Prepared(database, "SELECT direction FROM board_votes WHERE post_id = ?1 AND voter = ?2")
    private lazy var selectPost = Prepared(database, "SELECT ups, downs, created_at FROM board_posts WHERE id = ?1")
    private lazy var upsertVote = Prepared(
        database,
        """
        INSERT INTO board_votes(post_id, voter, direction) VALUES (?1, ?2, ?3)
        ON CONFLICT(post_id, voter) DO UPDATE SET direction = excluded.direction
        """)
    private lazy var deleteVote = Prepared(database, "DELETE FROM board_votes WHERE post_id = ?1 AND voter = ?2")
    private lazy var updateCounts = Prepared(
        database,
        """
        UPDATE board_posts SET ups = ?2, downs = ?3, hot = ?4, best = ?5, updated_at = ?6, revision = revision + 1
        WHERE id = ?1
        """)

    /// The entity of `account`'s vote on `post`.
    static func entity(post: String, account: String) -> String { post + "/" + account }

    /// A post id has no "/"; an account's name may.
    func localEntity(_ id: String) -> String { String(id[..<(id.firstIndex(of: "/") ?? id.endIndex)]) }

    private func voter(_ id: String) -> String {
        id.firstIndex(of: "/").map { String(id[id.index(after: $0)...]) } ?? ""
    }

    func read(_ id: String) throws -> SyncRead<SyncVote> {
        let post = localEntity(id)
        // A post's deletion takes its votes: a vote itself is never deleted, only withdrawn ("none").
        guard try selectPost.first([.text(post)], { _ in true }) != nil else { return .hidden }
        let value = try selectVote.integer([.text(post), .text(voter(id))])
        return .version(SyncVote(id: id, post: post, direction: value.map { $0 > 0 ? "up" : "down" } ?? "none"))
    }

    func write(_ id: String, _ version: SyncVote?, images: SyncImages) throws -> Bool {
        let post = localEntity(id)
        guard
            let (ups, downs, createdAt) = try selectPost.first([.text(post)], { ($0.int64(0), $0.int64(1), $0.int64(2)) })
        else { return false }  // the post is gone: its votes with it
        let voter = voter(id)
        let before = try selectVote.integer([.text(post), .text(voter)]) ?? 0
        let after: Int64 = version?.direction == "up" ? 1 : version?.direction == "down" ? -1 : 0
        guard before != after else { return false }
        if after == 0 {
            try deleteVote.run([.text(post), .text(voter)])
        } else {
            try upsertVote.run([.text(post), .text(voter), .integer(after)])
        }
        let newUps = ups + (after == 1 ? 1 : 0) - (before == 1 ? 1 : 0)
        let newDowns = downs + (after == -1 ? 1 : 0) - (before == -1 ? 1 : 0)
        let now = clock.nowMilliseconds()
        try updateCounts.run(
            [
                .text(post), .integer(newUps), .integer(newDowns),
                .real(BoardRanking.hot(votes: newUps - newDowns, createdAt: createdAt)),
                .real(BoardRanking.best(ups: newUps, downs: newDowns)), .integer(now),
            ])
        try changes.record(.board, .updated, id: post, at: now)
        return true
    }
}
