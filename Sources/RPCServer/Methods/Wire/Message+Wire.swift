import Domain
import Protocol

// A chat message on the wire: what `messages.*` answer.

extension Message {
    static let schema = Schema.object(allRequired: [
        ("id", Schema.id), ("text", Schema.string()), ("sentAt", Schema.timestamp),
        ("author", Schema.object(allRequired: [
            ("name", Schema.string()), ("avatarUrl", Schema.nullable(Schema.string(format: "uri"))),
        ])),
        ("origin", Schema.enumeration(["local", "remote"])),
    ])

    var json: JSONValue {
        .encoded(EncodedJSON(capacity: 192 + text.utf8.count) { $0.write(message: self) })
    }
}

extension JSONWriter {
    mutating func write(message: Message) {
        writeRaw("{\"id\":"); write(string: message.id)
        writeRaw(",\"text\":"); write(string: message.text)
        writeRaw(",\"sentAt\":"); write(timestamp: message.sentAt)
        writeRaw(",\"author\":{\"name\":"); write(string: message.author.name)
        writeRaw(",\"avatarUrl\":"); write(optionalString: message.author.avatarURL)
        writeRaw("},\"origin\":"); write(string: message.origin.rawValue)
        writeByte(UInt8(ascii: "}"))
    }
}
