/// One search result.
public struct SearchHit: Sendable, Equatable {
    public var domain: ChangeDomain
    public var id: String
    public var title: String
    /// A short piece of the text with the match marked `**like this**`.
    public var snippet: String
}

/// Search across every app (SPEC §11): notes (title, content), photo captions, diary text, reminders
/// (title, memo), messages (author, text) and board titles.
///
/// The index is SQLite FTS5 with the trigram tokenizer, so any piece of a word of three or more characters
/// matches — word beginnings (prefixes) included, in Russian and in Japanese as well as in English. The
/// query is always text: quotes, `*`, `-`, `NEAR` and the like are searched for, never interpreted. Terms
/// shorter than three characters (a two-kanji word) are matched by substring over the same documents.
///
/// Writes pay nothing for search: the index follows the change log (SPEC §11), which every mutation
/// appends to anyway. It takes in what the log holds beyond `search_state.indexed_through` before every
/// search (so a search always sees every committed change, and the searching connection's own uncommitted
/// ones) and, in small steps, whenever the server has been idle for a moment.
public final class SearchIndex {
    private let database: Database
    private let group: WriteGroup
    /// Each searchable domain's ``sourceSQL``, prepared the first time it runs (the table itself is made
    /// when the index first takes a change in, not at every start).
    private lazy var sources: [ChangeDomain: Prepared] = Self.sourceSQL.mapValues { [database] in Prepared(database, $0) }

    public static let defaultLimit = 20
    /// The most words a query may have.
    public static let maximumTerms = 32
    /// The longest word of a query, in characters, and the longest query, in bytes of UTF-8.
    public static let maximumTermLength = 64
    public static let maximumQueryBytes = 1024
    public static let maximumLimit = 100
    static let mark = "**"

    init(database: Database, group: WriteGroup) {
        self.database = database
        self.group = group
    }

    // MARK: Keeping the index current

    /// The text each searchable domain gives the index for one entity: (title, body).
    private static let sourceSQL: [ChangeDomain: String] = [
        .notes: "SELECT title, content FROM notes WHERE id = ?1",
        .photos: "SELECT coalesce(caption, ''), '' FROM photo_notes WHERE id = ?1",
        .diary: "SELECT '', coalesce(text, '') FROM diary_posts WHERE id = ?1",
        .reminders: "SELECT title, coalesce(memo, '') FROM reminders WHERE id = ?1",
        .messages: "SELECT author_name, text FROM messages WHERE id = ?1",
        .board: "SELECT title, '' FROM board_posts WHERE id = ?1",
    ]

    /// How many changes one idle step takes in at most (a few milliseconds of work under the write lock).
    public static let idleBatch = 500

    /// Whether the change log holds changes the index has not taken in yet.
    public func isBehind() throws(DomainError) -> Bool {
        try storage { try behind() }
    }

    private lazy var selectBehind = Prepared(
        database,
        """
        SELECT (SELECT coalesce(max(seq), 0) FROM changes) > (SELECT indexed_through FROM search_state)
        """)

    private func behind() throws -> Bool {
        try selectBehind.integer() == 1
    }

    private lazy var selectChangesBehind = Prepared(
        database,
        """
        SELECT max(0, (SELECT coalesce(max(seq), 0) FROM changes) - (SELECT indexed_through FROM search_state))
        """)

    /// How many changes of the log (by sequence number) the index has not taken in yet; 0 on a read-only
    /// database (whose index cannot be brought further).
    public func changesBehind() throws(DomainError) -> Int {
        try storage { database.isReadOnly ? 0 : Int(try selectChangesBehind.integer() ?? 0) }
    }

    /// Where a step of ``catchUp(limit:waiting:)`` left the index.
    public enum Progress: Sendable, Equatable {
        /// It holds every change in the log.
        case upToDate
        /// The step took in what it could; the log holds more.
        case moreToDo
        /// Another connection held the write lock, so the step did nothing (only when not waiting).
        case busy
    }

