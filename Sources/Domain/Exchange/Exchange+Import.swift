import Foundation

/// How many entities an import added.
public struct ImportSummary: Sendable, Equatable {
    public var counts: [String: Int]
}

extension Exchange {
    /// Imports `document`: everything is checked first (any problem is `invalidDocument` or
    /// `unsupportedVersion` naming the field, and nothing changes), then applied in one transaction.
    public func importDocument(_ document: ExchangeDocument, mode: ImportMode) throws(DomainError) -> ImportSummary {
        let checked = try ImportCheck(document)
        return try storage {
            try database.transaction { try apply(checked, mode: mode) }
        }
    }

    private func apply(_ checked: ImportCheck, mode: ImportMode) throws -> ImportSummary {
        let now = clock.nowMilliseconds()
        if mode == .replace { try removeEverything(at: now) }
        var counts: [String: Int] = [:]
        func exists(_ table: String, _ id: String) throws -> Bool {
            try database.scalarInteger("SELECT 1 FROM \(table) WHERE id = ?1", [.text(id)]) != nil
        }
        func nextPosition(_ table: String) throws -> Int64 {
            (try database.scalarInteger("SELECT max(position) FROM \(table)") ?? 0) + OrderedList.gap
        }

        // Images first; the same content already stored under another id is used instead.
        var imageIDs: [String: String] = [:]
        for image in checked.images {
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
        func image(_ id: String) throws -> String {
            if let mapped = imageIDs[id] { return mapped }
            guard try exists("images", id) else { throw DomainError.notFound(kind: "image", id: id) }
            return id
        }

        var position = try nextPosition("notes")
        for note in checked.document.notes where !(try exists("notes", note.id)) {
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
        for photo in checked.document.photos where !(try exists("photo_notes", photo.id)) {
            try database.run(
                """
                INSERT INTO photo_notes(id, image_id, caption, position, created_at, updated_at, revision)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """,
                [
                    .text(photo.id), .text(try image(photo.imageId)), photo.caption.map { .text($0) } ?? .null,
                    .integer(position), .integer(ImportCheck.time(photo.createdAt)!),
                    .integer(ImportCheck.time(photo.updatedAt)!), .integer(photo.revision),
                ])
            position += OrderedList.gap
            try changes.record(.photos, .created, id: photo.id, at: now)
            counts["photos", default: 0] += 1
        }

        position = try nextPosition("reminders")
        for reminder in checked.document.reminders where !(try exists("reminders", reminder.id)) {
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

        for post in checked.document.diary where !(try exists("diary_posts", post.id)) {
            try database.run(
                "INSERT INTO diary_posts(id, text, created_at, updated_at, revision) VALUES (?1, ?2, ?3, ?4, ?5)",
                [
                    .text(post.id), post.text.map { .text($0) } ?? .null, .integer(ImportCheck.time(post.createdAt)!),
                    .integer(ImportCheck.time(post.updatedAt)!), .integer(post.revision),
                ])
            for (slot, imageID) in post.imageIds.enumerated() {
                try database.run(
                    "INSERT INTO diary_post_images(post_id, slot, image_id) VALUES (?1, ?2, ?3)",
                    [.text(post.id), .integer(Int64(slot)), .text(try image(imageID))])
            }
            try changes.record(.diary, .created, id: post.id, at: now)
            counts["diary", default: 0] += 1
        }

        // Messages are newest first in the document; imported ones go below (older than) what is there.
        var lowest = (try database.scalarInteger("SELECT min(position) FROM messages") ?? 1) - 1
        let fresh = try checked.document.messages.filter { message in
            let duplicateFeedKey = try message.feedKey.map {
                try database.scalarInteger("SELECT 1 FROM messages WHERE feed_key = ?1", [.text($0)]) != nil
            } ?? false
            return !(try exists("messages", message.id)) && !duplicateFeedKey
        }
        lowest -= Int64(fresh.count) - 1
        for message in fresh.reversed() {
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
            lowest += 1
            try changes.record(.messages, .created, id: message.id, at: now)
            counts["messages", default: 0] += 1
        }
        for feed in checked.document.messageFeeds {
            try database.run(
                """
                INSERT INTO feed_state(feed, consumed) VALUES (?1, ?2)
                ON CONFLICT(feed) DO UPDATE SET consumed = max(consumed, excluded.consumed)
                """, [.text(feed.feed), .integer(Int64(feed.consumed))])
        }

        for post in checked.document.board where !(try exists("board_posts", post.id)) {
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
            var ids: [String] = []
            try database.statement("SELECT id FROM \(table) ORDER BY id").forEachRow([]) { ids.append($0.text(0)) }
            for id in ids { try changes.record(domain, .deleted, id: id, at: now) }
        }
        try database.execute(
            """
            DELETE FROM diary_post_images; DELETE FROM diary_posts; DELETE FROM photo_notes; DELETE FROM notes;
            DELETE FROM reminders; DELETE FROM messages; DELETE FROM feed_state; DELETE FROM deleted_feed_keys;
            DELETE FROM board_votes; DELETE FROM board_snapshots; DELETE FROM board_posts; DELETE FROM images;
            """)
    }
}
