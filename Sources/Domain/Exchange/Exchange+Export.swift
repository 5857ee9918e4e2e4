#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Export and import of everything (SPEC §11).
public final class Exchange: Store {
    /// An imported image is checked and stored as `photos.add` does (the same rules, one place).
    let imageStore: ImageStore

    init(_ context: StoreContext, images: ImageStore) {
        self.imageStore = images
        super.init(context)
    }

    static func time(_ milliseconds: Int64) -> String { Timestamp.format(milliseconds: milliseconds) }
    static func time(_ milliseconds: Int64?) -> String? { milliseconds.map { Timestamp.format(milliseconds: $0) } }

    /// The whole database as one document, read in one transaction so it is a consistent snapshot (for
    /// small data and tests: a large database is exported with ``export(progress:_:)`` into a file).
    public func export() throws(DomainError) -> ExchangeDocument {
        var document = ExchangeDocument(
            format: ExchangeDocument.currentFormat, version: ExchangeDocument.currentVersion, images: [], notes: [],
            photos: [], reminders: [], diary: [], messages: [], messageFeeds: [], board: [])
        try export { element in
            switch element {
            case .image(var image, let bytes):
                image.data = Data(bytes).base64EncodedString()
                document.images.append(image)
            case .note(let note): document.notes.append(note)
            case .photo(let photo): document.photos.append(photo)
            case .reminder(let reminder): document.reminders.append(reminder)
            case .diary(let post): document.diary.append(post)
            case .message(let message): document.messages.append(message)
            case .feed(let feed): document.messageFeeds.append(feed)
            case .board(let post): document.board.append(post)
            }
        }
        return document
    }

    private lazy var feedCount = Prepared(database, "SELECT count(*) FROM feed_state")
    private lazy var reminderCount = Prepared(database, "SELECT count(*) FROM reminders WHERE blank = 0")

    /// How many elements each list of an export holds, for its progress (inside its read transaction).
    private func countsLocked() throws -> [ExchangeList: Int] {
        [
            .board: try counts.rows(of: "board_posts"), .diary: try counts.rows(of: "diary_posts"),
            .images: try counts.rows(of: "images"),
            .messageFeeds: Int(try feedCount.integer() ?? 0),
            .messages: try counts.rows(of: "messages"), .notes: try counts.rows(of: "notes"),
            .photos: try counts.rows(of: "photo_notes"),
            .reminders: Int(try reminderCount.integer() ?? 0),
        ]
    }

