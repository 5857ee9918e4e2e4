import Foundation

/// Export and import of everything (SPEC §11).
public final class Exchange {
    let database: Database
    let clock: any Clock
    let changes: ChangeLog

    init(database: Database, clock: any Clock, changes: ChangeLog) {
        self.database = database
        self.clock = clock
        self.changes = changes
    }

    static func time(_ milliseconds: Int64) -> String { Timestamp.format(milliseconds: milliseconds) }
    static func time(_ milliseconds: Int64?) -> String? { milliseconds.map { Timestamp.format(milliseconds: $0) } }

    /// The whole database as one document, read in one transaction so it is a consistent snapshot.
    public func export() throws(DomainError) -> ExchangeDocument {
        try storage { try database.readTransaction { try exportLocked() } }
    }

    private func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> [T] {
        var result: [T] = []
        try database.statement(sql).forEachRow(values) { result.append(try map($0)) }
        return result
    }

    private func exportLocked() throws -> ExchangeDocument {
        let images = try rows("SELECT id, mime_type, sha256, width, height, created_at, data FROM images ORDER BY id") { row in
            ExchangeDocument.Image(
                id: row.text(0), mimeType: row.text(1), sha256: row.text(2), width: Int(row.int64(3)),
                height: Int(row.int64(4)), createdAt: Self.time(row.int64(5)), data: Data(row.blob(6)).base64EncodedString())
        }
        let notes = try rows(
            """
            SELECT id, title, content, hue, saturation, brightness, deadline, created_at, updated_at, revision
            FROM notes ORDER BY position
            """
        ) { row in
            ExchangeDocument.Note(
                id: row.text(0), title: row.text(1), content: row.text(2),
                color: .init(hue: row.double(3), saturation: row.double(4), brightness: row.double(5)),
                deadline: Self.time(row.int64OrNil(6)), createdAt: Self.time(row.int64(7)),
                updatedAt: Self.time(row.int64(8)), revision: row.int64(9))
        }
        let photos = try rows(
            "SELECT id, image_id, caption, created_at, updated_at, revision FROM photo_notes ORDER BY position"
        ) { row in
            ExchangeDocument.Photo(
                id: row.text(0), imageId: row.text(1), caption: row.textOrNil(2), createdAt: Self.time(row.int64(3)),
                updatedAt: Self.time(row.int64(4)), revision: row.int64(5))
        }
        // A blank reminder exists only while someone edits it; it is not data yet.
        let reminders = try rows(
            """
            SELECT id, title, memo, completed, completed_at, created_at, updated_at, revision
            FROM reminders WHERE blank = 0 ORDER BY position
            """
        ) { row in
            ExchangeDocument.Reminder(
                id: row.text(0), title: row.text(1), memo: row.textOrNil(2), completed: row.int64(3) != 0,
                completedAt: Self.time(row.int64OrNil(4)), createdAt: Self.time(row.int64(5)),
                updatedAt: Self.time(row.int64(6)), revision: row.int64(7))
        }
        let posts = try rows("SELECT id, text, created_at, updated_at, revision FROM diary_posts ORDER BY id") { row in
            ExchangeDocument.Post(
                id: row.text(0), text: row.textOrNil(1), imageIds: [], createdAt: Self.time(row.int64(2)),
                updatedAt: Self.time(row.int64(3)), revision: row.int64(4))
        }.map { post in
            var post = post
            post.imageIds = try rows(
                "SELECT image_id FROM diary_post_images WHERE post_id = ?1 ORDER BY slot", [.text(post.id)]) { $0.text(0) }
            return post
        }
        let messages = try rows(
            """
            SELECT id, text, sent_at, author_name, author_avatar_url, origin, feed_key
            FROM messages ORDER BY position DESC
            """
        ) { row in
            ExchangeDocument.Message(
                id: row.text(0), text: row.text(1), sentAt: Self.time(row.int64(2)), authorName: row.text(3),
                authorAvatarUrl: row.textOrNil(4), origin: row.text(5), feedKey: row.textOrNil(6))
        }
        let feeds = try rows("SELECT feed, consumed FROM feed_state ORDER BY feed") { row in
            ExchangeDocument.Feed(feed: row.text(0), consumed: Int(row.int64(1)))
        }
        let board = try rows("SELECT id, title, ups, downs, created_at, updated_at, revision FROM board_posts ORDER BY id") {
            row in
            ExchangeDocument.BoardPost(
                id: row.text(0), title: row.text(1), ups: row.int64(2), downs: row.int64(3), votes: [],
                createdAt: Self.time(row.int64(4)), updatedAt: Self.time(row.int64(5)), revision: row.int64(6))
        }.map { post in
            var post = post
            post.votes = try rows(
                "SELECT voter, direction FROM board_votes WHERE post_id = ?1 ORDER BY voter", [.text(post.id)]
            ) { ExchangeDocument.Vote(voter: $0.text(0), direction: $0.int64(1) > 0 ? "up" : "down") }
            return post
        }
        return ExchangeDocument(
            format: ExchangeDocument.currentFormat, version: ExchangeDocument.currentVersion, images: images,
            notes: notes, photos: photos, reminders: reminders, diary: posts, messages: messages, messageFeeds: feeds,
            board: board)
    }
}
