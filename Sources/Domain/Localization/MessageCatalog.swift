/// The key of a user-facing message: the same string as the stable `data.reason` where there is one.
public struct MessageKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
}

/// Every user-facing message in every language, from one table per area of the product.
///
/// Templates name their arguments in braces (`{field}`, `{limit}`); ``text(_:_:arguments:)`` fills them.
/// Where a number meets a noun the noun takes the number's form, ICU-style:
/// `{limit, plural, one {# note} other {# notes}}` (``MessageTemplate``, ``PluralCategory``).
/// Each area adds its table to ``tables``; a test checks that every key has all three languages.
public enum MessageCatalog {
    /// One area's messages: key -> (en, ru, ja).
    public typealias Table = [MessageKey: [Language: String]]

    /// The tables of every area of the product.
    static let tables: [Table] = [
        CommonMessages.table, NotesMessages.table, RemindersMessages.table,
        DiaryMessages.table, MessagesMessages.table, BoardMessages.table, ExchangeMessages.table, SyncMessages.table,
    ]

    /// All messages, merged.
    public static let all: Table = tables.reduce(into: [:]) { merged, table in
        merged.merge(table) { first, _ in first }
    }

    /// The message for `key` in `language` with its arguments filled in, each plural in the form for its
    /// number. An unknown key falls back to the key itself, a message missing in `language` to English's,
    /// and a text that is no template to itself, so a missing entry is visible but never fatal.
    public static func text(
        _ key: MessageKey, _ language: Language, arguments: [String: String] = [:], from messages: Table = all
    ) -> String {
        let spoken = messages[key]?[language] != nil ? language : .english
        guard let text = messages[key]?[spoken] else { return key.rawValue }
        guard text.contains("{"), let template = try? MessageTemplate(text) else { return text }
        return template.render(spoken, arguments: arguments)
    }
}

extension MessageCatalog {
    /// What `table` lacks: a key without a text in some language, a text that is no template, languages
    /// naming different arguments, a plural without a form its language needs (or with one it never uses),
    /// or a number with forms in one language written plainly in another that has forms. Empty for a
    /// complete table (each table's tests check theirs).
    public static func problems(in table: Table) -> [String] {
        var problems: [String] = []
        for (key, texts) in table.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var templates: [Language: MessageTemplate] = [:]
            for language in Language.allCases {
                guard let text = texts[language], !text.isEmpty else {
                    problems.append("\(key.rawValue) has no \(language.rawValue) text")
                    continue
                }
                do {
                    templates[language] = try MessageTemplate(text)
                } catch {
                    problems.append("\(key.rawValue) in \(language.rawValue): \(error.reason)")
                }
            }
            let english = templates[.english]?.argumentNames ?? []
            let pluralArguments = Set(templates.values.flatMap { $0.plurals.map(\.argument) })
            for language in Language.allCases {
                guard let template = templates[language] else { continue }
                let prefix = "\(key.rawValue) in \(language.rawValue)"
                if template.argumentNames != english { problems.append("\(prefix): other placeholders") }
                for plural in template.plurals {
                    for category in PluralCategory.allCases {
                        let needed = language.pluralCategories.contains(category)
                        if needed && !plural.categories.contains(category) {
                            problems.append("\(prefix): {\(plural.argument)} has no \(category) form")
                        }
                        if !needed && plural.categories.contains(category) {
                            problems.append(
                                "\(prefix): {\(plural.argument)} has a \(category) form, which it never uses")
                        }
                    }
                }
                let plain = pluralArguments.subtracting(template.plurals.map(\.argument))
                for name in plain.sorted() where language.pluralCategories.count > 1 {
                    problems.append("\(prefix): {\(name)} has forms in another language but none here")
                }
            }
        }
        return problems
    }
}
