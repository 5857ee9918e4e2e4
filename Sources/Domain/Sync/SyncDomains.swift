#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a device holds of an entity, as a push sees it.
enum SyncRead<Version> {
    /// Deleted (or never there).
    case gone
    /// There, but not to be shared yet (a blank reminder being typed): its change waits.
    case hidden
    case version(Version)
}

/// Images a pull's versions show, by content: those stored here, and those fetched from PostgreSQL for it.
struct SyncImages {
    let store: ImageStore
    var fetched: [String: PreparedImage]

    /// Takes one more owner of the image with this content (stored now if it was fetched).
    func attach(_ sha256: String) throws -> String {
        if let local = try store.find(sha256: sha256) { return try store.attach(.existing(id: local.id)).id }
        guard let prepared = fetched[sha256] else { throw SyncImageMissing(sha256: sha256) }
        return try store.attach(prepared).id
    }

    func available(_ sha256: String) throws -> Bool {
        try fetched[sha256] != nil || store.find(sha256: sha256) != nil
    }
}

/// An image a version shows is neither here nor fetched yet.
struct SyncImageMissing: Error {
    let sha256: String
}

/// How one domain's entities are read for a push and written from a pull, on this device.
protocol SyncDomain: AnyObject {
    associatedtype Version: SyncVersion
    /// Where this device logs its changes.
    var domain: ChangeDomain { get }
    /// The domain's name in the shared log (the local one's, but for votes).
    var logDomain: String { get }
    /// One account's own (notes, photos, the diary, reminders): a clash keeps the overwritten version as a
    /// conflict copy, and its rows say which device wrote them and what their texts were. The shared
    /// domains' entities have one author each, who writes them whole.
    var isPrivate: Bool { get }
    func read(_ id: String) throws -> SyncRead<Version>
    /// Makes this device's entity `version` (deletes it when `nil`) and logs the change; answers whether
    /// anything changed.
    func write(_ id: String, _ version: Version?, images: SyncImages) throws -> Bool
    /// The local change-log entity a log entity's changes are logged under (a vote's: its post).
    func localEntity(_ id: String) -> String
    /// Whether changes this device has not pushed yet can be changes of `id` (then they hold the log's
    /// version back until they are in the log). Not for another account's vote, nor for a board post,
    /// whose only local changes besides its creation and deletion are this account's votes.
    func changesHere(_ id: String) -> Bool
    /// `version` as the log keeps it, written by `account` (a shared domain's versions say who wrote them).
    func stamped(_ version: Version, author: String, over logVersion: Version?) -> Version
    /// Throws when `row`, bringing `incoming` over the log's version, breaks a rule of who may write what
    /// (PostgreSQL holds every account to them: a device checks again what it is given).
    func check(_ row: PulledRow, _ incoming: Version, over logVersion: Version?) throws
    /// Throws when `row` may not delete the log's version.
    func checkDeletion(_ row: PulledRow, of logVersion: Version?) throws
    /// Whether the log's version of an entity that this device's own follows is left out of sync_entities,
    /// a shadow of the entity keeping it once it is changed here (notes).
    var keepsShadows: Bool { get }
    /// The entity as it was when first changed here while it followed the log: the log's version.
    func shadow(_ id: String) throws -> Version?
    func dropShadow(_ id: String) throws
}

extension SyncDomain {
    var isPrivate: Bool { true }
    var logDomain: String { domain.rawValue }
    func localEntity(_ id: String) -> String { id }
    func changesHere(_ id: String) -> Bool { true }
    func stamped(_ version: Version, author: String, over logVersion: Version?) -> Version { version }
    func check(_ row: PulledRow, _ incoming: Version, over logVersion: Version?) throws {}
    func checkDeletion(_ row: PulledRow, of logVersion: Version?) throws {}
    var keepsShadows: Bool { false }
    func shadow(_ id: String) throws -> Version? { nil }
    func dropShadow(_ id: String) throws {}

    func decode(_ body: String) throws -> Version {
        try JSONDecoder().decode(Version.self, from: Data(body.utf8))
    }

    /// A row's body: the version, and what it says of the edit that made it (``SyncEdit``).
    func decodeEdited(_ body: String) throws -> (Version, SyncEdit) {
        let read = try JSONDecoder().decode(SyncEdit.Edited<Version>.self, from: Data(body.utf8))
        return (read.version, read.edit)
    }
}

