#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One import's work, inside its transaction: each list's new elements added, and what was added so far.
/// Made per import, once the import's TEMP table is there; its statements are prepared the first time
/// they run and live as long as the import.
final class Importer {
    private let database: Database
    private let changes: ChangeLog
    private let now: Int64
    private let images: ImageStore
    /// How many entities each domain gained, by the domain's name.
    private(set) var counts: [String: Int] = [:]
    /// The id of the stored image each of the document's images stands for: its own, or that of an image
    /// already stored with the same content.
    private var imageIDs: [String: String] = [:]

    init(database: Database, changes: ChangeLog, images: ImageStore, now: Int64) {
        self.database = database
        self.changes = changes
        self.images = images
        self.now = now
    }

    /// Calls its argument with each element of a list (and its index), in the document's order.
    typealias Elements<Element> = ((Int, Element) throws -> Void) throws -> Void

    /// `SELECT 1 FROM <table> WHERE id = ?1`, by table, each made the first time its table is asked about.
    private var idLookups: [String: Prepared] = [:]

    /// Whether `table` holds a row with `id`.
    private func exists(_ id: String, in table: String) throws -> Bool {
        let lookup = idLookups[table] ?? Prepared(database, "SELECT 1 FROM \(table) WHERE id = ?1")
        idLookups[table] = lookup
        return try lookup.integer([.text(id)]) != nil
    }

    private lazy var markSeen = Prepared(database, "INSERT OR IGNORE INTO temp.import_seen(list, key) VALUES (?1, ?2)")

    /// Whether `key` is new in `list` within this document; a repeated id is `invalidDocument`.
    private func unique(_ list: String, _ key: String, _ field: String) throws {
        try markSeen.run([.text(list), .text(key)])
        guard database.changes == 1 else {
            throw DomainError.validation(reason: .invalidDocument, field: "document.\(field)")
        }
    }

    /// Records that `id` was created in `domain`, and counts it.
    private func created(_ domain: ChangeDomain, _ id: String) throws {
        try changes.record(domain, .created, id: id, at: now)
        counts[domain.rawValue, default: 0] += 1
    }

    /// A position after every row `last` (the table's `max(position)`) sees.
    private func nextPosition(_ last: Prepared) throws -> Int64 {
        (try last.integer() ?? 0) + OrderedList.gap
    }

    private lazy var imageWithSHA256 = Prepared(database, "SELECT id FROM images WHERE sha256 = ?1")
    private lazy var insertImage = Prepared(
        database,
        """
        INSERT INTO images(id, sha256, mime_type, byte_size, width, height, data, owners, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8)
        """)

    /// Adds the document's images; the same content already stored under another id is used instead.
    func images(_ each: Elements<ExchangeDocument.Image>) throws {
        try each { index, element in
            let image = try ImportCheck.image(element, at: index, maximumBytes: images.maximumBytes)
            try unique("images", image.id, "images[\(index)].id")
            if try exists(image.id, in: "images") {
                imageIDs[image.id] = image.id
            } else if let same = try imageWithSHA256.text([.text(image.sha256)]) {
                imageIDs[image.id] = same
            } else {
                try insertImage.run(
                    [
                        .text(image.id), .text(image.sha256), .text(image.format.mimeType), .integer(Int64(image.bytes.count)),
                        .integer(Int64(image.width)), .integer(Int64(image.height)), .blob(image.bytes), .integer(image.createdAt),
                    ])
                try images.keep(image.renditions, of: image.id)
                imageIDs[image.id] = image.id
                try created(.images, image.id)
            }
        }
    }

    private lazy var lastNotePosition = Prepared(database, "SELECT max(position) FROM notes")
    /// A note row as it is, with its own id, times and revision (an import's, or one another device made).
    static let insertNoteSQL = """
        INSERT INTO notes(id, title, content, hue, saturation, brightness, deadline, position, created_at,
                          updated_at, revision)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
        """
    private lazy var insertNote = Prepared(database, Self.insertNoteSQL)

