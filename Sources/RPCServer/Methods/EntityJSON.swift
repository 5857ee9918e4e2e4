import Domain
import Protocol

/// The wire form of each entity, written straight into the output (no value tree on the hot path).
extension JSONWriter {
    mutating func write(timestamp milliseconds: Int64) {
        writeDirectly(maximum: 26) { destination in
            destination[0] = UInt8(ascii: "\"")
            Timestamp.write(milliseconds: milliseconds, to: destination + 1)
            destination[25] = UInt8(ascii: "\"")
            return 26
        }
    }

    mutating func write(optionalTimestamp milliseconds: Int64?) {
        if let milliseconds { write(timestamp: milliseconds) } else { writeRaw("null") }
    }

    mutating func write(color: HSBColor) {
        writeRaw("{\"hue\":")
        write(number: color.hue)
        writeRaw(",\"saturation\":")
        write(number: color.saturation)
        writeRaw(",\"brightness\":")
        write(number: color.brightness)
        writeRaw(",\"hex\":")
        write(string: color.hex)
        writeByte(UInt8(ascii: "}"))
    }

    mutating func write(note: Note) {
        writeRaw("{\"id\":")
        write(string: note.id)
        writeRaw(",\"title\":")
        write(string: note.title)
        writeRaw(",\"content\":")
        write(string: note.content)
        writeRaw(",\"color\":")
        write(color: note.color)
        writeRaw(",\"deadline\":")
        write(optionalTimestamp: note.deadline)
        writeRaw(",\"createdAt\":")
        write(timestamp: note.createdAt)
        writeRaw(",\"updatedAt\":")
        write(timestamp: note.updatedAt)
        writeRaw(",\"revision\":")
        write(integer: note.revision)
        writeByte(UInt8(ascii: "}"))
    }

    mutating func write(image: ImageRecord) {
        writeRaw("{\"id\":")
        write(string: image.id)
        writeRaw(",\"mimeType\":")
        write(string: image.mimeType)
        writeRaw(",\"byteSize\":")
        write(integer: Int64(image.byteSize))
        writeRaw(",\"width\":")
        write(integer: Int64(image.width))
        writeRaw(",\"height\":")
        write(integer: Int64(image.height))
        writeRaw(",\"sha256\":")
        write(string: image.sha256)
        writeByte(UInt8(ascii: "}"))
    }

    /// `[image, …]`
    mutating func write(images: [ImageRecord]) {
        writeByte(UInt8(ascii: "["))
        for (index, image) in images.enumerated() {
            if index > 0 { writeByte(UInt8(ascii: ",")) }
            write(image: image)
        }
        writeByte(UInt8(ascii: "]"))
    }

    mutating func write(photo: PhotoNote) {
        writeRaw("{\"id\":")
        write(string: photo.id)
        writeRaw(",\"image\":")
        write(image: photo.image)
        writeRaw(",\"caption\":")
        write(optionalString: photo.caption)
        writeRaw(",\"createdAt\":")
        write(timestamp: photo.createdAt)
        writeRaw(",\"updatedAt\":")
        write(timestamp: photo.updatedAt)
        writeRaw(",\"revision\":")
        write(integer: photo.revision)
        writeByte(UInt8(ascii: "}"))
    }

    mutating func write(reminder: Reminder) {
        writeRaw("{\"id\":")
        write(string: reminder.id)
        writeRaw(",\"title\":")
        write(string: reminder.title)
        writeRaw(",\"memo\":")
        write(optionalString: reminder.memo)
        writeRaw(",\"completed\":")
        write(bool: reminder.completed)
        writeRaw(",\"completedAt\":")
        write(optionalTimestamp: reminder.completedAt)
        writeRaw(",\"createdAt\":")
        write(timestamp: reminder.createdAt)
        writeRaw(",\"updatedAt\":")
        write(timestamp: reminder.updatedAt)
        writeRaw(",\"revision\":")
        write(integer: reminder.revision)
        writeRaw(",\"editing\":")
        write(bool: reminder.editing)
        writeRaw(",\"memoVisible\":")
        write(bool: reminder.memoVisible)
        writeByte(UInt8(ascii: "}"))
    }
}

/// How domain values look on the wire, and the JSON Schemas that describe them.
enum EntityJSON {
    static func note(_ note: Note) -> JSONValue {
        .encoded(EncodedJSON(capacity: 256 + note.content.utf8.count) { $0.write(note: note) })
    }

    static func image(_ image: ImageRecord) -> JSONValue {
        .encoded(EncodedJSON(capacity: 192) { $0.write(image: image) })
    }

    static func photo(_ photo: PhotoNote) -> JSONValue {
        .encoded(EncodedJSON(capacity: 384) { $0.write(photo: photo) })
    }

    /// `{items, nextCursor}`, written in one go.
    static func page<Item>(_ page: Page<Item>, _ write: (inout JSONWriter, Item) -> Void) -> JSONValue {
        .encoded(
            EncodedJSON(capacity: 64 + 256 * page.items.count) { writer in
                writer.writeRaw("{\"items\":[")
                for (index, item) in page.items.enumerated() {
                    if index > 0 { writer.writeByte(UInt8(ascii: ",")) }
                    write(&writer, item)
                }
                writer.writeRaw("],\"nextCursor\":")
                writer.write(optionalString: page.nextCursor)
                writer.writeByte(UInt8(ascii: "}"))
            })
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