/// The place for `id` in a table kept in the user's order (``OrderedList``): the one the log says, or the
/// end when it says none. Two rows the log puts in one place (two devices moved them there apart) go in
/// the order of their ids, the later one just after: every device ends with the same order, whichever row
/// it held there first.
final class SyncPositions {
    private let database: Database
    private let table: String
    private lazy var holder = Prepared(database, "SELECT id FROM \(table) WHERE position = ?1")
    private lazy var last = Prepared(database, "SELECT max(position) FROM \(table)")
    private lazy var move = Prepared(database, "UPDATE \(table) SET position = ?2 WHERE id = ?1")

    init(_ database: Database, table: String) {
        self.database = database
        self.table = table
    }

    func place(_ id: String, wanted: Int64?) throws -> Int64 {
        guard var position = wanted else { return (try last.integer() ?? 0) + OrderedList.gap }
        while let other = try holder.text([.integer(position)]), other != id {
            if id < other {
                try move.run([.text(other), .integer(try place(other, wanted: position + 1))])
                break
            }
            position += 1
        }
        return position
    }
}

final class SyncedNotes: Store, SyncDomain {
    let domain = ChangeDomain.notes
    let keepsShadows = true
    private lazy var positions = SyncPositions(database, table: "notes")
    private static let columns = "id, title, content, hue, saturation, brightness, deadline, created_at, updated_at, revision, position"
    private lazy var select = Prepared(database, "SELECT \(Self.columns) FROM notes WHERE id = ?1")
    private lazy var selectShadow = Prepared(database, "SELECT \(Self.columns) FROM sync_shadow_notes WHERE id = ?1")
    private lazy var deleteShadow = Prepared(database, "DELETE FROM sync_shadow_notes WHERE id = ?1")

    private static func note(_ row: Statement) -> SyncNote {
        SyncNote(
            id: row.text(0), title: row.text(1), content: row.text(2),
            color: .init(hue: row.double(3), saturation: row.double(4), brightness: row.double(5)),
            deadline: Exchange.time(row.int64OrNil(6)), createdAt: Exchange.time(row.int64(7)),
            updatedAt: Exchange.time(row.int64(8)), revision: row.int64(9), position: row.int64(10))
    }

    func shadow(_ id: String) throws -> SyncNote? {
        try selectShadow.first([.text(id)], Self.note)
    }

    func dropShadow(_ id: String) throws {
        try deleteShadow.run([.text(id)])
    }
    private lazy var insert = Prepared(database, Importer.insertNoteSQL)
    private lazy var update = Prepared(
        database,
        """
        UPDATE notes SET title = ?2, content = ?3, hue = ?4, saturation = ?5, brightness = ?6, deadline = ?7,
                         updated_at = ?8, revision = ?9, position = ?10
        WHERE id = ?1
        """)
    private lazy var delete = Prepared(database, "DELETE FROM notes WHERE id = ?1")

    func read(_ id: String) throws -> SyncRead<SyncNote> {
        try select.first([.text(id)]) { .version(Self.note($0)) } ?? .gone
    }

    func write(_ id: String, _ version: SyncNote?, images: SyncImages) throws -> Bool {
        let now = clock.nowMilliseconds()
        let current = try read(id)
        guard let version else {
            guard case .version = current else { return false }
            try delete.run([.text(id)])
            try changes.record(.notes, .deleted, id: id, at: now)
            return true
        }
        if case .version(let held) = current, held.sameContent(version), held.revision == version.revision,
            version.position == nil || held.position == version.position
        {
            return false
        }
        let fields: [SQLValue] = [
            .text(version.title), .text(version.content), .real(version.color.hue), .real(version.color.saturation),
            .real(version.color.brightness), ImportCheck.time(version.deadline).map { .integer($0) } ?? .null,
        ]
        let updatedAt = ImportCheck.time(version.updatedAt) ?? now
        let position = try positions.place(id, wanted: version.position)
        if case .version = current {
            try update.run([.text(id)] + fields + [.integer(updatedAt), .integer(version.revision), .integer(position)])
            try changes.record(.notes, .updated, id: id, at: now)
        } else {
            try insert.run(
                [.text(id)] + fields + [
                    .integer(position), .integer(ImportCheck.time(version.createdAt) ?? updatedAt),
                    .integer(updatedAt), .integer(version.revision),
                ])
            try changes.record(.notes, .created, id: id, at: now)
        }
        return true
    }
}

