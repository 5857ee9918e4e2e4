#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Imaging
import Synchronization

/// How a client hands over an image (SPEC §6).
public enum ImageInput: Sendable, Equatable {
    /// Base64 bytes; a claimed MIME type is ignored in favour of the magic bytes.
    case data(base64: String, claimedMimeType: String?)
    /// An absolute path of a readable regular file on this machine.
    case path(String)
    /// An image already stored.
    case reuse(id: String)
    /// Bytes the server already holds (an upload that arrived in chunks).
    case bytes([UInt8])
}

/// A stored image's metadata (the bytes are fetched separately). `width` and `height` are as a person sees
/// the picture: after the orientation its camera recorded.
public struct ImageRecord: Sendable, Equatable {
    public var id: String
    public var mimeType: String
    public var byteSize: Int
    public var width: Int
    public var height: Int
    public var sha256: String

    /// The sizes `images.get` serves: every image has all of them (a rendition missing is made on demand).
    public static let sizes = ["thumbnail", "display", "original"]
}

/// One size of a stored image as `images.get` serves it.
public struct ImageSize: Sendable, Equatable {
    /// `thumbnail`, `display` or `original`.
    public var size: String
    public var mimeType: String
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]
}

/// An image input that has been read, checked and hashed, ready to be attached inside a transaction.
public enum PreparedImage: Sendable {
    case existing(id: String)
    case new(bytes: [UInt8], format: ImageFormat, width: Int, height: Int, sha256: String, renditions: [Rendition])
}

/// Stores images once per content (SHA-256) and counts their owners; an image whose last owner lets go
/// is deleted in the same transaction.
public final class ImageStore: Store {
    /// The largest image accepted, in bytes.
    public let maximumBytes: Int

    init(_ context: StoreContext, maximumBytes: Int) {
        self.maximumBytes = maximumBytes
        super.init(context)
    }

    /// Reads, sniffs and hashes `input` (outside any transaction: this is the slow part).
    /// `field` names the input in errors (`image`, `images[2]`).
    public func prepare(_ input: ImageInput, field: String) throws(DomainError) -> PreparedImage {
        try Self.prepare(input, field: field, maximumBytes: maximumBytes)
    }

    /// Prepares each input at the same time, one per core (decoding is most of the time a photo takes);
    /// a failure is reported for the first input that failed, as one after the other would.
    public func prepare(_ inputs: [ImageInput], fields: (Int) -> String) throws(DomainError) -> [PreparedImage] {
        if inputs.count == 1 { return [try prepare(inputs[0], field: fields(0))] }
        let maximumBytes = maximumBytes
        let named = inputs.indices.map { (inputs[$0], fields($0)) }
        let results = Mutex([Result<PreparedImage, DomainError>?](repeating: nil, count: inputs.count))
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            let (input, field) = named[index]
            let result = Result { () throws(DomainError) in
                try Self.prepare(input, field: field, maximumBytes: maximumBytes)
            }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { result throws(DomainError) in try result!.get() }
    }

    /// Checks and prepares image bytes that came from elsewhere (another device, through sync) as a
    /// person's are: any thread.
    public static func prepare(bytes: [UInt8], maximumBytes: Int) throws(DomainError) -> PreparedImage {
        try prepare(.bytes(bytes), field: "image", maximumBytes: maximumBytes)
    }

