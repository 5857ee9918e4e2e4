/// The chat message list (SPEC §9): what is stored locally, newest first, plus older batches loaded from
/// the upstream feed as the user scrolls up.
public final class MessageStore: Store {
    private let feed: any MessageFeed
    /// Who `send` writes as.
    public let localAuthor: Author
    /// Who feed messages without an author are shown as.
    public static let unknownAuthor = "Remote"

    init(_ context: StoreContext, feed: any MessageFeed, localAuthor: Author) {
        self.feed = feed
        self.localAuthor = localAuthor
        super.init(context)
    }

    private static let columns = "id, text, sent_at, author_name, author_avatar_url, origin, position"

    private static func message(_ row: Statement) throws -> Message {
        Message(
            id: row.text(0), text: row.text(1), sentAt: row.int64(2),
            author: Author(name: row.text(3), avatarURL: row.textOrNil(4)),
            origin: try stored(Message.Origin.self, row.text(5)))
    }

    private lazy var selectPage = Prepared(
        database, "SELECT \(Self.columns) FROM messages WHERE position < ?1 ORDER BY position DESC LIMIT ?2")

    /// A page of stored messages, newest first (index 0 is the bottom of the chat).
    public func list(_ request: PageRequest) throws(DomainError) -> Page<Message> {
        let after = try request.cursor.map { cursor throws(DomainError) in try KeysetCursor.read(cursor) }
        return try storage {
            try Page(
                keyset: selectPage, [.integer(after?.key ?? Int64.max), .integer(Int64(request.limit + 1))],
                limit: request.limit, id: \.id
            ) {
                let message = try Self.message($0)
                return (message, $0.int64(6), message.text.utf8.count + message.author.name.utf8.count)
            }
        }
    }

    private lazy var selectByID = Prepared(database, "SELECT \(Self.columns) FROM messages WHERE id = ?1")

    public func get(id: String) throws(DomainError) -> Message {
        guard let message = try storage({ try selectByID.first([.text(id)], Self.message) })
        else { throw .notFound(kind: "message", id: id) }
        return message
    }

    private lazy var selectNewestPosition = Prepared(database, "SELECT max(position) FROM messages")

    /// Stores `text` as the newest message, written by the local user.
    public func send(text: String) throws(DomainError) -> Message {
        try Message.check(text: text)
        return try storage {
            try group.transaction {
                let now = clock.nowMilliseconds()
                let position = (try selectNewestPosition.integer() ?? 0) + 1
                let message = Message(id: ids.makeID(kind: "msg"), text: text, sentAt: now, author: localAuthor, origin: .local)
                try insert(message, position: position, feedKey: nil)
                return message
            }
        }
    }

    private lazy var rememberDeletedFeedKey = Prepared(
        database,
        """
        INSERT OR IGNORE INTO deleted_feed_keys(feed_key)
        SELECT feed_key FROM messages WHERE id = ?1 AND feed_key IS NOT NULL
        """)
    private lazy var deleteMessage = Prepared(database, "DELETE FROM messages WHERE id = ?1")