final class SyncedPhotos: Store, SyncDomain {
    let domain = ChangeDomain.photos
    private lazy var positions = SyncPositions(database, table: "photo_notes")
    private lazy var select = Prepared(
        database,
        """
        SELECT p.id, i.sha256, p.caption, p.created_at, p.updated_at, p.revision, p.position, p.image_id
        FROM photo_notes AS p JOIN images AS i ON i.id = p.image_id WHERE p.id = ?1
        """)
    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO photo_notes(id, image_id, caption, position, created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        """)
    private lazy var update = Prepared(
        database,
        "UPDATE photo_notes SET image_id = ?2, caption = ?3, position = ?4, updated_at = ?5, revision = ?6 WHERE id = ?1")
    private lazy var delete = Prepared(database, "DELETE FROM photo_notes WHERE id = ?1")

    private func held(_ id: String) throws -> (version: SyncPhoto, imageID: String)? {
        try select.first([.text(id)]) { row in
            (
                SyncPhoto(
                    id: row.text(0), image: row.text(1), caption: row.textOrNil(2), createdAt: Exchange.time(row.int64(3)),
                    updatedAt: Exchange.time(row.int64(4)), revision: row.int64(5), position: row.int64(6)),
                row.text(7)
            )
        }
    }

    func read(_ id: String) throws -> SyncRead<SyncPhoto> {
        try held(id).map { .version($0.version) } ?? .gone
    }

    func write(_ id: String, _ version: SyncPhoto?, images: SyncImages) throws -> Bool {
        let now = clock.nowMilliseconds()
        let current = try held(id)
        guard let version else {
            guard let current else { return false }
            try delete.run([.text(id)])
            try images.store.detach(id: current.imageID)
            try changes.record(.photos, .deleted, id: id, at: now)
            return true
        }
        if let current, current.version.sameContent(version), current.version.revision == version.revision,
            version.position == nil || current.version.position == version.position
        {
            return false
        }
        let updatedAt = ImportCheck.time(version.updatedAt) ?? now
        let position = try positions.place(id, wanted: version.position)
        let caption: SQLValue = version.caption.map { .text($0) } ?? .null
        if let current {
            var imageID = current.imageID
            if current.version.image != version.image {
                imageID = try images.attach(version.image)
                try images.store.detach(id: current.imageID)
            }
            try update.run(
                [.text(id), .text(imageID), caption, .integer(position), .integer(updatedAt), .integer(version.revision)])
            try changes.record(.photos, .updated, id: id, at: now)
        } else {
            let imageID = try images.attach(version.image)
            try insert.run(
                [
                    .text(id), .text(imageID), caption, .integer(position),
                    .integer(ImportCheck.time(version.createdAt) ?? updatedAt), .integer(updatedAt),
                    .integer(version.revision),
                ])
            try changes.record(.photos, .created, id: id, at: now)
        }
        return true
    }
}

final class SyncedDiary: Store, SyncDomain {
    let domain = ChangeDomain.diary
    private lazy var select = Prepared(
        database, "SELECT id, text, created_at, updated_at, revision FROM diary_posts WHERE id = ?1")
    private lazy var selectImages = Prepared(
        database,
        """
        SELECT i.sha256, i.id FROM diary_post_images AS d JOIN images AS i ON i.id = d.image_id
        WHERE d.post_id = ?1 ORDER BY d.slot
        """)
    private lazy var insert = Prepared(
        database, "INSERT INTO diary_posts(id, text, created_at, updated_at, revision) VALUES (?1, ?2, ?3, ?4, ?5)")
    private lazy var update = Prepared(
        database, "UPDATE diary_posts SET text = ?2, updated_at = ?3, revision = ?4 WHERE id = ?1")
    private lazy var delete = Prepared(database, "DELETE FROM diary_posts WHERE id = ?1")
    private lazy var insertImage = Prepared(
        database, "INSERT INTO diary_post_images(post_id, slot, image_id) VALUES (?1, ?2, ?3)")
    private lazy var deleteImages = Prepared(database, "DELETE FROM diary_post_images WHERE post_id = ?1")

    private func held(_ id: String) throws -> (version: SyncPost, imageIDs: [String])? {
        guard
            var post = try select.first([.text(id)], { row in
                SyncPost(
                    id: row.text(0), text: row.textOrNil(1), images: [], createdAt: Exchange.time(row.int64(2)),
                    updatedAt: Exchange.time(row.int64(3)), revision: row.int64(4))
            })
        else { return nil }
        var imageIDs: [String] = []
        try selectImages.forEachRow([.text(id)]) { row in
            post.images.append(row.text(0))
            imageIDs.append(row.text(1))
        }
        return (post, imageIDs)
    }

    func read(_ id: String) throws -> SyncRead<SyncPost> {
        try held(id).map { .version($0.version) } ?? .gone
    }

    func write(_ id: String, _ version: SyncPost?, images: SyncImages) throws -> Bool {
        let now = clock.nowMilliseconds()
        let current = try held(id)
        guard let version else {
            guard let current else { return false }
            try deleteImages.run([.text(id)])
            try delete.run([.text(id)])
            for imageID in current.imageIDs { try images.store.detach(id: imageID) }
            try changes.record(.diary, .deleted, id: id, at: now)
            return true
        }
        if let current, current.version.sameContent(version), current.version.revision == version.revision {
            return false
        }
        let updatedAt = ImportCheck.time(version.updatedAt) ?? now
        let text: SQLValue = version.text.map { .text($0) } ?? .null
        if let current {
            try update.run([.text(id), text, .integer(updatedAt), .integer(version.revision)])
            if current.version.images != version.images {
                // The new ones are held before the old are let go: an image in both stays.
                let attached = try version.images.map(images.attach)
                try deleteImages.run([.text(id)])
                for imageID in current.imageIDs { try images.store.detach(id: imageID) }
                for (slot, imageID) in attached.enumerated() {
                    try insertImage.run([.text(id), .integer(Int64(slot)), .text(imageID)])
                }
            }
            try changes.record(.diary, .updated, id: id, at: now)
        } else {
            try insert.run(
                [
                    .text(id), text, .integer(ImportCheck.time(version.createdAt) ?? updatedAt), .integer(updatedAt),
                    .integer(version.revision),
                ])
            for (slot, sha256) in version.images.enumerated() {
                try insertImage.run([.text(id), .integer(Int64(slot)), .text(try images.attach(sha256))])
            }
            try changes.record(.diary, .created, id: id, at: now)
        }
        return true
    }
}

final class SyncedReminders: Store, SyncDomain {
    let domain = ChangeDomain.reminders
    private lazy var positions = SyncPositions(database, table: "reminders")
    private lazy var select = Prepared(
        database,
        """
        SELECT id, title, memo, completed, completed_at, created_at, updated_at, revision, position, blank
        FROM reminders WHERE id = ?1
        """)
    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO reminders(id, title, blank, memo, completed, completed_at, position, editing_session,
                              created_at, updated_at, revision)
        VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9)
        """)
    private lazy var update = Prepared(
        database,
        """
        UPDATE reminders SET title = ?2, blank = 0, memo = ?3, completed = ?4, completed_at = ?5, position = ?6,
                             updated_at = ?7, revision = ?8
        WHERE id = ?1
        """)
    private lazy var delete = Prepared(database, "DELETE FROM reminders WHERE id = ?1")

