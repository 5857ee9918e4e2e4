/// The chat message list (SPEC §9): what is stored locally, newest first, plus older batches loaded from
/// the upstream feed as the user scrolls up.
public final class MessageStore {
    private let database: Database
    private let clock: any Clock
    private let ids: any IDGenerator
    private let changes: ChangeLog
    private let feed: any MessageFeed
    /// Who `send` writes as.
    public let localAuthor: Author
    /// Who feed messages without an author are shown as.
    public static let unknownAuthor = "Remote"

    init(
        database: Database, clock: any Clock, ids: any IDGenerator, changes: ChangeLog, feed: any MessageFeed,
        localAuthor: Author
    ) {
        self.database = database
        self.clock = clock
        self.ids = ids
        self.changes = changes
        self.feed = feed
        self.localAuthor = localAuthor
    }

    private static let columns = "id, text, sent_at, author_name, author_avatar_url, origin, position"
    private static let selectByID = "SELECT \(columns) FROM messages WHERE id = ?1"
    private static let selectPage = "SELECT \(columns) FROM messages WHERE position < ?1 ORDER BY position DESC LIMIT ?2"

    private static func message(_ row: Statement) throws -> Message {
        Message(
            id: row.text(0), text: row.text(1), sentAt: row.int64(2),
            author: Author(name: row.text(3), avatarURL: row.textOrNil(4)),
            origin: try stored(Message.Origin.self, row.text(5)))
    }

    /// A page of stored messages, newest first (index 0 is the bottom of the chat).
    public func list(_ request: PageRequest) throws(DomainError) -> Page<Message> {
        let after = try request.cursor.map { cursor throws(DomainError) in try KeysetCursor.read(cursor) }
        return try storage {
            var rows: [(item: Message, key: Int64)] = []
            try database.statement(Self.selectPage).forEachRow([
                .integer(after?.key ?? Int64.max), .integer(Int64(request.limit + 1)),
            ]) { rows.append((try Self.message($0), $0.int64(6))) }
            return Page(keyset: rows, limit: request.limit, id: \.id)
        }
    }

    public func get(id: String) throws(DomainError) -> Message {
        guard let message = try storage({ try database.statement(Self.selectByID).first([.text(id)], Self.message) })
        else { throw .notFound(kind: "message", id: id) }
        return message
    }

    /// Stores `text` as the newest message, written by the local user.
    public func send(text: String) throws(DomainError) -> Message {
        try Message.check(text: text)
        return try storage {
            try database.transaction {
                let now = clock.nowMilliseconds()
                let position = (try database.scalarInteger("SELECT max(position) FROM messages") ?? 0) + 1
                let message = Message(id: ids.makeID(kind: "msg"), text: text, sentAt: now, author: localAuthor, origin: .local)
                try insert(message, position: position, feedKey: nil)
                return message
            }
        }
    }

    public func delete(id: String) throws(DomainError) {
        try storage {
            try database.transaction {
                // A message that came from the feed is remembered as deleted, so a later load never brings it back.
                try database.run(
                    "INSERT OR IGNORE INTO deleted_feed_keys(feed_key) SELECT feed_key FROM messages WHERE id = ?1 AND feed_key IS NOT NULL",
                    [.text(id)])
                try database.run("DELETE FROM messages WHERE id = ?1", [.text(id)])
                guard database.changes == 1 else { throw DomainError.notFound(kind: "message", id: id) }
                try changes.record(.messages, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    /// The user scrolled to the top: the next older batch from the feed, stored in one transaction.
    /// Returns the messages newly stored, in feed order; `endOfHistory` when the feed had nothing new.
    /// A failing or malformed feed stores nothing.
    public func loadMore(limit: Int) throws(DomainError) -> (items: [Message], endOfHistory: Bool) {
        let offset = try storage { try consumed() }
        let batch = try feed.fetch(offset: offset, limit: limit)
        let stored: [Message] = try storage {
            try database.transaction {
                var position = (try database.scalarInteger("SELECT min(position) FROM messages") ?? 1) - 1
                var stored: [Message] = []
                let now = clock.nowMilliseconds()
                for (index, entry) in batch.enumerated() {
                    // A message is the same one when the feed says so by id, or else by its place in the feed.
                    let key = "\(feed.identity)#" + (entry.id.map { "id:\($0)" } ?? "offset:\(offset + index)")
                    if try database.scalarInteger("SELECT 1 FROM messages WHERE feed_key = ?1", [.text(key)]) != nil {
                        continue
                    }
                    if try database.scalarInteger("SELECT 1 FROM deleted_feed_keys WHERE feed_key = ?1", [.text(key)]) != nil {
                        continue
                    }
                    let message = Message(
                        id: ids.makeID(kind: "msg"), text: entry.text, sentAt: entry.sentAt ?? now,
                        author: entry.author ?? Author(name: Self.unknownAuthor, avatarURL: nil), origin: .remote)
                    try insert(message, position: position, feedKey: key)
                    position -= 1
                    stored.append(message)
                }
                try database.run(
                    """
                    INSERT INTO feed_state(feed, consumed) VALUES (?1, ?2)
                    ON CONFLICT(feed) DO UPDATE SET consumed = max(consumed, excluded.consumed)
                    """, [.text(feed.identity), .integer(Int64(offset + batch.count))])
                return stored
            }
        }
        return (stored, stored.isEmpty)
    }

    /// How many feed messages this database has taken from the configured feed.
    private func consumed() throws -> Int {
        Int(try database.scalarInteger("SELECT consumed FROM feed_state WHERE feed = ?1", [.text(feed.identity)]) ?? 0)
    }

    private func insert(_ message: Message, position: Int64, feedKey: String?) throws {
        try database.run(
            """
            INSERT INTO messages(id, text, sent_at, author_name, author_avatar_url, origin, feed_key, position)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [
                .text(message.id), .text(message.text), .integer(message.sentAt), .text(message.author.name),
                message.author.avatarURL.map { .text($0) } ?? .null, .text(message.origin.rawValue),
                feedKey.map { .text($0) } ?? .null, .integer(position),
            ])
        try changes.record(.messages, .created, id: message.id, at: clock.nowMilliseconds())
    }

    public func count() throws(DomainError) -> Int {
        try storage { try RowCounts(database: database).rows(of: "messages") }
    }
}