    /// Takes in at most `limit` changes from the log, in one transaction.
    ///
    /// With `waiting: false` the step gives up at once (`.busy`) when another connection holds the write
    /// lock, instead of waiting for it: idle work must never keep the server from its input.
    @discardableResult
    public func catchUp(limit: Int = idleBatch, waiting: Bool = true) throws(DomainError) -> Progress {
        try storage {
            guard !database.isReadOnly, try behind() else { return .upToDate }
            let more: Bool
            if waiting {
                more = try group.transaction { try takeIn(limit) }
            } else {
                do {
                    more = try database.withoutWaitingForLocks { try group.transaction { try takeIn(limit) } }
                } catch let error as SQLiteError where error.isBusy {
                    return .busy
                }
            }
            return more ? .moreToDo : .upToDate
        }
    }

    private lazy var indexedThrough = Prepared(database, "SELECT indexed_through FROM search_state")
    private lazy var newestChange = Prepared(database, ChangeLog.newestSQL)

    /// Brings the index fully up to date (in the current transaction, or a new one); `progress` hears
    /// (changes taken in, changes to take in) after each step.
    func catchUpFully(progress: (Int, Int) -> Void = { _, _ in }) throws {
        // A read-only database is searched as far as its index goes (changes made while it was writable
        // and not searched since are not found).
        guard !database.isReadOnly, try behind() else { return }
        try group.transaction {
            let from = try indexedThrough.integer() ?? 0
            let to = try newestChange.integer() ?? 0
            let total = Int(max(0, to - from))
            progress(0, total)
            while try takeIn(Self.stepSize) {
                let through = try indexedThrough.integer() ?? 0
                progress(Int(min(through, to) - from), total)
            }
            progress(total, total)
        }
    }

    /// How many changes a search takes in at a time while it brings the index up to date (about a tenth of
    /// a second's work).
    public static let stepSize = 4096

    private struct Entity: Hashable {
        var domain: ChangeDomain
        var id: String
    }

    private lazy var changesAfter = Prepared(
        database, "SELECT seq, domain, kind, entity_id FROM changes WHERE seq > ?1 ORDER BY seq LIMIT ?2")
    private lazy var unindexPosting = Prepared(
        database, "INSERT INTO search_index(search_index, rowid, title, body) VALUES ('delete', ?1, ?2, ?3)")
    private lazy var indexPosting = Prepared(
        database, "INSERT INTO search_index(rowid, title, body) VALUES (?1, ?2, ?3)")
    private lazy var setIndexedThrough = Prepared(database, "UPDATE search_state SET indexed_through = ?1")

    /// Re-indexes every entity named by the next `limit` changes after `indexed_through`; returns whether
    /// the log holds more. Runs inside a transaction.
    private func takeIn(_ limit: Int) throws -> Bool {
        let through = try indexedThrough.integer() ?? 0
        var last = through
        var seen: Set<Entity> = []
        var entities: [Entity] = []
        try changesAfter.forEachRow([.integer(through), .integer(Int64(limit))]) { row in
            last = row.int64(0)
            // A move changes no text; images have none.
            let domain = try stored(ChangeDomain.self, row.text(1))
            guard try stored(ChangeKind.self, row.text(2)) != .moved, sources[domain] != nil else { return }
            let entity = Entity(domain: domain, id: row.text(3))
            if seen.insert(entity).inserted { entities.append(entity) }
        }
        // The FTS5 table is written last, row by row: a statement that opens a statement journal (as the
        // writes to search_documents may) makes FTS5 flush what it holds in memory as a new segment, so
        // interleaving the two would cost a segment per document.
        var postings = Postings()
        for entity in entities { try reconcile(entity, into: &postings) }
        for (document, title, body) in postings.removed {
            try unindexPosting.run([.integer(document), .text(title), .text(body)])
        }
        for (document, title, body) in postings.added {
            try indexPosting.run([.integer(document), .text(title), .text(body)])
        }
        guard last > through else { return false }
        try setIndexedThrough.run([.integer(last)])
        return try behind()
    }

    /// What the FTS5 table must drop and take: (document, title, body).
    private struct Postings {
        var removed: [(Int64, String, String)] = []
        var added: [(Int64, String, String)] = []
    }

