import Foundation

/// How many entities an import added.
public struct ImportSummary: Sendable, Equatable {
    public var counts: [String: Int]
}

/// Where an import's elements come from: a document sent in a message, or a file read in pieces.
protocol ExchangeSource {
    /// How many elements each list holds.
    var counts: [ExchangeList: Int] { get }
    /// Calls `body` with each element of `list` in the document's order.
    func forEach<T: Decodable>(_ list: ExchangeList, as type: T.Type, _ body: (Int, T) throws -> Void) throws
}

extension ExchangeDocument: ExchangeSource {
    var counts: [ExchangeList: Int] {
        [
            .board: board.count, .diary: diary.count, .images: images.count, .messageFeeds: messageFeeds.count,
            .messages: messages.count, .notes: notes.count, .photos: photos.count, .reminders: reminders.count,
        ]
    }

    func forEach<T: Decodable>(_ list: ExchangeList, as type: T.Type, _ body: (Int, T) throws -> Void) throws {
        func each<E>(_ elements: [E]) throws {
            for (index, element) in elements.enumerated() { try body(index, element as! T) }
        }
        switch list {
        case .board: try each(board)
        case .diary: try each(diary)
        case .images: try each(images)
        case .messageFeeds: try each(messageFeeds)
        case .messages: try each(messages)
        case .notes: try each(notes)
        case .photos: try each(photos)
        case .reminders: try each(reminders)
        }
    }
}

extension ExchangeFileReader: ExchangeSource {
    var counts: [ExchangeList: Int] { lists.mapValues(\.count) }
}

