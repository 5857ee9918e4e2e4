import Domain
import Protocol

/// How domain values look on the wire, and the JSON Schemas that describe them.
enum EntityJSON {
    static func timestamp(_ milliseconds: Int64) -> JSONValue { .string(Timestamp.format(milliseconds: milliseconds)) }

    static func color(_ color: HSBColor) -> JSONValue {
        [
            "hue": .number(color.hue), "saturation": .number(color.saturation), "brightness": .number(color.brightness),
            "hex": .string(color.hex),
        ]
    }

    static func note(_ note: Note) -> JSONValue {
        [
            "id": .string(note.id), "title": .string(note.title), "content": .string(note.content),
            "color": color(note.color), "deadline": note.deadline.map(timestamp) ?? .null,
            "createdAt": timestamp(note.createdAt), "updatedAt": timestamp(note.updatedAt),
            "revision": .integer(note.revision),
        ]
    }

    static func image(_ image: ImageRecord) -> JSONValue {
        [
            "id": .string(image.id), "mimeType": .string(image.mimeType), "byteSize": .integer(Int64(image.byteSize)),
            "width": .integer(Int64(image.width)), "height": .integer(Int64(image.height)),
            "sha256": .string(image.sha256),
        ]
    }

    static func photo(_ photo: PhotoNote) -> JSONValue {
        [
            "id": .string(photo.id), "image": image(photo.image), "caption": photo.caption.map { .string($0) } ?? .null,
            "createdAt": timestamp(photo.createdAt), "updatedAt": timestamp(photo.updatedAt),
            "revision": .integer(photo.revision),
        ]
    }

    static func page<Item>(_ page: Page<Item>, _ encode: (Item) -> JSONValue) -> JSONValue {
        ["items": .array(page.items.map(encode)), "nextCursor": page.nextCursor.map { .string($0) } ?? .null]
    }

    static func deleted(_ id: String) -> JSONValue { ["id": .string(id), "deleted": true] }

    // MARK: Schemas

    static let colorSchema = Schema.object(
        [
            ("hue", Schema.number(description: "0...1")), ("saturation", Schema.number(description: "0...1")),
            ("brightness", Schema.number(description: "0...1")), ("hex", Schema.string(description: "#RRGGBB, derived")),
        ], required: ["hue", "saturation", "brightness", "hex"])

    /// The colour a client sends: the HSB triple (a `hex` it echoes back is accepted and ignored).
    static let colorInputSchema = Schema.object(
        [
            ("hue", Schema.number(description: "0...1")), ("saturation", Schema.number(description: "0...1")),
            ("brightness", Schema.number(description: "0...1")), ("hex", Schema.string(description: "ignored")),
        ], required: ["hue", "saturation", "brightness"])

    static let noteSchema = Schema.object(
        [
            ("id", Schema.id), ("title", Schema.string()), ("content", Schema.string()), ("color", colorSchema),
            ("deadline", Schema.nullable(Schema.timestamp)), ("createdAt", Schema.timestamp),
            ("updatedAt", Schema.timestamp), ("revision", Schema.integer(minimum: 1)),
        ], required: ["id", "title", "content", "color", "deadline", "createdAt", "updatedAt", "revision"])

    static let imageSchema = Schema.object(
        [
            ("id", Schema.id), ("mimeType", Schema.string()), ("byteSize", Schema.integer(minimum: 0)),
            ("width", Schema.integer(minimum: 1)), ("height", Schema.integer(minimum: 1)), ("sha256", Schema.string()),
        ], required: ["id", "mimeType", "byteSize", "width", "height", "sha256"])

    static let imageInputSchema = Schema.anyOf(
        [
            Schema.object(
                [("data", Schema.string(description: "base64")), ("mimeType", Schema.string())], required: ["data"]),
            Schema.object([("path", Schema.string(description: "absolute path"))], required: ["path"]),
            Schema.object([("imageId", Schema.id)], required: ["imageId"]),
        ], expected: "an image: {data: base64, mimeType?}, {path: absolute path} or {imageId}")

    static let photoSchema = Schema.object(
        [
            ("id", Schema.id), ("image", imageSchema), ("caption", Schema.nullable(Schema.string())),
            ("createdAt", Schema.timestamp), ("updatedAt", Schema.timestamp), ("revision", Schema.integer(minimum: 1)),
        ], required: ["id", "image", "caption", "createdAt", "updatedAt", "revision"])

    // MARK: Inputs

    /// An image input already checked against ``imageInputSchema``.
    static func imageInput(_ value: JSONValue) -> ImageInput {
        if let data = value["data"]?.stringValue { return .data(base64: data, claimedMimeType: value["mimeType"]?.stringValue) }
        if let path = value["path"]?.stringValue { return .path(path) }
        return .reuse(id: value["imageId"]?.stringValue ?? "")
    }

    /// A colour input already checked against ``colorInputSchema``.
    static func colorInput(_ value: JSONValue, field: String) throws(DomainError) -> HSBColor {
        try HSBColor(
            hue: value["hue"]?.doubleValue ?? .nan, saturation: value["saturation"]?.doubleValue ?? .nan,
            brightness: value["brightness"]?.doubleValue ?? .nan, field: field)
    }
}

extension ParamValues {
    /// `limit` and `cursor`.
    var pageRequest: PageRequest {
        PageRequest(limit: integer("limit").map { Int($0) } ?? PageRequest.defaultLimit, cursor: string("cursor"))
    }

    /// A timestamp param already checked to be RFC 3339, as milliseconds.
    func timestamp(_ name: String) -> Int64? {
        string(name).flatMap(Timestamp.parse)
    }
}