    private lazy var selectDocument = Prepared(
        database, "SELECT id, title, body FROM search_documents WHERE domain = ?1 AND entity_id = ?2")
    private lazy var updateDocument = Prepared(
        database, "UPDATE search_documents SET title = ?2, body = ?3 WHERE id = ?1")
    private lazy var deleteDocument = Prepared(database, "DELETE FROM search_documents WHERE id = ?1")
    private lazy var insertDocument = Prepared(
        database, "INSERT INTO search_documents(domain, entity_id, title, body) VALUES (?1, ?2, ?3, ?4) RETURNING id")

    /// Makes `search_documents` hold `entity`'s current text (or nothing when it is gone), and notes what
    /// that changes in the FTS5 table. Unchanged text costs only two lookups.
    private func reconcile(_ entity: Entity, into postings: inout Postings) throws {
        guard let source = sources[entity.domain] else { return }
        let current = try source.first([.text(entity.id)]) { ($0.text(0), $0.text(1)) }
        let indexed = try selectDocument.first([.text(entity.domain.rawValue), .text(entity.id)]) {
            ($0.int64(0), $0.text(1), $0.text(2))
        }
        if let indexed, let current, indexed.1 == current.0, indexed.2 == current.1 { return }
        if let indexed {
            postings.removed.append(indexed)
            if let current {
                try updateDocument.run([.integer(indexed.0), .text(current.0), .text(current.1)])
                postings.added.append((indexed.0, current.0, current.1))
            } else {
                try deleteDocument.run([.integer(indexed.0)])
            }
        } else if let current {
            let document = try insertDocument.first(
                [.text(entity.domain.rawValue), .text(entity.id), .text(current.0), .text(current.1)]
            ) { $0.int64(0) }
            if let document { postings.added.append((document, current.0, current.1)) }
        }
    }

    /// Up to this many matches a query is ranked exactly (FTS5's bm25, titles weighing four times the
    /// body), which costs time in proportion to every match. A query that matches more (a very common word
    /// in a large database) is ranked among its most recent this-many matches only: those whose titles
    /// mention a term first, then newest first. So a search costs about the same at a million documents as at ten
    /// thousand (see BENCHMARKS.md, "scale").
    public static let rankedMatches = 2000

