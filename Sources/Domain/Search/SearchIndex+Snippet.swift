/// What a search hit shows of its text: the words around the first match, the matches marked.
///
/// Made here rather than by FTS5's `snippet()`, whose cost grows with the square of a document's matches
/// (a run of one letter searched for with that letter took seconds), and bounded: a match is looked for in
/// the first ``snippetReach`` scalars of a text only, with one linear scan per term (Knuth–Morris–Pratt), so a
/// snippet costs the same whatever the text repeats.
extension SearchIndex {
    /// How far into a text (in Unicode scalars) a snippet looks for a match; a text whose first match lies
    /// further in is shown from its beginning.
    static let snippetReach = 65_536

    /// A snippet around the first of `terms` found in the body (else the title), with every term in it
    /// marked.
    static func snippet(title: String, body: String, terms: [String]) -> String {
        for text in [body, title] {
            if let found = snippet(of: text, terms: terms) { return found }
        }
        let text = TextRules.isBlank(body) ? title : body
        return String(text.prefix(60)) + (text.utf8.count > 60 && text.count > 60 ? "…" : "")
    }

    /// `text` around the first of `terms` in its first ``snippetReach`` scalars, with every term's
    /// occurrences there marked; `nil` when none occurs there (ignoring case).
    static func snippet(of text: String, terms: [String]) -> String? {
        let scalars = Array(text.unicodeScalars.prefix(snippetReach))
        let folded = scalars.map(fold)
        let needles = terms.map { $0.unicodeScalars.map(fold) }.filter { !$0.isEmpty }
        var first: Int? = nil
        for needle in needles {
            if let start = firstOccurrence(of: needle, in: folded, before: first ?? folded.count) { first = start }
        }
        guard let first else { return nil }
        func match(at index: Int) -> Int? {
            for needle in needles where index + needle.count <= folded.count {
                if folded[index..<index + needle.count].elementsEqual(needle) { return needle.count }
            }
            return nil
        }
        func isSpace(_ index: Int) -> Bool { scalars[index].properties.isWhitespace }
        // About 30 characters before the hit and 50 after, widened or narrowed to whole words where the text
        // has spaces (a cut never leaves half a word: "…the the…"); text without them is cut as it is, never
        // inside a character (before an accent or a joiner).
        var from = max(0, first - 30)
        if from > 0, !isSpace(from - 1), let space = (from..<first).first(where: isSpace) {
            from = space + 1
        }
        while from > 0 && from < first && joinsPrevious(scalars[from]) { from -= 1 }
        var to = min(scalars.count, first + 50)
        let hitEnd = first + (match(at: first) ?? 0)
        if to < scalars.count, !isSpace(to), hitEnd < to, let space = (hitEnd..<to).last(where: isSpace) {
            to = space
        }
        while to < scalars.count && to > hitEnd && joinsPrevious(scalars[to]) { to += 1 }
        var result = String.UnicodeScalarView()
        if from > 0 { result.append("…") }
        var index = from
        while index < to {
            if let length = match(at: index) {
                result.append(contentsOf: mark.unicodeScalars)
                result.append(contentsOf: scalars[index..<index + length])
                result.append(contentsOf: mark.unicodeScalars)
                index += length
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        if index < scalars.count || scalars.count == snippetReach { result.append("…") }
        return String(result)
    }

    /// Whether `scalar` belongs to the character before it (an accent, a joiner, a variation selector).
    private static func joinsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isGraphemeExtend || scalar.value == 0x200D || scalar.properties.isVariationSelector
    }

    /// A scalar as matching compares it: its lower case, when that is one scalar.
    static func fold(_ scalar: Unicode.Scalar) -> UInt32 {
        if scalar.isASCII {
            let value = scalar.value
            return (0x41...0x5A).contains(value) ? value + 0x20 : value
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first!.value : scalar.value
    }

    /// Where `needle` first occurs in `haystack`, starting before `end`: one pass (Knuth–Morris–Pratt).
    static func firstOccurrence(of needle: [UInt32], in haystack: [UInt32], before end: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        // failure[i]: the length of the longest proper border of needle[0...i].
        var failure = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<max(1, needle.count) {
            while length > 0 && needle[index] != needle[length] { length = failure[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        for (index, value) in haystack.enumerated() {
            if index - matched >= end { return nil }
            while matched > 0 && value != needle[matched] { matched = failure[matched - 1] }
            if value == needle[matched] { matched += 1 }
            if matched == needle.count { return index - needle.count + 1 }
        }
        return nil
    }
}
