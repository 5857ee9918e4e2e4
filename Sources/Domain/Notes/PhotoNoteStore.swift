/// ENotes photo notes: add, read, list in the user's order, caption updates, delete, move (SPEC §5).
public final class PhotoNoteStore: Store {
    private let edition: Edition
    private let images: ImageStore
    private let order: OrderedList

    init(_ context: StoreContext, edition: Edition, images: ImageStore) {
        self.edition = edition
        self.images = images
        self.order = OrderedList(context, table: "photo_notes", domain: .photos)
        super.init(context)
    }

    private static let select = """
        SELECT p.id, p.caption, p.created_at, p.updated_at, p.revision, p.position,
               i.id, i.mime_type, i.byte_size, i.width, i.height, i.sha256
        FROM photo_notes AS p JOIN images AS i ON i.id = p.image_id
        """

    private static func photo(_ row: Statement) -> PhotoNote {
        PhotoNote(
            id: row.text(0), image: ImageStore.record(row, from: 6), caption: row.textOrNil(1),
            createdAt: row.int64(2), updatedAt: row.int64(3), revision: row.int64(4))
    }

    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO photo_notes(id, image_id, caption, position, created_at, updated_at, revision)
        VALUES (?1, ?2, ?3, ?4, ?5, ?5, 1)
        """)

    /// Adds a photo note at the end of the list.
    public func add(image input: ImageInput, caption: String?) throws(DomainError) -> PhotoNote {
        try PhotoNote.checkCaption(caption)
        let prepared = try images.prepare(input, field: "image")
        return try storage {
            try group.transaction {
                try edition.checkRoomForOneMore()
                let image = try images.attach(prepared)
                let now = clock.nowMilliseconds()
                let photo = PhotoNote(
                    id: ids.makeID(kind: "photo"), image: image, caption: caption, createdAt: now, updatedAt: now,
                    revision: 1)
                try insert.run(
                    [
                        .text(photo.id), .text(image.id), caption.map { .text($0) } ?? .null,
                        .integer(try order.positionForAppend()), .integer(now),
                    ])
                try changes.record(.photos, .created, id: photo.id, at: now)
                return photo
            }
        }
    }

    /// The photo note with `id`.
    public func get(id: String) throws(DomainError) -> PhotoNote {
        guard let photo = try storage({ try find(id) }) else { throw .notFound(kind: "photo", id: id) }
        return photo
    }

    private lazy var selectByID = Prepared(database, Self.select + " WHERE p.id = ?1")

    private func find(_ id: String) throws -> PhotoNote? {
        try selectByID.first([.text(id)], Self.photo)
    }

    private lazy var selectPage = Prepared(
        database, Self.select + " WHERE p.position > ?1 ORDER BY p.position LIMIT ?2")

    /// A page of photo notes in the user's order.
    public func list(_ request: PageRequest) throws(DomainError) -> Page<PhotoNote> {
        let after = try order.resumePosition(after: request.cursor)
        return try storage {
            var rows: [(item: PhotoNote, key: Int64)] = []
            try selectPage.forEachRow([.integer(after), .integer(Int64(request.limit + 1))]) { row in
                rows.append((Self.photo(row), row.int64(5)))
            }
            return Page(keyset: rows, limit: request.limit, id: \.id)
        }
    }

    private lazy var updatePhoto = Prepared(
        database, "UPDATE photo_notes SET caption = ?2, updated_at = ?3, revision = ?4 WHERE id = ?1")

    /// Sets or clears (`.some(nil)`) the caption.
    public func update(id: String, caption: String??, ifRevision: Int64? = nil) throws(DomainError) -> PhotoNote {
        if let caption { try PhotoNote.checkCaption(caption) }
        return try storage {
            try group.transaction {
                guard var photo = try find(id) else { throw DomainError.notFound(kind: "photo", id: id) }
                if let ifRevision, ifRevision != photo.revision {
                    throw DomainError.revisionConflict(current: photo.revision)
                }
                if let caption { photo.caption = caption }
                photo.updatedAt = clock.nowMilliseconds()
                photo.revision += 1
                try updatePhoto.run(
                    [
                        .text(id), photo.caption.map { .text($0) } ?? .null, .integer(photo.updatedAt),
                        .integer(photo.revision),
                    ])
                try changes.record(.photos, .updated, id: id, at: photo.updatedAt)
                return photo
            }
        }
    }

    private lazy var selectImageID = Prepared(database, "SELECT image_id FROM photo_notes WHERE id = ?1")
    private lazy var deletePhoto = Prepared(database, "DELETE FROM photo_notes WHERE id = ?1")

    /// Deletes the photo note; its image goes too when nothing else uses it.
    public func delete(id: String) throws(DomainError) {
        try storage {
            try group.transaction {
                guard let imageID = try selectImageID.text([.text(id)]) else {
                    throw DomainError.notFound(kind: "photo", id: id)
                }
                try deletePhoto.run([.text(id)])
                try images.detach(id: imageID)
                try changes.record(.photos, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    /// Moves the photo note to 0-based `index` in the whole list.
    public func move(id: String, to index: Int) throws(DomainError) -> PhotoNote {
        try storage {
            try group.transaction {
                try order.move(
                    id: id, kind: "photo", to: index, domain: .photos, changes: changes, now: clock.nowMilliseconds()
                ) { try find(id) }
            }
        }
    }

    /// How many photo notes there are.
    public func count() throws(DomainError) -> Int {
        try storage { try order.count() }
    }
}
