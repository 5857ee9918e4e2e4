/// The key of a user-facing message: the same string as the stable `data.reason` where there is one.
public struct MessageKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
}

/// Every user-facing message in every language, from one table per area of the product.
///
/// Templates name their arguments in braces (`{field}`, `{limit}`); ``text(_:_:arguments:)`` fills them.
/// Each area adds its table to ``tables``; a test checks that every key has all three languages.
public enum MessageCatalog {
    /// One area's messages: key -> (en, ru, ja).
    public typealias Table = [MessageKey: [Language: String]]

    /// The tables of every area of the product.
    static let tables: [Table] = [
        CommonMessages.table, NotesMessages.table, RemindersMessages.table,
        DiaryMessages.table, MessagesMessages.table, BoardMessages.table, ExchangeMessages.table,
    ]

    /// All messages, merged.
    public static let all: Table = tables.reduce(into: [:]) { merged, table in
        merged.merge(table) { first, _ in first }
    }

    /// The message for `key` in `language` with its arguments filled in. An unknown key falls back to the
    /// key itself, so a missing entry is visible but never fatal.
    public static func text(
        _ key: MessageKey, _ language: Language, arguments: [String: String] = [:], from messages: Table = all
    ) -> String {
        guard let template = messages[key]?[language] ?? messages[key]?[.english] else { return key.rawValue }
        guard !arguments.isEmpty, template.contains("{") else { return template }
        var result = template
        for (name, value) in arguments {
            result = result.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return result
    }
}

extension MessageCatalog {
    /// What `table` lacks: a key without a text in some language, or whose languages name different
    /// placeholders. Empty for a complete table (each table's tests check theirs).
    public static func problems(in table: Table) -> [String] {
        func placeholders(_ text: String) -> Set<String> {
            var found: Set<String> = []
            var rest = text[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                found.insert(String(rest[open...close]))
                rest = rest[rest.index(after: close)...]
            }
            return found
        }
        var problems: [String] = []
        for (key, texts) in table.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let english = placeholders(texts[.english] ?? "")
            for language in Language.allCases {
                guard let text = texts[language], !text.isEmpty else {
                    problems.append("\(key.rawValue) has no \(language.rawValue) text")
                    continue
                }
                if placeholders(text) != english { problems.append("\(key.rawValue) in \(language.rawValue): other placeholders") }
            }
        }
        return problems
    }
}

extension String {
    /// Replaces every occurrence of `target` (kept here so Domain needs no Foundation for it).
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
