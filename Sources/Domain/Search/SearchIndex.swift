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
public final class SearchIndex {
    private let database: Database

    public static let defaultLimit = 20
    /// The most words a query may have.
    public static let maximumTerms = 32
    public static let maximumLimit = 100
    static let mark = "**"

    init(database: Database) {
        self.database = database
        database.beforeCommit.append { [unowned self] in try self.applyPending() }
    }

    /// Brings the FTS5 index up to date with the documents changed in this transaction, in two set-wise
    /// statements: each document that was indexed before is removed with the text it was indexed with
    /// (its first queued delete), and each that exists now is indexed with its current text.
    func applyPending() throws {
        guard try database.scalarInteger("SELECT 1 FROM search_pending LIMIT 1") != nil else { return }
        try database.run(
            """
            INSERT INTO search_index(search_index, rowid, title, body)
            SELECT 'delete', p.document_id, p.title, p.body FROM search_pending AS p
            WHERE p.operation = 'delete'
              AND p.seq = (SELECT min(q.seq) FROM search_pending AS q WHERE q.document_id = p.document_id)
            """)
        try database.run(
            """
            INSERT INTO search_index(rowid, title, body)
            SELECT d.id, d.title, d.body FROM search_documents AS d
            WHERE d.id IN (SELECT document_id FROM search_pending)
            """)
        try database.run("DELETE FROM search_pending")
    }

    public func search(_ query: String, domains: Set<ChangeDomain>? = nil, limit: Int = defaultLimit)
        throws(DomainError) -> [SearchHit]
    {
        let terms = query.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard !terms.isEmpty else { return [] }
        guard terms.count <= Self.maximumTerms else {
            throw .invalidArgument(field: "query", expected: "at most \(Self.maximumTerms) words")
        }
        let long = terms.filter { $0.unicodeScalars.count >= 3 }
        let short = terms.filter { $0.unicodeScalars.count < 3 }
        var values: [SQLValue] = []
        var conditions: [String] = []
        for term in short {
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
        values.append(.integer(Int64(limit)))
        let limitParameter = "?\(values.count)"
        let sql: String
        if long.isEmpty {
            sql = """
                SELECT d.domain, d.entity_id, d.title, d.body, NULL FROM search_documents AS d
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY d.id DESC LIMIT \(limitParameter)
                """
        } else {
            values.append(.text(long.map(Self.phrase).joined(separator: " ")))
            let match = "search_index MATCH ?\(values.count)"
            // Rank every match cheaply first, then make snippets for the best few only.
            let join = conditions.isEmpty ? "" : "JOIN search_documents AS d ON d.id = search_index.rowid"
            sql = """
                WITH best AS (
                    SELECT search_index.rowid AS id, bm25(search_index, 4.0, 1.0) AS score FROM search_index \(join)
                    WHERE \(([match] + conditions).joined(separator: " AND ")) ORDER BY score LIMIT \(limitParameter)
                )
                SELECT d.domain, d.entity_id, d.title, d.body,
                       snippet(search_index, -1, '\(Self.mark)', '\(Self.mark)', '…', 16)
                FROM best JOIN search_index ON search_index.rowid = best.id JOIN search_documents AS d ON d.id = best.id
                WHERE \(match) ORDER BY best.score
                """
        }
        return try storage {
            // What this connection changed but has not committed yet is indexed first.
            if try database.scalarInteger("SELECT 1 FROM search_pending LIMIT 1") != nil {
                try database.transaction { try applyPending() }
            }
            var hits: [SearchHit] = []
            // The SQL depends on the query's shape, so it is prepared for this search only, not cached.
            try Statement(database: database, sql: sql).forEachRow(values) { row in
                guard let domain = ChangeDomain(rawValue: row.text(0)) else { return }
                let title = row.text(2)
                let body = row.text(3)
                let snippet = row.textOrNil(4) ?? Self.snippet(of: TextRules.isBlank(body) ? title : body, terms: short)
                hits.append(
                    SearchHit(domain: domain, id: row.text(1), title: Self.displayTitle(domain, title: title, body: body), snippet: snippet))
            }
            return hits
        }
    }

    /// An FTS5 string literal: the term is searched for as it is, whatever characters it holds.
    static func phrase(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func escapeLike(_ term: String) -> String {
        var escaped = ""
        for character in term {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// What a hit is called: the entity's title, or for text-only entities (diary posts, messages, untitled
    /// notes) the first line of the text, shortened.
    static func displayTitle(_ domain: ChangeDomain, title: String, body: String) -> String {
        let source = (domain == .diary || domain == .messages || TextRules.isBlank(title)) ? body : title
        let firstLine = source.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return firstLine.count > 80 ? String(firstLine.prefix(79)) + "…" : firstLine
    }

    /// A snippet around the first of `terms` found in `text` (for short-term searches, where FTS5 does not
    /// make one).
    static func snippet(of text: String, terms: [String]) -> String {
        let lowered = text.lowercased()
        for term in terms {
            guard let range = lowered.range(of: term.lowercased()), lowered.count == text.count else { continue }
            let start = lowered.distance(from: lowered.startIndex, to: range.lowerBound)
            let length = lowered.distance(from: range.lowerBound, to: range.upperBound)
            let characters = Array(text)
            let from = max(0, start - 30)
            let to = min(characters.count, start + length + 30)
            return (from > 0 ? "…" : "") + String(characters[from..<start]) + mark
                + String(characters[start..<start + length]) + mark + String(characters[(start + length)..<to])
                + (to < characters.count ? "…" : "")
        }
        return String(text.prefix(60))
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
