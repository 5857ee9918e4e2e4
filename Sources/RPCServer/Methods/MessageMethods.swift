import Domain
import Protocol

/// The chat Message list (SPEC §9).
enum MessageMethods {
    static func methods(store: DataStore) -> [RPCMethod] {
        let messages = store.messages
        let idParam = Required.string("id", Schema.id, "The message's id.")
        let text = Required.string("text", Schema.string(), "The text: not blank, at most 10,000 characters.")
        return [
            RPCMethod(
                "messages.list", title: "List chat messages",
                summary: "Lists the stored chat messages, newest first (index 0 is the bottom of the chat), a page at a time; older ones come from messages.loadMore. Returns {items, nextCursor}.",
                params: Schema.pageParams, result: Schema.page(of: Message.schema)
            ) { params, _ in
                try messages.list(params.pageRequest).json { $0.write(message: $1) }
            },
            RPCMethod.waitingOnNetwork(
                "messages.loadMore", title: "Load older chat messages",
                summary: "The user scrolled to the top: fetches, stores and returns the next older batch from the feed, as {items, endOfHistory}. Answered when the feed answers: later requests are not held back (match the answer by id); `notifications/cancelled` ends the wait with -32800. -32004 when the feed cannot be reached.",
                params: [.optional("limit", Schema.integer(minimum: 1, maximum: 500), "How many to ask for (default 20).")],
                result: Schema.object(
                    [("items", Schema.array(of: Message.schema)), ("endOfHistory", Schema.boolean)],
                    required: ["items", "endOfHistory"])
            ) { params, session in
                let limit = params.integer("limit").map { Int($0) } ?? 20
                return NetworkSteps(
                    start: {
                        session.report(0, total: limit, message: "asking the feed")
                        return try messages.startLoad(limit: limit)
                    },
                    wait: { load, cancellation throws(DomainError) in try load.fetch(cancellation) },
                    finish: { load, batch in
                        let (items, end) = try messages.finishLoad(load, batch)
                        session.report(limit, total: limit, message: "\(items.count) stored")
                        return ["items": .array(items.map(\.json)), "endOfHistory": .bool(end)]
                    })
            }.raising(.upstreamUnavailable),
            RPCMethod(
                "messages.send", title: "Send a chat message",
                summary: "Stores a message from the local user as the newest one. Returns the message; -32002 emptyMessage when the text is blank, messageTooLong past 10,000 characters.",
                params: [text.spec],
                result: Message.schema
            ) { params, _ in
                try messages.send(text: params[text]).json
            },
            RPCMethod(
                "messages.get", title: "Read a chat message",
                summary: "Reads one chat message by its id: author, text and times. -32001 when no message has that id.",
                params: [idParam.spec], result: Message.schema
            ) { params, _ in
                try messages.get(id: params[idParam]).json
            },
            .delete(
                "messages.delete", title: "Delete a chat message",
                summary: "Deletes a chat message (with --sync, only one this account sent). Returns {id, deleted: true}; -32001 when no message has that id; -32002 notAuthor for another account's.",
                id: idParam
            ) { id, _ in
                try store.sync.checkAuthor(.messages, id)
                try messages.delete(id: id)
            },
        ]
    }
}
