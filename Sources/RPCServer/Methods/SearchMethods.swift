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
        /// The search itself, the index brought up to date first (what is left of it, when steps came first).
        func search(_ params: ParamValues, _ session: Session) throws -> JSONValue {
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
        let method = RPCMethod(
                "search", title: "Search everything",
                summary: "Finds text across notes, photo captions, diary, reminders, messages and board titles (pieces of words, any language). Returns {hits}: each {domain, id, title, snippet}, the match in the snippet marked **like this**.",
                params: [
                    query.spec,
                    .domains(searchableDomains),
                    .optional("limit", Schema.integer(minimum: 1, maximum: 100), "At most this many hits (default 20)."),
                ],
                result: Schema.object([("hits", Schema.array(of: hit))], required: ["hits"]),
                handler: search)
        // A search that finds the index far behind (right after 100,000 creates) brings it up in steps of
        // ``SearchIndex/stepSize`` changes, one per turn of the loop, as a request that waits does: the
        // requests after it are answered between the steps, and it is answered when it is done.
        method.network = { params, session in
            let total = try index.changesBehind()
            guard total > SearchIndex.stepSize else { return nil }
            return NetworkSteps {
                try index.catchUp(limit: SearchIndex.stepSize)
                session.report(max(0, total - (try index.changesBehind())), total: total, message: "indexing")
                return NetworkSteps.Started(
                    wait: { _, _ in .success(0) },
                    finish: { _ in
                        guard try index.changesBehind() <= SearchIndex.stepSize else { throw NetworkSteps.Again() }
                        // The last step here too, so the reports count up to the same total and end at it.
                        try index.catchUp(limit: SearchIndex.stepSize)
                        session.report(total, total: total, message: "indexing")
                        return try search(params, session)
                    })
            }
        }
        return [method]
    }
}
