/// A message's text, parsed: what it says and where its arguments go.
///
/// The syntax is a small part of ICU's MessageFormat:
///
/// - `{name}` is the argument `name`.
/// - `{name, plural, one {# note} other {# notes}}` is the form for the argument's number in the message's
///   language (``Language/pluralCategory(of:)``); `#` in a form is the number as given. Each form is a
///   category of CLDR (`zero`, `one`, `two`, `few`, `many`, `other`) and `other` is always there. A form may
///   hold arguments of its own.
///
/// Braces are always syntax: a message holds none of its own. A language whose numbers have one form only
/// (Japanese) writes the number plainly, `{limit} 件`.
struct MessageTemplate: Sendable {
    indirect enum Part: Equatable, Sendable {
        case text(String)
        case argument(String)
        /// `#` inside a plural's form: that plural's number.
        case number
        case plural(String, forms: [PluralCategory: [Part]])
    }

    /// Why a text is not a template; a catalog test reports it.
    struct Malformed: Error, Equatable {
        let reason: String
    }

    let parts: [Part]

    init(_ text: String) throws(Malformed) {
        var parser = Parser(characters: Array(text))
        parts = try parser.parts(inForm: false)
    }

    /// The text in `language` with `arguments` filled in. An argument that is not given stays visible as
    /// `{name}` (a plural then takes its `other` form).
    func render(_ language: Language, arguments: [String: String]) -> String {
        var result = ""
        Self.render(parts, language, arguments, number: nil, into: &result)
        return result
    }

    private static func render(
        _ parts: [Part], _ language: Language, _ arguments: [String: String], number: String?, into result: inout String
    ) {
        for part in parts {
            switch part {
            case .text(let text):
                result += text
            case .argument(let name):
                result += arguments[name] ?? "{\(name)}"
            case .number:
                result += number ?? "#"
            case .plural(let name, let forms):
                let value = arguments[name]
                let category = value.map(language.pluralCategory(of:)) ?? .other
                let form = forms[category] ?? forms[.other] ?? []
                render(form, language, arguments, number: value ?? "{\(name)}", into: &result)
            }
        }
    }

    /// Every argument the template names, plainly or as a plural.
    var argumentNames: Set<String> {
        var names: Set<String> = []
        Self.visit(parts) { part in
            if case .argument(let name) = part { names.insert(name) }
            if case .plural(let name, _) = part { names.insert(name) }
        }
        return names
    }

    /// Every plural in the template: its argument and the categories it gives forms for.
    var plurals: [(argument: String, categories: Set<PluralCategory>)] {
        var plurals: [(argument: String, categories: Set<PluralCategory>)] = []
        Self.visit(parts) { part in
            if case .plural(let name, let forms) = part { plurals.append((name, Set(forms.keys))) }
        }
        return plurals
    }

    private static func visit(_ parts: [Part], _ body: (Part) -> Void) {
        for part in parts {
            body(part)
            if case .plural(_, let forms) = part {
                for category in PluralCategory.allCases { if let form = forms[category] { visit(form, body) } }
            }
        }
    }
}

extension MessageTemplate {
    /// Reads a template left to right: text, `{` opens an argument, `}` closes a plural's form.
    private struct Parser {
        let characters: [Character]
        var position = 0

        /// Text and arguments up to the end, or inside a form up to (not past) the `}` that closes it.
        mutating func parts(inForm: Bool) throws(Malformed) -> [Part] {
            var parts: [Part] = []
            var text = ""
            while position < characters.count {
                let character = characters[position]
                if character == "}" {
                    guard inForm else { throw Malformed(reason: "a } that closes nothing") }
                    break
                }
                if character == "{" || (character == "#" && inForm) {
                    if !text.isEmpty { parts.append(.text(text)) }
                    text = ""
                    position += 1
                    if character == "#" { parts.append(.number) } else { parts.append(try argument()) }
                } else {
                    text.append(character)
                    position += 1
                }
            }
            if inForm && position == characters.count { throw Malformed(reason: "a plural's form is not closed") }
            if !text.isEmpty { parts.append(.text(text)) }
            return parts
        }

        /// After a `{`: `name}` or `name, plural, category {form} … }`.
        private mutating func argument() throws(Malformed) -> Part {
            let name = word()
            guard !name.isEmpty else { throw Malformed(reason: "a { without an argument's name") }
            if take("}") { return .argument(name) }
            guard take(","), word() == "plural", take(",") else {
                throw Malformed(reason: "{\(name) is neither {\(name)} nor {\(name), plural, …}")
            }
            var forms: [PluralCategory: [Part]] = [:]
            while !take("}") {
                let word = word()
                guard !word.isEmpty || position < characters.count else {
                    throw Malformed(reason: "{\(name), plural, …} is not closed")
                }
                guard let category = PluralCategory(rawValue: word) else {
                    let shown = word.isEmpty ? String(characters[position]) : word
                    throw Malformed(reason: "{\(name)}: '\(shown)' is not a plural category")
                }
                guard forms[category] == nil else { throw Malformed(reason: "{\(name)}: two \(word) forms") }
                guard take("{") else { throw Malformed(reason: "{\(name)}: the \(word) form is not in braces") }
                forms[category] = try parts(inForm: true)
                position += 1  // the form's `}`
            }
            guard forms[.other] != nil else { throw Malformed(reason: "{\(name)}: a plural without its other form") }
            return .plural(name, forms: forms)
        }

        /// Letters, digits and `_`, after any spaces.
        private mutating func word() -> String {
            skipSpaces()
            let start = position
            while position < characters.count,
                characters[position].isLetter || characters[position].isNumber || characters[position] == "_"
            {
                position += 1
            }
            return String(characters[start..<position])
        }

        /// Whether `character` comes next after any spaces; it is read if so.
        private mutating func take(_ character: Character) -> Bool {
            skipSpaces()
            guard position < characters.count, characters[position] == character else { return false }
            position += 1
            return true
        }

        private mutating func skipSpaces() {
            while position < characters.count, characters[position].isWhitespace { position += 1 }
        }
    }
}
