import Domain
import Protocol

/// The Reddit-like board (SPEC §10).
enum BoardMethods {
    static let postSchema = Schema.object(
        [
            ("id", Schema.id), ("title", Schema.string()), ("votes", Schema.integer()), ("ups", Schema.integer(minimum: 0)),
            ("downs", Schema.integer(minimum: 0)), ("createdAt", Schema.timestamp), ("updatedAt", Schema.timestamp),
            ("revision", Schema.integer(minimum: 1)),
            ("myVote", Schema.nullable(Schema.enumeration(["up", "down"], description: "present when a voter asked"))),
        ], required: ["id", "title", "votes", "ups", "downs", "createdAt", "updatedAt", "revision"])

    static func post(_ post: BoardPost, voter: String?) -> JSONValue {
        .encoded(EncodedJSON(capacity: 256) { $0.write(boardPost: post, withMyVote: voter != nil) })
    }

    static let voterParam = ParamSpec.optional(
        "voter", Schema.string(minLength: 1), "Who is voting or asking; gives one vote per voter and `myVote`.")

    static func methods(store: DataStore) -> [RPCMethod] {
        let board = store.board
        let idParam = ParamSpec.required("id", Schema.id, "The post's id.")
        return [
            RPCMethod(
                "board.create", summary: "Creates a post (title 1...255 characters; spaces alone are fine).",
                params: [.required("title", Schema.string(), "The title.")], result: postSchema
            ) { params, _ in
                post(try board.create(title: params.string("title")!), voter: nil)
            },
            RPCMethod("board.get", summary: "One post.", params: [idParam, voterParam], result: postSchema) { params, _ in
                let voter = params.string("voter")
                return post(try board.get(id: params.string("id")!, voter: voter), voter: voter)
            },
            RPCMethod("board.delete", summary: "Deletes a post.", params: [idParam], result: Schema.deleted) { params, _ in
                let id = params.string("id")!
                try board.delete(id: id)
                return EntityJSON.deleted(id)
            },
            RPCMethod(
                "board.vote",
                summary: "Votes up or down; with a voter, one vote per voter (repeat: no-op, opposite: switch, clear: withdraw).",
                params: [
                    idParam, .required("direction", Schema.enumeration(["up", "down", "clear"]), "up, down or clear."),
                    voterParam,
                ], result: postSchema
            ) { params, _ in
                let voter = params.string("voter")
                let direction = VoteRequest(rawValue: params.string("direction")!)!
                return post(try board.vote(id: params.string("id")!, direction, voter: voter), voter: voter)
            },
            RPCMethod(
                "board.list",
                summary: "Posts by votes (default: votes desc, then title), title, new, hot or best, in consistent pages.",
                params: [
                    .optional("sort", Schema.enumeration(BoardSort.allCases.map(\.rawValue)), "The order (default votes).")
                ] + Schema.pageParams + [voterParam],
                result: Schema.page(of: postSchema)
            ) { params, _ in
                let voter = params.string("voter")
                let sort = params.string("sort").flatMap(BoardSort.init(rawValue:)) ?? .votes
                return EntityJSON.page(try board.list(sort: sort, params.pageRequest, voter: voter)) {
                    $0.write(boardPost: $1, withMyVote: voter != nil)
                }
            },
        ]
    }
}

extension JSONWriter {
    mutating func write(boardPost post: BoardPost, withMyVote: Bool) {
        writeRaw("{\"id\":")
        write(string: post.id)
        writeRaw(",\"title\":")
        write(string: post.title)
        writeRaw(",\"votes\":")
        write(integer: post.votes)
        writeRaw(",\"ups\":")
        write(integer: post.ups)
        writeRaw(",\"downs\":")
        write(integer: post.downs)
        writeRaw(",\"createdAt\":")
        write(timestamp: post.createdAt)
        writeRaw(",\"updatedAt\":")
        write(timestamp: post.updatedAt)
        writeRaw(",\"revision\":")
        write(integer: post.revision)
        if withMyVote {
            writeRaw(",\"myVote\":")
            write(optionalString: post.myVote?.rawValue)
        }
        writeByte(UInt8(ascii: "}"))
    }
}
