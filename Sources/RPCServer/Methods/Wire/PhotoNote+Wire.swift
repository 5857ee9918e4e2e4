import Domain
import Protocol

// A photo note on the wire: what `photos.*` answer, its image's metadata inline.

extension PhotoNote {
    static let schema = Schema.object(
        allRequired: [("id", Schema.id), ("image", ImageRecord.schema), ("caption", Schema.nullable(Schema.string()))]
            + Schema.stamps)

    var json: JSONValue {
        .encoded(EncodedJSON(capacity: 384) { $0.write(photo: self) })
    }
}

extension JSONWriter {
    mutating func write(photo: PhotoNote) {
        writeRaw("{\"id\":"); write(string: photo.id)
        writeRaw(",\"image\":"); write(image: photo.image)
        writeRaw(",\"caption\":"); write(optionalString: photo.caption)
        write(createdAt: photo.createdAt, updatedAt: photo.updatedAt, revision: photo.revision)
        writeByte(UInt8(ascii: "}"))
    }
}
