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
    let isPrivate = false
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
/// entity of its own (``SyncedVotes``). A post is made by the board's own rule (``BoardStore``).
final class SyncedBoard: Store, SyncDomain {
    let domain = ChangeDomain.board
    let isPrivate = false
    private let board: BoardStore

    init(_ context: StoreContext, board: BoardStore) {
        self.board = board
        super.init(context)
    }

    func changesHere(_ id: String) -> Bool { false }
    private lazy var select = Prepared(database, "SELECT id, title, created_at FROM board_posts WHERE id = ?1")
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
            _ = try board.insertPost(id: id, title: version.title, createdAt: ImportCheck.time(version.createdAt) ?? now, at: now)
        }
        return true
    }
}

/// Each account's one vote per board post (entity `<post>/<account>`), kept here as that account's vote
/// (voter: the account), counted by the board's own rule (``BoardStore``).
final class SyncedVotes: Store, SyncDomain {
    let domain = ChangeDomain.board
    let logDomain = "votes"
    let isPrivate = false
    private let account: () -> String?
    private let board: BoardStore

    init(_ context: StoreContext, board: BoardStore, account: @escaping () -> String?) {
        self.account = account
        self.board = board
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

    /// The entity of `account`'s vote on `post`.
    static func entity(post: String, account: String) -> String { post + "/" + account }

    /// A post id has no "/"; an account's name may.
    func localEntity(_ id: String) -> String { String(id[..<(id.firstIndex(of: "/") ?? id.endIndex)]) }

    private func voter(_ id: String) -> String {
        id.firstIndex(of: "/").map { String(id[id.index(after: $0)...]) } ?? ""
    }

    func read(_ id: String) throws -> SyncRead<SyncVote> {
        // A post's deletion takes its votes: a vote itself is never deleted, only withdrawn ("none").
        guard let post = try board.find(localEntity(id), voter: voter(id)) else { return .hidden }
        return .version(SyncVote(id: id, post: post.id, direction: post.myVote?.rawValue ?? "none"))
    }

    func write(_ id: String, _ version: SyncVote?, images: SyncImages) throws -> Bool {
        let voter = voter(id)
        guard var post = try board.find(localEntity(id), voter: voter) else { return false }  // the post is gone: its votes with it
        return try board.setVote(&post, voter: voter, to: version.flatMap { VoteDirection(rawValue: $0.direction) })
    }
}
