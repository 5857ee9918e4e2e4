/// A query's words as the index is asked for them: the part FTS5 reads, its phrases, its LIKE patterns;
/// and what a hit is called.
extension SearchIndex {
    /// The longest beginning of `term` whose trigrams (compared as FTS5's trigram tokenizer compares them,
    /// ignoring case) are all different, and whether that is the whole term.
    static func distinctPrefix(_ term: String) -> (String, whole: Bool) {
        let scalars = Array(term.unicodeScalars)
        let folded = scalars.map(fold)
        var seen: Set<[UInt32]> = []
        var index = 0
        while index + 3 <= folded.count {
            if !seen.insert(Array(folded[index..<index + 3])).inserted {
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: scalars[0..<index + 2])
                return (String(prefix), false)
            }
            index += 1
        }
        return (term, true)
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
        let start = source.prefix(81)
        let firstLine = start.prefix { !$0.isNewline }
        return firstLine.count > 80 ? String(firstLine.prefix(79)) + "…" : String(firstLine)
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
