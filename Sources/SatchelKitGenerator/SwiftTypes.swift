import Foundation

/// The Swift types of the JSON Schemas in an OpenRPC document: an entity of `components.schemas` is a struct
/// named by its title, an inline object a struct named after where it is met (a method's result, a member),
/// `anyOf` with `null` an optional, `anyOf` of objects an enum with a case per object, anything open
/// `JSONValue`. Two inline objects of the same shape are one type.
final class SwiftTypes {
    typealias Schema = [String: Any]

    let components: [String: Schema]
    /// The declarations made so far, in order.
    private(set) var declarations: [String] = []
    private var namesByShape: [String: String] = [:]
    private var taken: Set<String>

    init(components: [String: Schema], reserved: Set<String>) {
        self.components = components
        taken = reserved
        for (name, schema) in components.sorted(by: { $0.key < $1.key }) {
            namesByShape[Self.shape(schema)] = name
            taken.insert(name)
        }
    }

    /// Declares every component (in the order given), so that each is declared once under its own name.
    func declareComponents(_ order: [String]) {
        for name in order {
            let schema = components[name]!
            if let options = schema["anyOf"] as? [Schema] {
                declareChoice(options, name: name, component: true)
            } else {
                declare(schema, as: name)
            }
        }
    }

    /// The Swift type of `schema`; `name` is what an inline object is called if it needs a declaration.
    func type(of schema: Schema, name: String) -> String {
        if let target = schema["$ref"] as? String { return String(target.split(separator: "/").last!) }
        if let options = schema["anyOf"] as? [Schema] {
            let others = options.filter { ($0["type"] as? String) != "null" }
            if others.count < options.count {
                let inner = others.count == 1 ? type(of: others[0], name: name) : type(of: ["anyOf": others], name: name)
                return inner.hasSuffix("?") ? inner : inner + "?"
            }
            if others.allSatisfy(Self.isClosedObject) { return declareChoice(others, name: name) }
            return "JSONValue"
        }
        switch schema["type"] as? String {
        case "string": return (schema["format"] as? String) == "date-time" ? "Date" : "String"
        case "integer": return "Int"
        case "number": return "Double"
        case "boolean": return "Bool"
        case "array":
            let items = schema["items"] as? Schema ?? [:]
            return "[" + type(of: items, name: Naming.singular(name)) + "]"
        case "object" where Self.isClosedObject(schema):
            if let known = namesByShape[Self.shape(schema)] { return known }
            return declare(schema, as: name)
        default:
            return "JSONValue"
        }
    }

    static func isClosedObject(_ schema: Schema) -> Bool {
        (schema["type"] as? String) == "object" && (schema["additionalProperties"] as? Bool) == false
    }

