/// What a search hit shows of its text: the words around the first match, the matches marked.
extension SearchIndex {
    /// A snippet around the first of `terms` found in the body (else the title), with every term in it
    /// marked (for short-term and very common searches, where FTS5 does not make one).
    static func snippet(title: String, body: String, terms: [String]) -> String {
        for text in [body, title] {
            if let found = snippet(of: text, terms: terms) { return found }
        }
        return String((TextRules.isBlank(body) ? title : body).prefix(60))
    }

    /// `text` around the first of `terms` in it, with every term's occurrences there marked; `nil` when none
    /// occurs (ignoring case).
    static func snippet(of text: String, terms: [String]) -> String? {
        let characters = Array(text)
        let lowered = characters.map { $0.lowercased() }
        let needles = terms.map { Array($0.lowercased()).map { String($0) } }.filter { !$0.isEmpty }
        func match(at index: Int) -> Int? {
            for needle in needles where index + needle.count <= lowered.count {
                if lowered[index..<index + needle.count].elementsEqual(needle) { return needle.count }
            }
            return nil
        }
        guard let first = lowered.indices.first(where: { match(at: $0) != nil }) else { return nil }
        // About 30 characters before the hit and 50 after, widened or narrowed to whole words where the text
        // has spaces (a cut never leaves half a word: "…the the…"); text without them is cut as it is.
        var from = max(0, first - 30)
        if from > 0, !characters[from - 1].isWhitespace,
            let space = characters[from..<first].firstIndex(where: \.isWhitespace)
        {
            from = space + 1
        }
        var to = min(characters.count, first + 50)
        let hitEnd = first + (match(at: first) ?? 0)
        if to < characters.count, !characters[to].isWhitespace, hitEnd < to,
            let space = characters[hitEnd..<to].lastIndex(where: \.isWhitespace)
        {
            to = space
        }
        var result = from > 0 ? "…" : ""
        var index = from
        while index < to {
            if let length = match(at: index) {
                result += mark + String(characters[index..<index + length]) + mark
                index += length
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result + (index < characters.count ? "…" : "")
    }
}
