import Domain
import Protocol

/// `search` across every app (SPEC §11).
enum SearchMethods {
    static let searchableDomains: [ChangeDomain] = [.notes, .photos, .diary, .reminders, .messages, .board]

    static func methods(store: DataStore) -> [RPCMethod] {
        let index = store.search
        let query = Required.string("query", Schema.string(), "Words or pieces of words; all must match. Taken as plain text.")
        let hit = Schema.object(
            [
                ("domain", ChangeDomain.schema(searchableDomains)), ("id", Schema.id),
                ("title", Schema.string()), ("snippet", Schema.string(description: "the match marked **like this**")),
            ], required: ["domain", "id", "title", "snippet"])
        return [
            RPCMethod(
                "search",
                summary: "Finds text across notes, photo captions, diary, reminders, messages and board titles (pieces of words, any language).",
                params: [
                    query.spec,
                    .domains(searchableDomains),
                    .optional("limit", Schema.integer(minimum: 1, maximum: 100), "At most this many hits (default 20)."),
                ],
                result: Schema.object([("hits", Schema.array(of: hit))], required: ["hits"])
            ) { params, session in
                let hits = try index.search(
                    params[query], domains: params.domains,
                    limit: params.integer("limit").map { Int($0) } ?? SearchIndex.defaultLimit
                ) { session.report($0, total: $1, message: "indexing") }
                return [
                    "hits": .array(
                        hits.map { hit in
                            [
                                "domain": .string(hit.domain.rawValue), "id": .string(hit.id), "title": .string(hit.title),
                                "snippet": .string(hit.snippet),
                            ]
                        })
                ]
            }
        ]
    }
}
