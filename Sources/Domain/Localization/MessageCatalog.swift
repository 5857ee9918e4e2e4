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
        ServerMessages.table, CommonMessages.table, NotesMessages.table, RemindersMessages.table,
        DiaryMessages.table, MessagesMessages.table, BoardMessages.table, ExchangeMessages.table,
    ]

    /// All messages, merged.
    public static let all: Table = tables.reduce(into: [:]) { merged, table in
        merged.merge(table) { first, _ in first }
    }

    /// The message for `key` in `language` with its arguments filled in. An unknown key falls back to the
    /// key itself, so a missing entry is visible but never fatal.
    public static func text(_ key: MessageKey, _ language: Language, arguments: [String: String] = [:]) -> String {
        guard let template = all[key]?[language] ?? all[key]?[.english] else { return key.rawValue }
        guard !arguments.isEmpty, template.contains("{") else { return template }
        var result = template
        for (name, value) in arguments {
            result = result.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return result
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