    /// Streams everything, one element at a time, to `each`: the lists in the document's order
    /// (``ExchangeList/allCases``), each in its own order, all read in one transaction (a consistent
    /// snapshot) row by row, so memory does not grow with the data. `progress` hears (elements so far,
    /// elements in all) as it goes. An error thrown by `each` stops the export and is rethrown.
    public func export(
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }, _ each: (ExchangeElement) throws -> Void
    ) throws(DomainError) {
        try storage {
            try database.readTransaction {
                let total = try countsLocked().values.reduce(0, +)
                var done = 0
                try exportLocked { element in
                    try each(element)
                    done += 1
                    progress(done, total)
                }
            }
        }
    }

    private func all<T>(_ statement: Prepared, _ values: [SQLValue], _ map: (Statement) throws -> T) throws -> [T] {
        var result: [T] = []
        try statement.forEachRow(values) { result.append(try map($0)) }
        return result
    }

    /// Streams every list, in the document's order.
    private func exportLocked(_ each: (ExchangeElement) throws -> Void) throws {
        for list in ExchangeList.allCases {
            switch list {
            case .board: try exportBoard(each)
            case .diary: try exportDiary(each)
            case .images: try exportImages(each)
            case .messageFeeds: try exportFeeds(each)
            case .messages: try exportMessages(each)
            case .notes: try exportNotes(each)
            case .photos: try exportPhotos(each)
            case .reminders: try exportReminders(each)
            }
        }
    }

    private lazy var boardPosts = Prepared(
        database, "SELECT id, title, ups, downs, created_at, updated_at, revision FROM board_posts ORDER BY id")
    private lazy var votesOfPost = Prepared(
        database, "SELECT voter, direction FROM board_votes WHERE post_id = ?1 ORDER BY voter")

    private func exportBoard(_ each: (ExchangeElement) throws -> Void) throws {
        // A post's votes are read with a second statement while the first steps through posts.
        try boardPosts.forEachRow { row in
            let id = row.text(0)
            let votes = try all(votesOfPost, [.text(id)]) {
                ExchangeDocument.Vote(voter: $0.text(0), direction: $0.int64(1) > 0 ? "up" : "down")
            }
            try each(
                .board(
                    ExchangeDocument.BoardPost(
                        id: id, title: row.text(1), ups: row.int64(2), downs: row.int64(3), votes: votes,
                        createdAt: Self.time(row.int64(4)), updatedAt: Self.time(row.int64(5)), revision: row.int64(6))))
        }
    }

    private lazy var diaryPosts = Prepared(
        database, "SELECT id, text, created_at, updated_at, revision FROM diary_posts ORDER BY id")
    private lazy var imagesOfPost = Prepared(
        database, "SELECT image_id FROM diary_post_images WHERE post_id = ?1 ORDER BY slot")

    private func exportDiary(_ each: (ExchangeElement) throws -> Void) throws {
        // A post's images are read with a second statement while the first steps through posts.
        try diaryPosts.forEachRow { row in
            let id = row.text(0)
            let imageIds = try all(imagesOfPost, [.text(id)]) { $0.text(0) }
            try each(
                .diary(
                    ExchangeDocument.Post(
                        id: id, text: row.textOrNil(1), imageIds: imageIds, createdAt: Self.time(row.int64(2)),
                        updatedAt: Self.time(row.int64(3)), revision: row.int64(4))))
        }
    }

    private lazy var images = Prepared(
        database, "SELECT id, mime_type, sha256, width, height, created_at, data FROM images ORDER BY id")

    private func exportImages(_ each: (ExchangeElement) throws -> Void) throws {
        try images.forEachRow { row in
            try each(
                .image(
                    ExchangeDocument.Image(
                        id: row.text(0), mimeType: row.text(1), sha256: row.text(2), width: Int(row.int64(3)),
                        height: Int(row.int64(4)), createdAt: Self.time(row.int64(5)), data: ""),
                    bytes: row.blob(6)))
        }
    }

    private lazy var feeds = Prepared(database, "SELECT feed, consumed FROM feed_state ORDER BY feed")

    private func exportFeeds(_ each: (ExchangeElement) throws -> Void) throws {
        try feeds.forEachRow { row in
            try each(.feed(ExchangeDocument.Feed(feed: row.text(0), consumed: Int(row.int64(1)))))
        }
    }

    private lazy var messages = Prepared(
        database,
        """
        SELECT id, text, sent_at, author_name, author_avatar_url, origin, feed_key
        FROM messages ORDER BY position DESC
        """)

    private func exportMessages(_ each: (ExchangeElement) throws -> Void) throws {
        try messages.forEachRow { row in
            try each(
                .message(
                    ExchangeDocument.Message(
                        id: row.text(0), text: row.text(1), sentAt: Self.time(row.int64(2)), authorName: row.text(3),
                        authorAvatarUrl: row.textOrNil(4), origin: row.text(5), feedKey: row.textOrNil(6))))
        }
    }

    private lazy var notes = Prepared(
        database,
        """
        SELECT id, title, content, hue, saturation, brightness, deadline, created_at, updated_at, revision
        FROM notes ORDER BY position
        """)

    private func exportNotes(_ each: (ExchangeElement) throws -> Void) throws {
        try notes.forEachRow { row in
            try each(
                .note(
                    ExchangeDocument.Note(
                        id: row.text(0), title: row.text(1), content: row.text(2),
                        color: .init(hue: row.double(3), saturation: row.double(4), brightness: row.double(5)),
                        deadline: Self.time(row.int64OrNil(6)), createdAt: Self.time(row.int64(7)),
                        updatedAt: Self.time(row.int64(8)), revision: row.int64(9))))
        }
    }

    private lazy var photos = Prepared(
        database, "SELECT id, image_id, caption, created_at, updated_at, revision FROM photo_notes ORDER BY position")

    private func exportPhotos(_ each: (ExchangeElement) throws -> Void) throws {
        try photos.forEachRow { row in
            try each(
                .photo(
                    ExchangeDocument.Photo(
                        id: row.text(0), imageId: row.text(1), caption: row.textOrNil(2), createdAt: Self.time(row.int64(3)),
                        updatedAt: Self.time(row.int64(4)), revision: row.int64(5))))
        }
    }

    private lazy var reminders = Prepared(
        database,
        """
        SELECT id, title, memo, completed, completed_at, created_at, updated_at, revision
        FROM reminders WHERE blank = 0 ORDER BY position
        """)

    private func exportReminders(_ each: (ExchangeElement) throws -> Void) throws {
        // A blank reminder exists only while someone edits it; it is not data yet.
        try reminders.forEachRow { row in
            try each(
                .reminder(
                    ExchangeDocument.Reminder(
                        id: row.text(0), title: row.text(1), memo: row.textOrNil(2), completed: row.int64(3) != 0,
                        completedAt: Self.time(row.int64OrNil(4)), createdAt: Self.time(row.int64(5)),
                        updatedAt: Self.time(row.int64(6)), revision: row.int64(7))))
        }
    }
}
