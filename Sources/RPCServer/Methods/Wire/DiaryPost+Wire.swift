import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

// A diary post on the wire: the whole post (`diary.get` and the rest) and its preview (`diary.list`), both
// dated in the session's time zone.

extension DiaryPost {
    /// Rows of image indexes, as the detail screen lays them out.
    static let layoutSchema = Schema.array(of: Schema.array(of: Schema.integer(minimum: 0, maximum: 3)))

    static let schema = Schema.object(
        allRequired: [
            ("id", Schema.id), ("text", Schema.nullable(Schema.string())),
            ("images", Schema.array(of: ImageRecord.schema, maxItems: 4)),
        ] + Schema.stamps + [
            ("displayDate", Schema.string(description: "dd/MM/yyyy HH:mm in the session's time zone")),
            ("layout", layoutSchema),
        ])

    func json(zone: TimeZoneRules) -> JSONValue {
        .encoded(
            EncodedJSON(capacity: 256 + (text?.utf8.count ?? 0) + 160 * images.count) { writer in
                writer.writeRaw("{\"id\":"); writer.write(string: id)
                writer.writeRaw(",\"text\":"); writer.write(optionalString: text)
                writer.writeRaw(",\"images\":"); writer.write(images: images)
                writer.write(createdAt: createdAt, updatedAt: updatedAt, revision: revision)
                writer.writeRaw(",\"displayDate\":")
                writer.write(string: DisplayDate.format(milliseconds: createdAt, in: zone))
                writer.writeRaw(",\"layout\":")
                writer.write(.array(layout.map { row in .array(row.map { .integer(Int64($0)) }) }))
                writer.writeByte(UInt8(ascii: "}"))
            })
    }
}

extension DiaryPreview {
    static let schema = Schema.object(allRequired: [
        ("id", Schema.id), ("displayDate", Schema.string()), ("createdAt", Schema.timestamp),
        ("excerpt", Schema.string(description: "at most 5 lines and 600 characters")), ("truncated", Schema.boolean),
        ("thumbnails", Schema.array(of: ImageRecord.schema, maxItems: 2)), ("imageCount", Schema.integer(minimum: 0)),
    ])
}

extension JSONWriter {
    mutating func write(preview: DiaryPreview, zone: TimeZoneRules) {
        writeRaw("{\"id\":"); write(string: preview.id)
        writeRaw(",\"displayDate\":"); write(string: DisplayDate.format(milliseconds: preview.createdAt, in: zone))
        writeRaw(",\"createdAt\":"); write(timestamp: preview.createdAt)
        writeRaw(",\"excerpt\":"); write(string: preview.excerpt)
        writeRaw(",\"truncated\":"); write(bool: preview.truncated)
        writeRaw(",\"thumbnails\":"); write(images: preview.thumbnails)
        writeRaw(",\"imageCount\":"); write(integer: Int64(preview.imageCount))
        writeByte(UInt8(ascii: "}"))
    }
}
