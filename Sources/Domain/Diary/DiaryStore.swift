/// The "Moments" diary (SPEC §7): posts with text and up to four photos, newest first.
public final class DiaryStore: Store {
    private let images: ImageStore

    init(_ context: StoreContext, images: ImageStore) {
        self.images = images
        super.init(context)
    }

    /// The list reads only the start of each text: enough for any excerpt but a pathological one, which
    /// is read whole (see `list`).
    private static let excerptSource = 8192

    /// Prepares every image input outside the transaction (reading files, decoding, hashing).
    private func prepare(_ inputs: [ImageInput]) throws(DomainError) -> [PreparedImage] {
        if inputs.count > DiaryPost.maximumImages {
            throw .validation(reason: .tooManyImages, field: "images", limit: Int64(DiaryPost.maximumImages))
        }
        return try images.prepare(inputs) { "images[\($0)]" }
    }

    private lazy var insertImage = Prepared(
        database, "INSERT INTO diary_post_images(post_id, slot, image_id) VALUES (?1, ?2, ?3)")

    private func attach(_ prepared: [PreparedImage], to postID: String) throws -> [ImageRecord] {
        var records: [ImageRecord] = []
        for (slot, image) in prepared.enumerated() {
            let record = try images.attach(image)
            try insertImage.run([.text(postID), .integer(Int64(slot)), .text(record.id)])
            records.append(record)
        }
        return records
    }

    private lazy var selectImageIDs = Prepared(database, "SELECT image_id FROM diary_post_images WHERE post_id = ?1")
    private lazy var deleteImages = Prepared(database, "DELETE FROM diary_post_images WHERE post_id = ?1")

    private func detachAll(from postID: String) throws {
        var held: [String] = []
        try selectImageIDs.forEachRow([.text(postID)]) { held.append($0.text(0)) }
        try deleteImages.run([.text(postID)])
        for imageID in held { try images.detach(id: imageID) }
    }

    private lazy var selectLastIDAt = Prepared(database, "SELECT max(id) FROM diary_posts WHERE created_at = ?1")
    private lazy var insert = Prepared(
        database, "INSERT INTO diary_posts(id, text, created_at, updated_at, revision) VALUES (?1, ?2, ?3, ?3, 1)")

    /// Creates a post dated now.
    public func create(text: String?, images inputs: [ImageInput]) throws(DomainError) -> DiaryPost {
        try DiaryPost.check(text: text, imageCount: inputs.count)
        let prepared = try prepare(inputs)
        return try storage {
            try group.transaction {
                let now = clock.nowMilliseconds()
                // Greater than any post of this same millisecond, so newest first holds within it too.
                let id = ids.makeID(kind: "post", after: try selectLastIDAt.text([.integer(now)]))
                try insert.run([.text(id), text.map { .text($0) } ?? .null, .integer(now)])
                let records = try attach(prepared, to: id)
                try changes.record(.diary, .created, id: id, at: now)
                return DiaryPost(id: id, text: text, images: records, createdAt: now, updatedAt: now, revision: 1)
            }
        }
    }

    /// The post with `id`, with all its images.
    public func get(id: String) throws(DomainError) -> DiaryPost {
        guard let post = try storage({ try find(id) }) else { throw .notFound(kind: "post", id: id) }
        return post
    }

    private lazy var selectPost = Prepared(
        database, "SELECT id, text, created_at, updated_at, revision FROM diary_posts WHERE id = ?1")
    private lazy var selectImages = Prepared(
        database,
        """
        SELECT i.id, i.mime_type, i.byte_size, i.width, i.height, i.sha256
        FROM diary_post_images AS p JOIN images AS i ON i.id = p.image_id
        WHERE p.post_id = ?1 ORDER BY p.slot
        """)

    private func find(_ id: String) throws -> DiaryPost? {
        guard
            var post = try selectPost.first([.text(id)], { row in
                DiaryPost(
                    id: row.text(0), text: row.textOrNil(1), images: [], createdAt: row.int64(2),
                    updatedAt: row.int64(3), revision: row.int64(4))
            })
        else { return nil }
        try selectImages.forEachRow([.text(id)]) { post.images.append(ImageStore.record($0)) }
        return post
    }

    private lazy var updatePost = Prepared(
        database, "UPDATE diary_posts SET text = ?2, updated_at = ?3, revision = ?4 WHERE id = ?1")

