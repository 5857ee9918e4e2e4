#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            try group.transaction {
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
        let importer = Importer(database: database, changes: changes, images: imageStore, now: now)
        let total = source.counts.values.reduce(0, +)
        var done = 0
        /// Calls `body` with each element of `list`, counting it done once applied.
        func each<T: Decodable>(_ list: ExchangeList, _ body: (Int, T) throws -> Void) throws {
            try source.forEach(list, as: T.self) { index, element in
                try body(index, element)
                done += 1
                progress(done, total)
            }
        }
        // Images first: the lists after them refer to them.
        try importer.images { try each(.images, $0) }
        try importer.notes { try each(.notes, $0) }
        try importer.photos { try each(.photos, $0) }
        try importer.reminders { try each(.reminders, $0) }
        try importer.diary { try each(.diary, $0) }
        try importer.messages { try each(.messages, $0) }
        try importer.feeds { try each(.messageFeeds, $0) }
        try importer.board { try each(.board, $0) }
        try importer.removeOrphans()
        return ImportSummary(counts: importer.counts)
    }

    /// `replace`: every entity goes, each with its `deleted` event.
    private func removeEverything(at now: Int64) throws {
        let tables: [(String, ChangeDomain)] = [
            ("notes", .notes), ("photo_notes", .photos), ("reminders", .reminders), ("diary_posts", .diary),
            ("messages", .messages), ("board_posts", .board), ("images", .images),
        ]
        for (table, domain) in tables {
            // Row by row, each event written as it is recorded (an import is no `.wholeGroup` mutation, so its
            // rows are never held, see WriteGroup): a million ids are never held at once.
            try database.prepare("SELECT id FROM \(table) ORDER BY id").forEachRow { row in
                try changes.record(domain, .deleted, id: row.text(0), at: now)
            }
        }
        try database.execute(
            """
            DELETE FROM diary_post_images; DELETE FROM diary_posts; DELETE FROM photo_notes; DELETE FROM notes;
            DELETE FROM reminders; DELETE FROM messages; DELETE FROM feed_state; DELETE FROM deleted_feed_keys;
            DELETE FROM board_votes; DELETE FROM board_snapshots; DELETE FROM board_posts; DELETE FROM images;
            DELETE FROM image_renditions;
            """)
    }
}
