import Domain
import Protocol

/// The Reddit-like board (SPEC §10).
enum BoardMethods {
    static let voterParam = ParamSpec.optional(
        "voter", Schema.string(minLength: 1),
        "Who is voting or asking; gives one vote per voter and `myVote`. With --sync the voter is always the account.")

    static func methods(store: DataStore) -> [RPCMethod] {
        let board = store.board
        // With sync, a device votes as its account: one vote per account and post, on every device.
        let voter = { (params: ParamValues) in store.sync.account ?? params.string("voter") }
        let idParam = Required.string("id", Schema.id, "The post's id.")
        let title = Required.string("title", Schema.string(), "The title.")
        let direction = Required<VoteRequest>(
            "direction", Schema.enumeration(["up", "down", "clear"]), "up, down or clear."
        ) { $0.stringValue.flatMap(VoteRequest.init(rawValue:)) }
        return [
            RPCMethod(
                "board.create", title: "Create a board post",
                summary: "Creates a Board post with a title of 1...255 characters (spaces alone are fine) and no votes. Returns the post; -32002 emptyTitle or titleTooLong.",
                params: [title.spec], result: BoardPost.schema
            ) { params, _ in
                try board.create(title: params[title]).json(withMyVote: false)
            },
            RPCMethod(
                "board.get", title: "Read a board post",
                summary: "Reads one Board post by its id: title, votes and score, and with a voter, `myVote`. -32001 when no post has that id.",
                params: [idParam.spec, voterParam], result: BoardPost.schema
            ) { params, _ in
                let voter = voter(params)
                return try board.get(id: params[idParam], voter: voter).json(withMyVote: voter != nil)
            },
            .delete(
                "board.delete", title: "Delete a board post",
                summary: "Deletes a Board post (with --sync, only one this account wrote). Returns {id, deleted: true}; -32001 when no post has that id; -32002 notAuthor for another account's.",
                id: idParam
            ) { id, _ in
                try store.sync.checkAuthor(.board, id)
                try board.delete(id: id)
            },
            RPCMethod(
                "board.vote", title: "Vote on a board post",
                summary: "Votes a Board post up or down; with a voter, one vote per voter (repeat: no-op, opposite: switch, clear: withdraw). Returns the post with its votes; -32001 when no post has that id.",
                params: [
                    idParam.spec, direction.spec, voterParam,
                ], result: BoardPost.schema
            ) { params, _ in
                let voter = voter(params)
                return try board.vote(id: params[idParam], params[direction], voter: voter).json(withMyVote: voter != nil)
            },
            RPCMethod(
                "board.list", title: "List board posts",
                summary: "Lists Board posts by votes (the default: most first, then by title), title, new, hot or best, in consistent pages. Returns {items, nextCursor}; pass `nextCursor` as `cursor` for the next page.",
                params: [
                    .optional("sort", Schema.enumeration(BoardSort.allCases.map(\.rawValue)), "The order (default votes).")
                ] + Schema.pageParams + [voterParam],
                result: Schema.page(of: BoardPost.schema)
            ) { params, _ in
                let voter = voter(params)
                let sort = params.string("sort").flatMap(BoardSort.init(rawValue:)) ?? .votes
                return try board.list(sort: sort, params.pageRequest, voter: voter).json {
                    $0.write(boardPost: $1, withMyVote: voter != nil)
                }
            },
        ]
    }
}