    func read(_ id: String) throws -> SyncRead<SyncReminder> {
        try select.first([.text(id)]) { row in
            // A blank reminder is one being typed on this device: it is shared once it has a title.
            guard row.int64(9) == 0 else { return SyncRead<SyncReminder>.hidden }
            return .version(
                SyncReminder(
                    id: row.text(0), title: row.text(1), memo: row.textOrNil(2), completed: row.int64(3) != 0,
                    completedAt: Exchange.time(row.int64OrNil(4)), createdAt: Exchange.time(row.int64(5)),
                    updatedAt: Exchange.time(row.int64(6)), revision: row.int64(7), position: row.int64(8)))
        } ?? .gone
    }

    func write(_ id: String, _ version: SyncReminder?, images: SyncImages) throws -> Bool {
        let now = clock.nowMilliseconds()
        let current = try read(id)
        guard let version else {
            guard case .version = current else { return false }
            try delete.run([.text(id)])
            try changes.record(.reminders, .deleted, id: id, at: now)
            return true
        }
        if case .version(let held) = current, held.sameContent(version), held.revision == version.revision,
            version.position == nil || held.position == version.position
        {
            return false
        }
        let updatedAt = ImportCheck.time(version.updatedAt) ?? now
        let fields: [SQLValue] = [
            .text(version.title), version.memo.map { .text($0) } ?? .null, .integer(version.completed ? 1 : 0),
            ImportCheck.time(version.completedAt).map { .integer($0) } ?? .null,
            .integer(try positions.place(id, wanted: version.position)),
        ]
        if case .gone = current {
            try insert.run(
                [.text(id)] + fields + [
                    .integer(ImportCheck.time(version.createdAt) ?? updatedAt), .integer(updatedAt),
                    .integer(version.revision),
                ])
            try changes.record(.reminders, .created, id: id, at: now)
        } else {
            try update.run([.text(id)] + fields + [.integer(updatedAt), .integer(version.revision)])
            try changes.record(.reminders, .updated, id: id, at: now)
        }
        return true
    }
}