    func notes(_ each: Elements<ExchangeDocument.Note>) throws {
        var position = try nextPosition(lastNotePosition)
        try each { index, note in
            try ImportCheck.note(note, at: index)
            try unique("notes", note.id, "notes[\(index)].id")
            guard !(try exists(note.id, in: "notes")) else { return }
            try insertNote.run(
                [
                    .text(note.id), .text(note.title), .text(note.content), .real(note.color.hue),
                    .real(note.color.saturation), .real(note.color.brightness),
                    ImportCheck.time(note.deadline).map { .integer($0) } ?? .null, .integer(position),
                    .integer(ImportCheck.time(note.createdAt)!), .integer(ImportCheck.time(note.updatedAt)!),
                    .integer(note.revision),
                ])
            position += OrderedList.gap
            try created(.notes, note.id)
        }
    }

    private lazy var lastPhotoPosition = Prepared(database, "SELECT max(position) FROM photo_notes")
    private lazy var insertPhoto = Prepared(
        database,
        """
        INSERT INTO photo_notes(id, image_id, caption, position, created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        """)

    func photos(_ each: Elements<ExchangeDocument.Photo>) throws {
        var position = try nextPosition(lastPhotoPosition)
        try each { index, photo in
            try ImportCheck.photo(photo, at: index, imageKnown: imageIDs[photo.imageId] != nil)
            try unique("photos", photo.id, "photos[\(index)].id")
            guard !(try exists(photo.id, in: "photo_notes")) else { return }
            try insertPhoto.run(
                [
                    .text(photo.id), .text(imageIDs[photo.imageId]!), photo.caption.map { .text($0) } ?? .null,
                    .integer(position), .integer(ImportCheck.time(photo.createdAt)!),
                    .integer(ImportCheck.time(photo.updatedAt)!), .integer(photo.revision),
                ])
            position += OrderedList.gap
            try created(.photos, photo.id)
        }
    }

    private lazy var lastReminderPosition = Prepared(database, "SELECT max(position) FROM reminders")
    private lazy var insertReminder = Prepared(
        database,
        """
        INSERT INTO reminders(id, title, blank, memo, completed, completed_at, position, editing_session,
                              created_at, updated_at, revision)
        VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9)
        """)

    func reminders(_ each: Elements<ExchangeDocument.Reminder>) throws {
        var position = try nextPosition(lastReminderPosition)
        try each { index, reminder in
            try ImportCheck.reminder(reminder, at: index)
            try unique("reminders", reminder.id, "reminders[\(index)].id")
            guard !(try exists(reminder.id, in: "reminders")) else { return }
            try insertReminder.run(
                [
                    .text(reminder.id), .text(reminder.title), reminder.memo.map { .text($0) } ?? .null,
                    .integer(reminder.completed ? 1 : 0), ImportCheck.time(reminder.completedAt).map { .integer($0) } ?? .null,
                    .integer(position), .integer(ImportCheck.time(reminder.createdAt)!),
                    .integer(ImportCheck.time(reminder.updatedAt)!), .integer(reminder.revision),
                ])
            position += OrderedList.gap
            try created(.reminders, reminder.id)
        }
    }

    private lazy var insertPost = Prepared(
        database, "INSERT INTO diary_posts(id, text, created_at, updated_at, revision) VALUES (?1, ?2, ?3, ?4, ?5)")
    private lazy var insertPostImage = Prepared(
        database, "INSERT INTO diary_post_images(post_id, slot, image_id) VALUES (?1, ?2, ?3)")

    func diary(_ each: Elements<ExchangeDocument.Post>) throws {
        try each { index, post in
            try ImportCheck.post(post, at: index) { imageIDs[$0] != nil }
            try unique("diary", post.id, "diary[\(index)].id")
            guard !(try exists(post.id, in: "diary_posts")) else { return }
            try insertPost.run(
                [
                    .text(post.id), post.text.map { .text($0) } ?? .null, .integer(ImportCheck.time(post.createdAt)!),
                    .integer(ImportCheck.time(post.updatedAt)!), .integer(post.revision),
                ])
            for (slot, imageID) in post.imageIds.enumerated() {
                try insertPostImage.run([.text(post.id), .integer(Int64(slot)), .text(imageIDs[imageID]!)])
            }
            try created(.diary, post.id)
        }
    }