    private static func prepare(_ input: ImageInput, field: String, maximumBytes: Int) throws(DomainError)
        -> PreparedImage
    {
        let bytes: [UInt8]
        let source: String
        switch input {
        case .reuse(let id):
            return .existing(id: id)
        case .data(let base64, _):
            source = field + ".data"
            // Four base64 characters carry three bytes: refuse what is surely too large before decoding it.
            let characters = base64.utf8.reduce(0) { count, byte in Self.isBase64WhiteSpace(byte) ? count : count + 1 }
            if characters / 4 * 3 > maximumBytes + 2 {
                throw .validation(reason: .imageTooLarge, field: source, limit: Int64(maximumBytes))
            }
            guard Self.isBase64(base64), let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters)
            else {
                throw .validation(reason: .invalidBase64, field: source)
            }
            bytes = [UInt8](data)
        case .path(let path):
            source = field + ".path"
            bytes = try readFile(path, field: source, maximumBytes: maximumBytes)
        case .bytes(let held):
            source = field + ".uploadId"
            bytes = held
        }
        guard bytes.count <= maximumBytes else {
            throw .validation(reason: .imageTooLarge, field: source, limit: Int64(maximumBytes))
        }
        guard let (format, _, _) = ImageFormat.inspect(bytes) else {
            throw .validation(reason: .unsupportedImage, field: field)
        }
        // The whole image is decoded once here: a damaged one is refused now rather than shown broken later,
        // and what that decode makes at once (the thumbnail, at least) is ready before the transaction that
        // stores it. A JPEG's display size is made when first asked for.
        let made = try renditions(of: bytes, format: format, sizes: Rendition.sizesMadeTogether(format.sourceKind),
            field: field)
        return .new(
            bytes: bytes, format: format, width: made.width, height: made.height, sha256: SHA256.hexDigest(bytes),
            renditions: made.renditions)
    }

    /// Limits for decoding: the most pixels of a photo any camera makes, with room to spare.
    static let decodeLimits = DecodeLimits()

    private static func renditions(of bytes: [UInt8], format: ImageFormat, sizes: [Rendition.Size], field: String)
        throws(DomainError) -> RenditionSet
    {
        do {
            return try Rendition.make(from: bytes, kind: format.sourceKind, sizes: sizes, limits: decodeLimits)
        } catch {
            switch error {
            case .tooManyPixels:
                let limit = format == .jpeg ? decodeLimits.maximumJPEGPixels : decodeLimits.maximumPixels
                throw .validation(reason: .imageTooManyPixels, field: field, limit: Int64(limit >> 20))
            case .corrupt:
                throw .validation(reason: .damagedImage, field: field)
            }
        }
    }

    private static func isBase64WhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Standard base64 (white space allowed), nothing else.
    private static func isBase64(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
                0x20, 0x0A, 0x0D, 0x09:
                return true
            default:
                return false
            }
        }
    }

    private static func readFile(_ path: String, field: String, maximumBytes: Int) throws(DomainError) -> [UInt8] {
        guard path.hasPrefix("/") else { throw .validation(reason: .imagePathNotAbsolute, field: field) }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .validation(reason: .imageUnreadable, field: field)
        }
        guard Int(info.st_size) <= maximumBytes else {
            throw .validation(reason: .imageTooLarge, field: field, limit: Int64(maximumBytes))
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw .validation(reason: .imageUnreadable, field: field)
        }
        guard data.count <= maximumBytes else {
            throw .validation(reason: .imageTooLarge, field: field, limit: Int64(maximumBytes))
        }
        return [UInt8](data)
    }

    private lazy var addOwner = Prepared(database, "UPDATE images SET owners = owners + 1 WHERE id = ?1")
    private lazy var insert = Prepared(
        database,
        """
        INSERT INTO images(id, sha256, mime_type, byte_size, width, height, data, owners, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8)
        """)

    /// Takes one more owner of the prepared image, storing it if its content is new. Runs inside the
    /// owner's transaction.
    func attach(_ image: PreparedImage) throws -> ImageRecord {
        switch image {
        case .existing(let id):
            guard let record = try find(id: id) else { throw DomainError.notFound(kind: "image", id: id) }
            try addOwner.run([.text(id)])
            return record
        case .new(let bytes, let format, let width, let height, let sha256, let renditions):
            if let existing = try find(sha256: sha256) {
                try addOwner.run([.text(existing.id)])
                return existing
            }
            let id = ids.makeID(kind: "img")
            let now = clock.nowMilliseconds()
            try insert.run(
                [
                    .text(id), .text(sha256), .text(format.mimeType), .integer(Int64(bytes.count)),
                    .integer(Int64(width)), .integer(Int64(height)), .blob(bytes), .integer(now),
                ])
            try keep(renditions, of: id)
            try changes.record(.images, .created, id: id, at: now)
            return ImageRecord(
                id: id, mimeType: format.mimeType, byteSize: bytes.count, width: width, height: height, sha256: sha256)
        }
    }

    private lazy var dropOwner = Prepared(database, "UPDATE images SET owners = owners - 1 WHERE id = ?1")
    private lazy var selectOwners = Prepared(database, "SELECT owners FROM images WHERE id = ?1")
    private lazy var delete = Prepared(database, "DELETE FROM images WHERE id = ?1")

    /// Lets go of one owner's hold; the image is deleted when no owner is left. Runs inside a transaction.
    func detach(id: String) throws {
        try dropOwner.run([.text(id)])
        let owners = try selectOwners.integer([.text(id)])
        if let owners, owners <= 0 {
            try delete.run([.text(id)])
            try deleteRenditions.run([.text(id)])
            try changes.record(.images, .deleted, id: id, at: clock.nowMilliseconds())
        }
    }

    /// The image's metadata.
    public func get(id: String) throws(DomainError) -> ImageRecord {
        guard let record = try storage({ try find(id: id) }) else { throw .notFound(kind: "image", id: id) }
        return record
    }

    private lazy var selectData = Prepared(database, "SELECT data FROM images WHERE id = ?1")

    /// The image's metadata and bytes.
    public func data(id: String) throws(DomainError) -> (ImageRecord, [UInt8]) {
        let record = try get(id: id)
        let bytes = try storage {
            try selectData.first([.text(id)]) { $0.blob(0) } ?? []
        }
        return (record, bytes)
    }

    private lazy var insertRendition = Prepared(
        database,
        """
        INSERT OR REPLACE INTO image_renditions(image_id, size, mime_type, width, height, data)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        """)
    private lazy var deleteRenditions = Prepared(database, "DELETE FROM image_renditions WHERE image_id = ?1")
    private lazy var selectRendition = Prepared(
        database, "SELECT mime_type, width, height, data FROM image_renditions WHERE image_id = ?1 AND size = ?2")
    private lazy var updateSize = Prepared(database, "UPDATE images SET width = ?2, height = ?3 WHERE id = ?1")

    func keep(_ renditions: [Rendition], of id: String) throws {
        for rendition in renditions {
            try insertRendition.run(
                [
                    .text(id), .text(rendition.size.rawValue), .text(rendition.mimeType),
                    .integer(Int64(rendition.width)), .integer(Int64(rendition.height)), .blob(rendition.bytes),
                ])
        }
    }

    /// One size of the image: the original byte for byte, or a rendition (made now and kept if there is none
    /// yet: a JPEG's display size until it is first asked for, or any size of an image stored before
    /// renditions existed, or imported).
    public func size(id: String, _ size: String) throws(DomainError) -> (ImageRecord, ImageSize) {
        guard let wanted = Rendition.Size(rawValue: size) else {
            let (record, bytes) = try data(id: id)
            return (
                record,
                ImageSize(
                    size: "original", mimeType: record.mimeType, width: record.width, height: record.height,
                    bytes: bytes)
            )
        }
        let record = try get(id: id)
        let kept = try storage {
            try selectRendition.first([.text(id), .text(wanted.rawValue)]) { row in
                ImageSize(
                    size: wanted.rawValue, mimeType: row.text(0), width: Int(row.int64(1)), height: Int(row.int64(2)),
                    bytes: row.blob(3))
            }
        }
        if let kept { return (record, kept) }
        let (_, bytes) = try data(id: id)
        guard let format = ImageFormat.inspect(bytes)?.format else {
            throw .validation(reason: .unsupportedImage, field: "id")
        }
        // What one decode makes at once, or (a JPEG's display size) only the size asked for.
        let together = Rendition.sizesMadeTogether(format.sourceKind)
        let made = try Self.renditions(
            of: bytes, format: format, sizes: together.contains(wanted) ? together : [wanted], field: "id")
        var upright = record
        (upright.width, upright.height) = (made.width, made.height)
        try storage {
            try group.transaction {
                guard try find(id: id) != nil else { return }  // deleted meanwhile: keep nothing
                try keep(made.renditions, of: id)
                try updateSize.run([.text(id), .integer(Int64(made.width)), .integer(Int64(made.height))])
            }
        }
        let rendition = made.renditions.first { $0.size == wanted }!
        return (
            upright,
            ImageSize(
                size: wanted.rawValue, mimeType: rendition.mimeType, width: rendition.width, height: rendition.height,
                bytes: rendition.bytes)
        )
    }

    /// How many images are stored.
    public func count() throws(DomainError) -> Int {
        try storage { try counts.rows(of: "images") }
    }

    static let columns = "id, mime_type, byte_size, width, height, sha256"

    static func record(_ row: Statement, from column: Int32 = 0) -> ImageRecord {
        ImageRecord(
            id: row.text(column), mimeType: row.text(column + 1), byteSize: Int(row.int64(column + 2)),
            width: Int(row.int64(column + 3)), height: Int(row.int64(column + 4)), sha256: row.text(column + 5))
    }

    private lazy var selectByID = Prepared(database, "SELECT \(Self.columns) FROM images WHERE id = ?1")

    func find(id: String) throws -> ImageRecord? {
        try selectByID.first([.text(id)]) {
            Self.record($0)
        }
    }

    private lazy var selectBySHA256 = Prepared(database, "SELECT \(Self.columns) FROM images WHERE sha256 = ?1")

    func find(sha256: String) throws -> ImageRecord? {
        try selectBySHA256.first([.text(sha256)]) {
            Self.record($0)
        }
    }
}
