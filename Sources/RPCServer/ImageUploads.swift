import Domain

/// The images a connection is uploading in chunks (SPEC §6): an image larger than one message can carry,
/// or one a client without a shared file system holds in memory, arrives a chunk at a time and is then
/// named `{uploadId}` where an image is expected. Kept in memory for the connection only: an upload
/// abandoned (discarded, or its connection gone) leaves nothing behind.
///
/// - Important: Used only on the thread that runs the server loop.
final class ImageUploads {
    /// How many uploads a connection may hold at once, finished or not (bounds the memory they take).
    static let maximumCount = 8

    struct Upload {
        let byteSize: Int
        var bytes: [UInt8]
        var finished = false
    }

    /// The largest image (`--max-image-bytes`) and the largest chunk an append may carry.
    let maximumImageBytes: Int
    let chunkBytes: Int
    private var uploads: [String: Upload] = [:]
    private var made = 0

    init(maximumImageBytes: Int, maximumMessageBytes: Int) {
        self.maximumImageBytes = maximumImageBytes
        // In base64 a chunk grows by a third: a quarter of the longest line leaves room for the rest of it.
        chunkBytes = max(1024, min(4 << 20, maximumMessageBytes / 4))
    }

    func begin(byteSize: Int) throws(DomainError) -> (id: String, upload: Upload) {
        guard byteSize <= maximumImageBytes else {
            throw .validation(reason: .imageTooLarge, field: "byteSize", limit: Int64(maximumImageBytes))
        }
        guard uploads.count < Self.maximumCount else {
            throw .validation(reason: .tooManyUploads, field: "byteSize", limit: Int64(Self.maximumCount))
        }
        made += 1
        let id = "upl_\(made)"
        var upload = Upload(byteSize: byteSize, bytes: [])
        upload.bytes.reserveCapacity(byteSize)
        uploads[id] = upload
        return (id, upload)
    }

    /// Adds `chunk` at `offset`: the bytes received so far. A chunk sent again (its answer was lost) is
    /// accepted when it matches what arrived; one that would leave a gap is refused with what arrived.
    func append(id: String, offset: Int, chunk: [UInt8]) throws(DomainError) -> Upload {
        var upload = try unfinished(id)
        guard chunk.count <= chunkBytes else {
            throw .validation(reason: .chunkTooLarge, field: "data", limit: Int64(chunkBytes))
        }
        let received = upload.bytes.count
        guard offset >= 0, offset <= received else {
            throw .validation(reason: .uploadOffset, field: "offset", limit: Int64(received))
        }
        guard offset + chunk.count <= upload.byteSize else {
            throw .validation(reason: .imageTooLarge, field: "data", limit: Int64(upload.byteSize))
        }
        let overlap = min(received - offset, chunk.count)
        guard upload.bytes[offset..<offset + overlap].elementsEqual(chunk[0..<overlap]) else {
            throw .validation(reason: .uploadOffset, field: "offset", limit: Int64(received))
        }
        upload.bytes.append(contentsOf: chunk[overlap...])
        uploads[id] = upload
        return upload
    }

    func finish(id: String) throws(DomainError) -> Upload {
        var upload = try unfinished(id)
        guard upload.bytes.count == upload.byteSize else {
            throw .validation(reason: .uploadIncomplete, field: "uploadId", limit: Int64(upload.bytes.count))
        }
        guard ImageFormat.inspect(upload.bytes) != nil else {
            uploads[id] = nil  // nothing an image could be made of: kept no longer
            throw .validation(reason: .unsupportedImage, field: "uploadId")
        }
        upload.finished = true
        uploads[id] = upload
        return upload
    }

    func discard(id: String) throws(DomainError) {
        guard uploads.removeValue(forKey: id) != nil else { throw .notFound(kind: "upload", id: id) }
    }

    /// The bytes of a finished upload, for an image input that names it.
    func bytes(of id: String, field: String) throws(DomainError) -> [UInt8] {
        guard let upload = uploads[id] else { throw .notFound(kind: "upload", id: id) }
        guard upload.finished else {
            throw .validation(reason: .uploadIncomplete, field: field, limit: Int64(upload.bytes.count))
        }
        return upload.bytes
    }

    /// Forgets uploads a request has used: once stored, an image is reused by its id.
    func remove(_ ids: [String]) {
        for id in ids { uploads[id] = nil }
    }

    private func unfinished(_ id: String) throws(DomainError) -> Upload {
        guard let upload = uploads[id] else { throw .notFound(kind: "upload", id: id) }
        guard !upload.finished else { throw .validation(reason: .uploadFinished, field: "uploadId") }
        return upload
    }
}
