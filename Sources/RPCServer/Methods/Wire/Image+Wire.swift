import Domain
import Protocol

// An image on the wire: a stored image's metadata as answers carry it, and how a client hands one over.

extension ImageRecord {
    static let schema = Schema.object(allRequired: [
        ("id", Schema.id), ("mimeType", Schema.string()), ("byteSize", Schema.integer(minimum: 0)),
        ("width", Schema.integer(minimum: 1)), ("height", Schema.integer(minimum: 1)), ("sha256", Schema.string()),
        ("sizes", Schema.array(of: Schema.enumeration(ImageRecord.sizes))),
    ])

    /// What `images.get` answers: the image, the bytes of the size asked for in base64, and that rendition.
    static let storedSchema = Schema.object(
        [
            ("image", schema), ("data", Schema.string(description: "base64")),
            (
                "rendition",
                Schema.object(allRequired: [
                    ("size", Schema.enumeration(sizes)), ("mimeType", Schema.string()),
                    ("width", Schema.integer(minimum: 1)), ("height", Schema.integer(minimum: 1)),
                    ("byteSize", Schema.integer(minimum: 0)),
                ])
            ),
        ],
        required: ["image", "data", "rendition"])

    var json: JSONValue {
        .encoded(EncodedJSON(capacity: 192) { $0.write(image: self) })
    }
}

extension ImageInput {
    static let schema = Schema.anyOf(
        [
            Schema.object(
                [("data", Schema.string(description: "base64")), ("mimeType", Schema.string())], required: ["data"]),
            Schema.object([("path", Schema.string(description: "absolute path"))], required: ["path"]),
            Schema.object([("imageId", Schema.id)], required: ["imageId"]),
            Schema.object([("uploadId", Schema.id)], required: ["uploadId"]),
        ], expected: "an image: {data: base64, mimeType?}, {path: absolute path}, {imageId} or {uploadId}")

    /// The `images` param of a diary post, each checked as ``init(_:session:field:)`` does.
    static func list(_ values: [JSONValue], session: Session) throws(DomainError) -> [ImageInput] {
        var inputs: [ImageInput] = []
        for (index, value) in values.enumerated() {
            inputs.append(try ImageInput(value, session: session, field: "images[\(index)]"))
        }
        return inputs
    }

    /// An image input already checked against ``schema``; a path must be one the session's file access
    /// allows, an upload one of its finished uploads (`field` names the input in errors: `image`,
    /// `images[2]`).
    init(_ value: JSONValue, session: Session, field: String) throws(DomainError) {
        if let data = value["data"]?.stringValue {
            self = .data(base64: data, claimedMimeType: value["mimeType"]?.stringValue)
        } else if let path = value["path"]?.stringValue {
            self = .path(try session.fileAccess.readable(path, field: field + ".path"))
        } else if let upload = value["uploadId"]?.stringValue {
            self = .bytes(try session.uploads.bytes(of: upload, field: field + ".uploadId"))
        } else {
            self = .reuse(id: value["imageId"]?.stringValue ?? "")
        }
    }

    /// The uploads `values` (image inputs) name: once the request has stored them, they are let go.
    static func uploads(in values: [JSONValue]) -> [String] {
        values.compactMap { $0["uploadId"]?.stringValue }
    }
}

extension JSONWriter {
    mutating func write(image: ImageRecord) {
        writeRaw("{\"id\":"); write(string: image.id)
        writeRaw(",\"mimeType\":"); write(string: image.mimeType)
        writeRaw(",\"byteSize\":"); write(integer: Int64(image.byteSize))
        writeRaw(",\"width\":"); write(integer: Int64(image.width))
        writeRaw(",\"height\":"); write(integer: Int64(image.height))
        writeRaw(",\"sha256\":"); write(string: image.sha256)
        writeRaw(",\"sizes\":"); write(array: ImageRecord.sizes) { $0.write(string: $1) }
        writeByte(UInt8(ascii: "}"))
    }

    mutating func write(images: [ImageRecord]) {
        write(array: images) { $0.write(image: $1) }
    }
}