    /// What makes two schemas one type: their JSON without descriptions and titles.
    static func shape(_ schema: Any) -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "description" && $0.key != "title" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let data = try! JSONSerialization.data(withJSONObject: strip(schema), options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    private func unique(_ name: String) -> String {
        var candidate = name
        while taken.contains(candidate) { candidate += "_" }
        taken.insert(candidate)
        return candidate
    }

    /// A struct for a closed object.
    @discardableResult
    private func declare(_ schema: Schema, as wanted: String) -> String {
        let shape = Self.shape(schema)
        let name = components[wanted] != nil && namesByShape[shape] == wanted ? wanted : unique(wanted)
        namesByShape[shape] = name
        let properties = schema["properties"] as? [String: Schema] ?? [:]
        let required = Set(schema["required"] as? [String] ?? [])
        let order = Self.order(of: schema)
        var members: [String] = []
        var parameters: [String] = []
        for key in order {
            let property = properties[key]!
            var kind = type(of: property, name: name + Naming.pascal(key))
            if !required.contains(key) && !kind.hasSuffix("?") { kind += "?" }
            if let text = property["description"] as? String { members.append("    /// \(text)") }
            members.append("    public var \(Naming.identifier(key)): \(kind)")
            parameters.append("\(Naming.identifier(key)): \(kind)\(kind.hasSuffix("?") ? " = nil" : "")")
        }
        var text = ""
        if let title = schema["description"] as? String { text += "/// \(title)\n" }
        text += "public struct \(name): Codable, Sendable, Hashable {\n"
        text += members.joined(separator: "\n") + (members.isEmpty ? "" : "\n")
        text += "\n    public init(\(parameters.joined(separator: ", "))) {\n"
        for key in order { text += "        self.\(Naming.identifier(key)) = \(Naming.identifier(key))\n" }
        text += "    }\n}\n"
        declarations.append(text)
        return name
    }

    /// An enum for `anyOf` closed objects: a case per object, named by its first required member, whose
    /// value is that member's and the others' labelled.
    @discardableResult
    private func declareChoice(_ options: [Schema], name wanted: String, component: Bool = false) -> String {
        let key = Self.shape(["anyOf": options])
        if !component, let known = namesByShape[key] { return known }
        let name = component ? wanted : unique(wanted)
        namesByShape[key] = name
        var cases: [String] = []
        var encode: [String] = []
        var decode: [String] = []
        for option in options {
            let properties = option["properties"] as? [String: Schema] ?? [:]
            let required = option["required"] as? [String] ?? []
            let lead = required.first ?? Self.order(of: option)[0]
            let rest = Self.order(of: option).filter { $0 != lead }
            let leadType = type(of: properties[lead]!, name: name + Naming.pascal(lead))
            var values = [leadType]
            for other in rest {
                var kind = type(of: properties[other]!, name: name + Naming.pascal(other))
                if !kind.hasSuffix("?") { kind += "?" }
                values.append("\(Naming.identifier(other)): \(kind) = nil")
            }
            cases.append("    case \(Naming.identifier(lead))(\(values.joined(separator: ", ")))")
            let bound = ["let value"] + rest.map { "let \(Naming.identifier($0))" }
            var body = "        case .\(Naming.identifier(lead))(\(bound.joined(separator: ", "))):\n"
            body += "            try container.encode(value, forKey: .init(\"\(lead)\"))\n"
            for other in rest {
                body += "            try container.encodeIfPresent(\(Naming.identifier(other)), forKey: .init(\"\(other)\"))\n"
            }
            encode.append(body)
            var read = "        if container.contains(.init(\"\(lead)\")) {\n"
            read += "            self = .\(Naming.identifier(lead))(try container.decode(\(leadType).self, forKey: .init(\"\(lead)\"))"
            for other in rest {
                var kind = type(of: properties[other]!, name: name + Naming.pascal(other))
                if kind.hasSuffix("?") { kind.removeLast() }
                read += ", \(Naming.identifier(other)): try container.decodeIfPresent(\(kind).self, forKey: .init(\"\(other)\"))"
            }
            read += ")\n            return\n        }\n"
            decode.append(read)
        }
        var text = "public enum \(name): Codable, Sendable, Hashable {\n" + cases.joined(separator: "\n") + "\n\n"
        text += "    public func encode(to encoder: any Encoder) throws {\n"
        text += "        var container = encoder.container(keyedBy: AnyKey.self)\n        switch self {\n"
        text += encode.joined() + "        }\n    }\n\n"
        text += "    public init(from decoder: any Decoder) throws {\n"
        text += "        let container = try decoder.container(keyedBy: AnyKey.self)\n"
        text += decode.joined()
        text += "        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: \"none of \(name)'s shapes\"))\n"
        text += "    }\n}\n"
        declarations.append(text)
        return name
    }

    /// An object's members in the order the document lists them (JSONSerialization keeps none: the
    /// required list first, then the rest sorted).
    static func order(of schema: Schema) -> [String] {
        let properties = (schema["properties"] as? [String: Any] ?? [:]).keys
        let required = (schema["required"] as? [String] ?? []).filter(properties.contains)
        return required + properties.filter { !required.contains($0) }.sorted()
    }
}

/// Swift spellings of the document's names.
enum Naming {
    static let keywords: Set<String> = [
        "import", "in", "for", "from", "as", "is", "default", "case", "switch", "class", "struct", "enum",
        "func", "let", "var", "return", "self", "Self", "protocol", "extension", "where", "while", "repeat",
        "do", "catch", "throw", "throws", "try", "init", "deinit", "subscript", "operator", "static", "public",
        "private", "internal", "true", "false", "nil", "if", "else", "guard", "break", "continue", "defer",
        "fallthrough", "inout", "super", "Type", "associatedtype", "typealias", "any", "some",
    ]

    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static func pascal(_ name: String) -> String {
        name.split(whereSeparator: { ".-_/".contains($0) }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func camel(_ name: String) -> String {
        let pascal = pascal(name)
        return pascal.prefix(1).lowercased() + pascal.dropFirst()
    }

    static func singular(_ name: String) -> String {
        name.hasSuffix("s") && !name.hasSuffix("ss") ? String(name.dropLast()) : name + "Item"
    }
}