    /// Finds `query`; bringing the index up to date first, when it is behind, is reported to `progress`
    /// as (changes taken in, changes to take in).
    public func search(
        _ query: String, domains: Set<ChangeDomain>? = nil, limit: Int = defaultLimit,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(DomainError) -> [SearchHit] {
        guard query.utf8.count <= Self.maximumQueryBytes else {
            throw .invalidArgument(field: "query", expected: "at most \(Self.maximumQueryBytes) bytes")
        }
        var terms: [String] = []
        // A NUL separates words too: SQLite's LIKE would end its pattern there.
        for term in query.split(whereSeparator: { $0.isWhitespace || $0 == "\0" }).map(String.init) where !terms.contains(term) {
            terms.append(term)
        }
        guard !terms.isEmpty else { return [] }
        guard terms.count <= Self.maximumTerms else {
            throw .invalidArgument(field: "query", expected: "at most \(Self.maximumTerms) words")
        }
        guard terms.allSatisfy({ $0.count <= Self.maximumTermLength }) else {
            throw .invalidArgument(field: "query", expected: "words of at most \(Self.maximumTermLength) characters")
        }
        var long: [String] = []
        var values: [SQLValue] = []
        var conditions: [String] = []
        for term in terms {
            // FTS5 matches a term as the phrase of its trigrams. Only the part before a trigram repeats is
            // asked of it: a phrase that repeats a trigram reads that trigram's positions once per repeat (a
            // term of 5,000 "w" in a text of a million took gigabytes), while one of distinct trigrams reads
            // at most as many positions as the document has. The whole term is then checked on the text.
            let (phrase, whole) = Self.distinctPrefix(term)
            if phrase.unicodeScalars.count >= 3 {
                if !long.contains(phrase) { long.append(phrase) }
                if whole { continue }
            }
            values.append(.text("%" + Self.escapeLike(term) + "%"))
            conditions.append("(d.title LIKE ?\(values.count) ESCAPE '\\' OR d.body LIKE ?\(values.count) ESCAPE '\\')")
        }
        if let domains {
            let names = domains.map(\.rawValue).sorted()
            guard !names.isEmpty else { return [] }
            let placeholders = names.map { name -> String in
                values.append(.text(name))
                return "?\(values.count)"
            }
            conditions.append("d.domain IN (\(placeholders.joined(separator: ", ")))")
        }
        return try storage {
            // Every change committed so far (and this connection's own, not yet committed) is taken in first.
            try catchUpFully(progress: progress)
            // The SQL depends on the query's shape, so it is prepared for this search only, not kept.
            let searchSQL: String
            if long.isEmpty {
                values.append(.integer(Int64(limit)))
                searchSQL = """
                    SELECT d.domain, d.entity_id, d.title, d.body FROM search_documents AS d
                    WHERE \(conditions.joined(separator: " AND ")) ORDER BY d.id DESC LIMIT ?\(values.count)
                    """
            } else {
                values.append(.text(long.map(Self.phrase).joined(separator: " ")))
                let match = "search_index MATCH ?\(values.count)"
                // CROSS JOIN keeps the FTS5 table the outer loop, so a match is looked up once, not per row.
                let join = conditions.isEmpty ? "" : "CROSS JOIN search_documents AS d ON d.id = search_index.rowid"
                let filter = ([match] + conditions).joined(separator: " AND ")
                let best: String
                let order: String
                values.append(.integer(Int64(Self.rankedMatches - 1)))
                let common = try database.prepare(
                    """
                    SELECT search_index.rowid FROM search_index \(join) WHERE \(filter)
                    ORDER BY search_index.rowid DESC LIMIT 1 OFFSET ?\(values.count)
                    """
                ).first(values) { $0.int64(0) }
                values.removeLast()
                values.append(.integer(Int64(limit)))
                let limitParameter = "?\(values.count)"
                if let oldest = common {
                    // A very common query: its most recent matches, those with a term in the title first.
                    values.append(.integer(oldest))
                    let oldestParameter = "?\(values.count)"
                    values.append(.text("{title} : (" + long.map(Self.phrase).joined(separator: " OR ") + ")"))
                    best = """
                        recent AS (
                            SELECT search_index.rowid AS id FROM search_index \(join)
                            WHERE \(filter) AND search_index.rowid >= \(oldestParameter)
                        ),
                        titled AS (
                            SELECT rowid AS id FROM search_index
                            WHERE search_index MATCH ?\(values.count) AND rowid >= \(oldestParameter)
                        ),
                        best AS (
                            SELECT id, -(id IN titled) AS score FROM recent ORDER BY score, id DESC LIMIT \(limitParameter)
                        )
                        """
                    order = "best.score, best.id DESC"
                } else {
                    // Rank every match cheaply first, then make snippets for the best few only.
                    best = """
                        best AS (
                            SELECT search_index.rowid AS id, bm25(search_index, 4.0, 1.0) AS score FROM search_index \(join)
                            WHERE \(filter) ORDER BY score LIMIT \(limitParameter)
                        )
                        """
                    order = "best.score"
                }
                // Snippets are made from the hits' own text (SearchIndex+Snippet.swift), not by FTS5.
                searchSQL = """
                    WITH \(best)
                    SELECT d.domain, d.entity_id, d.title, d.body
                    FROM best CROSS JOIN search_documents AS d ON d.id = best.id ORDER BY \(order)
                    """
            }
            var hits: [SearchHit] = []
            try database.prepare(searchSQL).forEachRow(values) { row in
                let domain = try stored(ChangeDomain.self, row.text(0))
                let title = row.text(2)
                let body = row.text(3)
                let snippet = Self.snippet(title: title, body: body, terms: terms)
                hits.append(
                    SearchHit(domain: domain, id: row.text(1), title: Self.displayTitle(domain, title: title, body: body), snippet: snippet))
            }
            return hits
        }
    }
}