extension Exchange {
    /// Imports `document`: checked against every rule as it is applied, in one transaction, so any problem
    /// (`invalidDocument` or `unsupportedVersion` naming the field, or the rule's own reason) changes
    /// nothing.
    public func importDocument(
        _ document: ExchangeDocument, mode: ImportMode, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(DomainError) -> ImportSummary {
        try ImportCheck.header(format: document.format, version: document.version)
        return try importing(from: document, mode: mode, progress: progress)
    }

    /// Imports the document in the file at `path` (absolute; a regular file), read in pieces: one pass
    /// finds its parts and checks its format and version, the next applies it element by element in one
    /// transaction. Memory holds one element at a time, whatever the file's size.
    public func importFile(
        path: String, mode: ImportMode, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(DomainError) -> ImportSummary {
        let reader = try ExchangeFileReader(path: path)
        try storage { try reader.locate() }
        return try importing(from: reader, mode: mode, progress: progress)
    }

    private func importing(
        from source: some ExchangeSource, mode: ImportMode, progress: (Int, Int) -> Void
    ) throws(DomainError) -> ImportSummary {
        try storage {
            // What earlier requests deferred is written first, so no savepoint of the import needs it again
            // and the import's own change events can be forgotten once written (see `compact`).
            try database.writeDeferredRows(before: nil)
            return try database.transaction {
                try database.execute(
                    """
                    CREATE TEMP TABLE IF NOT EXISTS import_seen(list TEXT NOT NULL, key TEXT NOT NULL,
                                                                PRIMARY KEY(list, key)) WITHOUT ROWID;
                    DELETE FROM temp.import_seen;
                    """)
                defer { try? database.execute("DELETE FROM temp.import_seen") }
                return try apply(source, mode: mode, progress: progress)
            }
        }
    }

    private func apply(_ source: some ExchangeSource, mode: ImportMode, progress: (Int, Int) -> Void) throws -> ImportSummary {
        let now = clock.nowMilliseconds()
        if mode == .replace { try removeEverything(at: now) }
        var counts: [String: Int] = [:]
        let total = source.counts.values.reduce(0, +)
        var done = 0
        func step() throws {
            done += 1
            progress(done, total)
            // The change events recorded so far go to their table now and then, not all at the commit: a
            // million of them would otherwise wait in memory.
            if done % 1024 == 0 { try database.writeDeferredRows(before: nil) }
        }
        /// Calls `body` with each element of `list`, counting it done once applied.
        func each<T: Decodable>(_ list: ExchangeList, _ type: T.Type, _ body: (Int, T) throws -> Void) throws {
            try source.forEach(list, as: type) { index, element in
                try body(index, element)
                try step()
            }
        }
        func exists(_ table: String, _ id: String) throws -> Bool {
            try database.scalarInteger("SELECT 1 FROM \(table) WHERE id = ?1", [.text(id)]) != nil
        }
        /// Whether `key` is new in `list` within this document; a repeated id is `invalidDocument`.
        func unique(_ list: String, _ key: String, _ field: String) throws {
            try database.run("INSERT OR IGNORE INTO temp.import_seen(list, key) VALUES (?1, ?2)", [.text(list), .text(key)])
            guard database.changes == 1 else {
                throw DomainError.validation(reason: .invalidDocument, field: "document.\(field)")
            }
        }
        func nextPosition(_ table: String) throws -> Int64 {
            (try database.scalarInteger("SELECT max(position) FROM \(table)") ?? 0) + OrderedList.gap
        }

        // Images first; the same content already stored under another id is used instead.
        var imageIDs: [String: String] = [:]
        try each(.images, ExchangeDocument.Image.self) { index, element in
            let image = try ImportCheck.image(element, at: index)
            try unique("images", image.id, "images[\(index)].id")
            if try exists("images", image.id) {
                imageIDs[image.id] = image.id
            } else if let same = try database.scalarText("SELECT id FROM images WHERE sha256 = ?1", [.text(image.sha256)]) {
                imageIDs[image.id] = same
            } else {
                try database.run(
                    """
                    INSERT INTO images(id, sha256, mime_type, byte_size, width, height, data, owners, created_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8)
                    """,
                    [
                        .text(image.id), .text(image.sha256), .text(image.format.mimeType), .integer(Int64(image.bytes.count)),
                        .integer(Int64(image.width)), .integer(Int64(image.height)), .blob(image.bytes), .integer(image.createdAt),
                    ])
                imageIDs[image.id] = image.id
                try changes.record(.images, .created, id: image.id, at: now)
                counts["images", default: 0] += 1
            }
        }

        var position = try nextPosition("notes")
        try each(.notes, ExchangeDocument.Note.self) { index, note in
            try ImportCheck.note(note, at: index)
            try unique("notes", note.id, "notes[\(index)].id")
            guard !(try exists("notes", note.id)) else { return }
            try database.run(
                """
                INSERT INTO notes(id, title, content, hue, saturation, brightness, deadline, position, created_at,
                                  updated_at, revision)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                """,
                [
                    .text(note.id), .text(note.title), .text(note.content), .real(note.color.hue),
                    .real(note.color.saturation), .real(note.color.brightness),
                    ImportCheck.time(note.deadline).map { .integer($0) } ?? .null, .integer(position),
                    .integer(ImportCheck.time(note.createdAt)!), .integer(ImportCheck.time(note.updatedAt)!),
                    .integer(note.revision),
                ])
            position += OrderedList.gap
            try changes.record(.notes, .created, id: note.id, at: now)
            counts["notes", default: 0] += 1
        }

        position = try nextPosition("photo_notes")
        try each(.photos, ExchangeDocument.Photo.self) { index, photo in
            try ImportCheck.photo(photo, at: index, imageKnown: imageIDs[photo.imageId] != nil)
            try unique("photos", photo.id, "photos[\(index)].id")
            guard !(try exists("photo_notes", photo.id)) else { return }
            try database.run(
                """
                INSERT INTO photo_notes(id, image_id, caption, position, created_at, updated_at, revision)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """,
                [
                    .text(photo.id), .text(imageIDs[photo.imageId]!), photo.caption.map { .text($0) } ?? .null,
                    .integer(position), .integer(ImportCheck.time(photo.createdAt)!),
                    .integer(ImportCheck.time(photo.updatedAt)!), .integer(photo.revision),
                ])
            position += OrderedList.gap
            try changes.record(.photos, .created, id: photo.id, at: now)
            counts["photos", default: 0] += 1
        }

        position = try nextPosition("reminders")
        try each(.reminders, ExchangeDocument.Reminder.self) { index, reminder in
            try ImportCheck.reminder(reminder, at: index)
            try unique("reminders", reminder.id, "reminders[\(index)].id")
            guard !(try exists("reminders", reminder.id)) else { return }
            try database.run(
                """
                INSERT INTO reminders(id, title, blank, memo, completed, completed_at, position, editing_session,
                                      created_at, updated_at, revision)
                VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9)
                """,
                [
                    .text(reminder.id), .text(reminder.title), reminder.memo.map { .text($0) } ?? .null,
                    .integer(reminder.completed ? 1 : 0), ImportCheck.time(reminder.completedAt).map { .integer($0) } ?? .null,
                    .integer(position), .integer(ImportCheck.time(reminder.createdAt)!),
                    .integer(ImportCheck.time(reminder.updatedAt)!), .integer(reminder.revision),
                ])
            position += OrderedList.gap
            try changes.record(.reminders, .created, id: reminder.id, at: now)
            counts["reminders", default: 0] += 1
        }

        try each(.diary, ExchangeDocument.Post.self) { index, post in
            try ImportCheck.post(post, at: index) { imageIDs[$0] != nil }
            try unique("diary", post.id, "diary[\(index)].id")
            guard !(try exists("diary_posts", post.id)) else { return }
            try database.run(
                "INSERT INTO diary_posts(id, text, created_at, updated_at, revision) VALUES (?1, ?2, ?3, ?4, ?5)",
                [
                    .text(post.id), post.text.map { .text($0) } ?? .null, .integer(ImportCheck.time(post.createdAt)!),
                    .integer(ImportCheck.time(post.updatedAt)!), .integer(post.revision),
                ])
            for (slot, imageID) in post.imageIds.enumerated() {
                try database.run(
                    "INSERT INTO diary_post_images(post_id, slot, image_id) VALUES (?1, ?2, ?3)",
                    [.text(post.id), .integer(Int64(slot)), .text(imageIDs[imageID]!)])
            }
            try changes.record(.diary, .created, id: post.id, at: now)
            counts["diary", default: 0] += 1
        }

        // Messages are newest first in the document; imported ones go below (older than) what is there, each
        // next one below the one before.
        var lowest = (try database.scalarInteger("SELECT min(position) FROM messages") ?? 1) - 1
        try each(.messages, ExchangeDocument.Message.self) { index, message in
            try ImportCheck.message(message, at: index)
            try unique("messages", message.id, "messages[\(index)].id")
            if let key = message.feedKey { try unique("feedKeys", key, "messages[\(index)].feedKey") }
            let duplicateFeedKey = try message.feedKey.map {
                try database.scalarInteger("SELECT 1 FROM messages WHERE feed_key = ?1", [.text($0)]) != nil
            } ?? false
            guard !(try exists("messages", message.id)), !duplicateFeedKey else { return }
            try database.run(
                """
                INSERT INTO messages(id, text, sent_at, author_name, author_avatar_url, origin, feed_key, position)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """,
                [
                    .text(message.id), .text(message.text), .integer(ImportCheck.time(message.sentAt)!),
                    .text(message.authorName), Author.acceptedAvatarURL(message.authorAvatarUrl).map { .text($0) } ?? .null,
                    .text(message.origin), message.feedKey.map { .text($0) } ?? .null, .integer(lowest),
                ])
            lowest -= 1
            try changes.record(.messages, .created, id: message.id, at: now)
            counts["messages", default: 0] += 1
        }
        try each(.messageFeeds, ExchangeDocument.Feed.self) { index, feed in
            try ImportCheck.feed(feed, at: index)
            try database.run(
                """
                INSERT INTO feed_state(feed, consumed) VALUES (?1, ?2)
                ON CONFLICT(feed) DO UPDATE SET consumed = max(consumed, excluded.consumed)
                """, [.text(feed.feed), .integer(Int64(feed.consumed))])
        }

        try each(.board, ExchangeDocument.BoardPost.self) { index, post in
            try ImportCheck.board(post, at: index)
            try unique("board", post.id, "board[\(index)].id")
            guard !(try exists("board_posts", post.id)) else { return }
            let created = ImportCheck.time(post.createdAt)!
            try database.run(
                """
                INSERT INTO board_posts(id, title, title_key, ups, downs, hot, best, created_at, updated_at, revision)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                """,
                [
                    .text(post.id), .text(post.title), .text(post.title.lowercased()), .integer(post.ups),
                    .integer(post.downs), .real(BoardRanking.hot(votes: post.ups - post.downs, createdAt: created)),
                    .real(BoardRanking.best(ups: post.ups, downs: post.downs)), .integer(created),
                    .integer(ImportCheck.time(post.updatedAt)!), .integer(post.revision),
                ])
            for vote in post.votes {
                try database.run(
                    "INSERT INTO board_votes(post_id, voter, direction) VALUES (?1, ?2, ?3)",
                    [.text(post.id), .text(vote.voter), .integer(vote.direction == "up" ? 1 : -1)])
            }
            try changes.record(.board, .created, id: post.id, at: now)
            counts["board", default: 0] += 1
        }

        // Owner counts follow the references; an image nothing refers to is not kept.
        try database.run(
            """
            UPDATE images SET owners = (SELECT count(*) FROM photo_notes WHERE image_id = images.id)
                                     + (SELECT count(*) FROM diary_post_images WHERE image_id = images.id)
            """)
        var orphans: [String] = []
        try database.statement("SELECT id FROM images WHERE owners = 0").forEachRow([]) { orphans.append($0.text(0)) }
        for id in orphans {
            try database.run("DELETE FROM images WHERE id = ?1", [.text(id)])
            try changes.record(.images, .deleted, id: id, at: now)
        }
        return ImportSummary(counts: counts)
    }

    /// `replace`: every entity goes, each with its `deleted` event.
    private func removeEverything(at now: Int64) throws {
        let tables: [(String, ChangeDomain)] = [
            ("notes", .notes), ("photo_notes", .photos), ("reminders", .reminders), ("diary_posts", .diary),
            ("messages", .messages), ("board_posts", .board), ("images", .images),
        ]
        for (table, domain) in tables {
            // Row by row, the events written out now and then: a million ids are never held at once.
            var recorded = 0
            try database.statement("SELECT id FROM \(table) ORDER BY id").forEachRow([]) { row in
                try changes.record(domain, .deleted, id: row.text(0), at: now)
                recorded += 1
                if recorded % 1024 == 0 { try database.writeDeferredRows(before: nil) }
            }
        }
        try database.execute(
            """
            DELETE FROM diary_post_images; DELETE FROM diary_posts; DELETE FROM photo_notes; DELETE FROM notes;
            DELETE FROM reminders; DELETE FROM messages; DELETE FROM feed_state; DELETE FROM deleted_feed_keys;
            DELETE FROM board_votes; DELETE FROM board_snapshots; DELETE FROM board_posts; DELETE FROM images;
            """)
    }
}
