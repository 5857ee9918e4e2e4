import Domain
import Protocol

/// What a connection asked to be told about (`changes.subscribe`).
final class ChangeSubscription {
    /// `nil`: every domain.
    let domains: Set<ChangeDomain>?
    /// The newest event already delivered.
    var lastSequence: Int64

    init(domains: Set<ChangeDomain>?, lastSequence: Int64) {
        self.domains = domains
        self.lastSequence = lastSequence
    }
}

/// The change feed (SPEC §11): `changes.since`, `changes.subscribe`, `changes.unsubscribe`.
enum ChangeMethods {
    static func cursor(_ sequence: Int64) -> String { ChangeLog.cursor(after: sequence) }

    static func methods(store: DataStore) -> [RPCMethod] {
        let changes = store.changes
        return [
            RPCMethod(
                "changes.since", title: "Read what changed",
                summary: "Lists the committed changes after a cursor, oldest first, each {seq, at, domain, kind, id}; without a cursor, none and the current cursor to start from. Returns {events, nextCursor, hasMore}.",
                params: [
                    .optional("cursor", Schema.string(), "Where the last call (or changes.subscribe) left off."),
                    .optional("limit", Schema.integer(minimum: 1, maximum: 1000), "At most this many events (default 100)."),
                ],
                result: Schema.object(
                    [
                        ("events", Schema.array(of: ChangeEvent.schema)), ("nextCursor", Schema.string()),
                        ("hasMore", Schema.boolean),
                    ],
                    required: ["events", "nextCursor", "hasMore"])
            ) { params, _ in
                guard let given = params.string("cursor") else {
                    return ["events": [], "nextCursor": .string(cursor(try changes.latestSequence())), "hasMore": false]
                }
                let after = try ChangeLog.sequence(of: given)
                let limit = Int(params.integer("limit") ?? 100)
                var events = try changes.events(after: after, limit: limit + 1)
                let more = events.count > limit
                if more { events.removeLast() }
                let next = events.last?.sequence ?? after
                return .encoded(
                    EncodedJSON(capacity: 64 + 120 * events.count) { writer in
                        writer.writeRaw("{\"events\":")
                        writer.write(array: events) { writer, event in
                            writer.open(event: event)
                            writer.writeByte(UInt8(ascii: "}"))
                        }
                        writer.writeRaw(",\"nextCursor\":")
                        writer.write(string: cursor(next))
                        writer.writeRaw(",\"hasMore\":")
                        writer.write(bool: more)
                        writer.writeByte(UInt8(ascii: "}"))
                    })
            },
            RPCMethod(
                "changes.subscribe",
                summary: "From now on, a `changed` notification for every committed change (this process's and others').",
                params: [.domains(ChangeDomain.allCases)],
                result: Schema.object([("cursor", Schema.string())], required: ["cursor"])
            ) { params, session in
                let latest = try changes.latestSequence()
                session.subscription = ChangeSubscription(domains: params.domains, lastSequence: latest)
                return ["cursor": .string(cursor(latest))]
            },
            RPCMethod(
                "changes.unsubscribe", summary: "Stops the `changed` notifications.",
                result: Schema.object([("unsubscribed", Schema.boolean)], required: ["unsubscribed"])
            ) { _, session in
                let was = session.subscription != nil
                session.subscription = nil
                return ["unsubscribed": .bool(was)]
            },
        ]
    }
}