    public func delete(id: String) throws(DomainError) {
        try storage {
            try group.transaction {
                // A message that came from the feed is remembered as deleted, so a later load never brings it back.
                try rememberDeletedFeedKey.run([.text(id)])
                try deleteMessage.run([.text(id)])
                guard database.changes == 1 else { throw DomainError.notFound(kind: "message", id: id) }
                try changes.record(.messages, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    private lazy var selectOldestPosition = Prepared(database, "SELECT min(position) FROM messages")
    private lazy var hasFeedKey = Prepared(database, "SELECT 1 FROM messages WHERE feed_key = ?1")
    private lazy var isDeletedFeedKey = Prepared(database, "SELECT 1 FROM deleted_feed_keys WHERE feed_key = ?1")
    private lazy var updateConsumed = Prepared(
        database,
        """
        INSERT INTO feed_state(feed, consumed) VALUES (?1, ?2)
        ON CONFLICT(feed) DO UPDATE SET consumed = max(consumed, excluded.consumed)
        """)

    /// The user scrolled to the top: the next older batch from the feed, stored in one transaction.
    /// Returns the messages newly stored, in feed order; `endOfHistory` when the feed had nothing new.
    /// A failing or malformed feed stores nothing. (``startLoad(limit:)``, ``FeedLoad/fetch(_:)`` and
    /// ``finishLoad(_:_:)`` in one go: the server runs the fetch on a thread of its own.)
    public func loadMore(limit: Int) throws(DomainError) -> (items: [Message], endOfHistory: Bool) {
        let load = try startLoad(limit: limit)
        return try finishLoad(load, try load.fetch())
    }

    /// What a load from the feed needs from the database, read before it goes to the network.
    public func startLoad(limit: Int) throws(DomainError) -> FeedLoad {
        FeedLoad(feed: feed, offset: try storage { try consumed() }, limit: limit)
    }

    /// Stores the batch `load` fetched (the database is not touched between start and finish).
    public func finishLoad(_ load: FeedLoad, _ batch: [FeedMessage]) throws(DomainError) -> (
        items: [Message], endOfHistory: Bool
    ) {
        let (feed, offset) = (load.feed, load.offset)
        let stored: [Message] = try storage {
            try group.transaction {
                var position = (try selectOldestPosition.integer() ?? 1) - 1
                var stored: [Message] = []
                let now = clock.nowMilliseconds()
                for (index, entry) in batch.enumerated() {
                    // A message is the same one when the feed says so by id, or else by its place in the feed.
                    let key = "\(feed.identity)#" + (entry.id.map { "id:\($0)" } ?? "offset:\(offset + index)")
                    if try hasFeedKey.integer([.text(key)]) != nil { continue }
                    if try isDeletedFeedKey.integer([.text(key)]) != nil { continue }
                    let message = Message(
                        id: ids.makeID(kind: "msg"), text: entry.text, sentAt: entry.sentAt ?? now,
                        author: entry.author ?? Author(name: Self.unknownAuthor, avatarURL: nil), origin: .remote)
                    try insert(message, position: position, feedKey: key)
                    position -= 1
                    stored.append(message)
                }
                try updateConsumed.run([.text(feed.identity), .integer(Int64(offset + batch.count))])
                return stored
            }
        }
        return (stored, stored.isEmpty)
    }

    private lazy var selectConsumed = Prepared(database, "SELECT consumed FROM feed_state WHERE feed = ?1")

    /// How many feed messages this database has taken from the configured feed.
    private func consumed() throws -> Int {
        Int(try selectConsumed.integer([.text(feed.identity)]) ?? 0)
    }

    private lazy var insertMessage = Prepared(
        database,
        """
        INSERT INTO messages(id, text, sent_at, author_name, author_avatar_url, origin, feed_key, position)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """)

    private func insert(_ message: Message, position: Int64, feedKey: String?) throws {
        try insertMessage.run(
            [
                .text(message.id), .text(message.text), .integer(message.sentAt), .text(message.author.name),
                message.author.avatarURL.map { .text($0) } ?? .null, .text(message.origin.rawValue),
                feedKey.map { .text($0) } ?? .null, .integer(position),
            ])
        try changes.record(.messages, .created, id: message.id, at: clock.nowMilliseconds())
    }

    public func count() throws(DomainError) -> Int {
        try storage { try counts.rows(of: "messages") }
    }
}

/// A load from the feed between reading where it starts and storing what came: the network part, safe to
/// run on any thread (it touches no database).
public struct FeedLoad: Sendable {
    let feed: any MessageFeed
    public let offset: Int
    public let limit: Int

    /// The batch: at most `limit` messages, whatever the feed answered (a feed that answers 5,000 to
    /// `limit: 20` gives 20, and the next load asks from there).
    public func fetch(_ cancellation: Cancellation = Cancellation()) throws(DomainError) -> [FeedMessage] {
        Array(try feed.fetch(offset: offset, limit: limit, cancellation: cancellation).prefix(limit))
    }
}