    private lazy var firstMessagePosition = Prepared(database, "SELECT min(position) FROM messages")
    private lazy var messageWithFeedKey = Prepared(database, "SELECT 1 FROM messages WHERE feed_key = ?1")
    private lazy var insertMessage = Prepared(
        database,
        """
        INSERT INTO messages(id, text, sent_at, author_name, author_avatar_url, origin, feed_key, position)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """)

    /// Messages are newest first in the document; imported ones go below (older than) what is there, each
    /// next one below the one before.
    func messages(_ each: Elements<ExchangeDocument.Message>) throws {
        var lowest = (try firstMessagePosition.integer() ?? 1) - 1
        try each { index, message in
            try ImportCheck.message(message, at: index)
            try unique("messages", message.id, "messages[\(index)].id")
            if let key = message.feedKey { try unique("feedKeys", key, "messages[\(index)].feedKey") }
            let duplicateFeedKey = try message.feedKey.map {
                try messageWithFeedKey.integer([.text($0)]) != nil
            } ?? false
            guard !(try exists(message.id, in: "messages")), !duplicateFeedKey else { return }
            try insertMessage.run(
                [
                    .text(message.id), .text(message.text), .integer(ImportCheck.time(message.sentAt)!),
                    .text(message.authorName), Author.acceptedAvatarURL(message.authorAvatarUrl).map { .text($0) } ?? .null,
                    .text(message.origin), message.feedKey.map { .text($0) } ?? .null, .integer(lowest),
                ])
            lowest -= 1
            try created(.messages, message.id)
        }
    }

    private lazy var mergeFeed = Prepared(
        database,
        """
        INSERT INTO feed_state(feed, consumed) VALUES (?1, ?2)
        ON CONFLICT(feed) DO UPDATE SET consumed = max(consumed, excluded.consumed)
        """)

    func feeds(_ each: Elements<ExchangeDocument.Feed>) throws {
        try each { index, feed in
            try ImportCheck.feed(feed, at: index)
            try mergeFeed.run([.text(feed.feed), .integer(Int64(feed.consumed))])
        }
    }

    private lazy var insertBoardPost = Prepared(
        database,
        """
        INSERT INTO board_posts(id, title, title_key, ups, downs, hot, best, created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        """)
    private lazy var insertVote = Prepared(
        database, "INSERT INTO board_votes(post_id, voter, direction) VALUES (?1, ?2, ?3)")

    func board(_ each: Elements<ExchangeDocument.BoardPost>) throws {
        try each { index, post in
            try ImportCheck.board(post, at: index)
            try unique("board", post.id, "board[\(index)].id")
            guard !(try exists(post.id, in: "board_posts")) else { return }
            let createdAt = ImportCheck.time(post.createdAt)!
            try insertBoardPost.run(
                [
                    .text(post.id), .text(post.title), .text(post.title.lowercased()), .integer(post.ups),
                    .integer(post.downs), .real(BoardRanking.hot(votes: post.ups - post.downs, createdAt: createdAt)),
                    .real(BoardRanking.best(ups: post.ups, downs: post.downs)), .integer(createdAt),
                    .integer(ImportCheck.time(post.updatedAt)!), .integer(post.revision),
                ])
            for vote in post.votes {
                try insertVote.run([.text(post.id), .text(vote.voter), .integer(vote.direction == "up" ? 1 : -1)])
            }
            try created(.board, post.id)
        }
    }

    private lazy var countOwners = Prepared(
        database,
        """
        UPDATE images SET owners = (SELECT count(*) FROM photo_notes WHERE image_id = images.id)
                                 + (SELECT count(*) FROM diary_post_images WHERE image_id = images.id)
        """)
    private lazy var orphans = Prepared(database, "SELECT id FROM images WHERE owners = 0")
    private lazy var deleteImage = Prepared(database, "DELETE FROM images WHERE id = ?1")

    /// Owner counts follow the references; an image nothing refers to is not kept.
    func removeOrphans() throws {
        try countOwners.run()
        var ids: [String] = []
        try orphans.forEachRow { ids.append($0.text(0)) }
        for id in ids {
            try deleteImage.run([.text(id)])
            try changes.record(.images, .deleted, id: id, at: now)
        }
    }
}
