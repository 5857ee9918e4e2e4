import Domain
import Protocol

// A board post on the wire: what `board.*` answer, `myVote` only when a voter asked.

extension BoardPost {
    static let schema = Schema.object(
        allRequired: [
            ("id", Schema.id), ("title", Schema.string()), ("votes", Schema.integer()),
            ("ups", Schema.integer(minimum: 0)), ("downs", Schema.integer(minimum: 0)),
        ] + Schema.stamps + [
            ("myVote", Schema.nullable(Schema.enumeration(["up", "down"], description: "present when a voter asked")))
        ], except: ["myVote"])

    func json(withMyVote: Bool) -> JSONValue {
        .encoded(EncodedJSON(capacity: 256) { $0.write(boardPost: self, withMyVote: withMyVote) })
    }
}

extension JSONWriter {
    mutating func write(boardPost post: BoardPost, withMyVote: Bool) {
        writeRaw("{\"id\":"); write(string: post.id)
        writeRaw(",\"title\":"); write(string: post.title)
        writeRaw(",\"votes\":"); write(integer: post.votes)
        writeRaw(",\"ups\":"); write(integer: post.ups)
        writeRaw(",\"downs\":"); write(integer: post.downs)
        write(createdAt: post.createdAt, updatedAt: post.updatedAt, revision: post.revision)
        if withMyVote {
            writeRaw(",\"myVote\":"); write(optionalString: post.myVote?.rawValue)
        }
        writeByte(UInt8(ascii: "}"))
    }
}