    /// Changes the text (`.some(nil)` removes it) and/or replaces the images; the result must still be a
    /// valid post. The creation date is kept.
    public func update(id: String, text: String??, images inputs: [ImageInput]?, ifRevision: Int64? = nil)
        throws(DomainError) -> DiaryPost
    {
        let prepared = try inputs.map { inputs throws(DomainError) in try prepare(inputs) }
        return try storage {
            try group.transaction {
                guard var post = try find(id) else { throw DomainError.notFound(kind: "post", id: id) }
                if let ifRevision, ifRevision != post.revision {
                    throw DomainError.revisionConflict(current: post.revision)
                }
                if let text { post.text = text }
                try DiaryPost.check(text: post.text, imageCount: prepared?.count ?? post.images.count)
                if let prepared {
                    // Attach the new set before letting go of the old, so an image kept across the edit
                    // never drops to zero owners in between.
                    var held: [String] = []
                    try selectImageIDs.forEachRow([.text(id)]) { held.append($0.text(0)) }
                    try deleteImages.run([.text(id)])
                    post.images = try attach(prepared, to: id)
                    for imageID in held { try images.detach(id: imageID) }
                }
                post.updatedAt = clock.nowMilliseconds()
                post.revision += 1
                try updatePost.run([
                    .text(id), post.text.map { .text($0) } ?? .null, .integer(post.updatedAt), .integer(post.revision),
                ])
                try changes.record(.diary, .updated, id: id, at: post.updatedAt)
                return post
            }
        }
    }

    private lazy var exists = Prepared(database, "SELECT 1 FROM diary_posts WHERE id = ?1")
    private lazy var deletePost = Prepared(database, "DELETE FROM diary_posts WHERE id = ?1")

    /// Deletes the post; its images go when nothing else uses them.
    public func delete(id: String) throws(DomainError) {
        try storage {
            try group.transaction {
                guard try exists.integer([.text(id)]) != nil else {
                    throw DomainError.notFound(kind: "post", id: id)
                }
                try detachAll(from: id)
                try deletePost.run([.text(id)])
                try changes.record(.diary, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    private lazy var selectPage = Prepared(
        database,
        """
        SELECT id, substr(text, 1, \(Self.excerptSource)), created_at,
               length(text) > \(Self.excerptSource)
        FROM diary_posts
        WHERE created_at < ?1 OR (created_at = ?1 AND id < ?2)
        ORDER BY created_at DESC, id DESC LIMIT ?3
        """)
    private lazy var selectText = Prepared(database, "SELECT text FROM diary_posts WHERE id = ?1")
    private lazy var selectThumbnails = Prepared(
        database,
        """
        SELECT i.id, i.mime_type, i.byte_size, i.width, i.height, i.sha256,
               (SELECT count(*) FROM diary_post_images WHERE post_id = ?1)
        FROM diary_post_images AS p JOIN images AS i ON i.id = p.image_id
        WHERE p.post_id = ?1 ORDER BY p.slot LIMIT 2
        """)

    /// A page of previews, newest first.
    public func list(_ request: PageRequest) throws(DomainError) -> Page<DiaryPreview> {
        let after = try request.cursor.map { cursor throws(DomainError) in try KeysetCursor.read(cursor) }
        return try storage {
            var previews: [DiaryPreview] = []
            try selectPage.forEachRow([
                .integer(after?.key ?? Int64.max), .text(after?.id ?? "\u{10FFFF}"), .integer(Int64(request.limit + 1)),
            ]) { row in
                var (excerpt, truncated) = DiaryExcerpt.make(row.textOrNil(1))
                if !truncated && row.int64(3) != 0 {
                    // The prefix held fewer than the excerpt's characters (combining-mark soup): read it all.
                    let whole = try selectText.text([.text(row.text(0))])
                    (excerpt, truncated) = DiaryExcerpt.make(whole)
                }
                previews.append(
                    DiaryPreview(
                        id: row.text(0), createdAt: row.int64(2), excerpt: excerpt, truncated: truncated, thumbnails: [],
                        imageCount: 0))
            }
            let more = previews.count > request.limit
            if more { previews.removeLast() }  // only thumbnails of the rows kept are read
            for index in previews.indices {
                try selectThumbnails.forEachRow([.text(previews[index].id)]) { row in
                    previews[index].thumbnails.append(ImageStore.record(row))
                    previews[index].imageCount = Int(row.int64(6))
                }
            }
            let cursor = more ? previews.last.map { KeysetCursor.make(key: $0.createdAt, id: $0.id) } : nil
            return Page(items: previews, nextCursor: cursor)
        }
    }

    /// How many posts there are.
    public func count() throws(DomainError) -> Int {
        try storage { try counts.rows(of: "diary_posts") }
    }
}
