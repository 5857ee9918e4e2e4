import Domain
import Protocol

/// Checks a value against the subset of JSON Schema that ``Schema`` produces, reporting the first
/// problem as the path of the offending member and a phrase saying what was expected.
enum SchemaValidator {
    /// A value that does not match its schema.
    struct Mismatch: Error, Equatable {
        /// The dotted path of the offending member (`color.hue`, `images[2]`).
        var field: String
        /// What would have been accepted, in words (`"integer from 1 to 500"`).
        var expected: String
        /// Whether the member was unknown rather than mistyped.
        var unknown = false
        /// Whether a required member was missing.
        var missing = false
    }

    static func validate(_ value: JSONValue, against schema: JSONValue, at path: String) throws(Mismatch) {
        guard case .object(let rules) = schema else { return }
        if case .array(let alternatives)? = rules["anyOf"] {
            for alternative in alternatives {
                if (try? validate(value, against: alternative, at: path)) != nil { return }
            }
            throw Mismatch(field: path, expected: describe(schema))
        }
        if let type = rules["type"]?.stringValue, !matches(value, type: type) {
            throw Mismatch(field: path, expected: describe(schema))
        }
        switch value {
        case .string(let text):
            if case .array(let allowed)? = rules["enum"], !allowed.contains(value) {
                throw Mismatch(field: path, expected: describe(schema))
            }
            if rules["format"]?.stringValue == "date-time", Timestamp.parse(text) == nil {
                throw Mismatch(field: path, expected: describe(schema))
            }
            let minLength = rules["minLength"]?.integerValue
            let maxLength = rules["maxLength"]?.integerValue
            // Characters are counted only when the UTF-8 length does not settle it (there are never more
            // characters than bytes, and a non-empty string has at least one).
            if let minLength, minLength > 0 {
                let settled = minLength == 1 ? !text.isEmpty : false
                if !settled, Int64(text.count) < minLength { throw Mismatch(field: path, expected: describe(schema)) }
            }
            if let maxLength, Int64(text.utf8.count) > maxLength, Int64(text.count) > maxLength {
                throw Mismatch(field: path, expected: describe(schema))
            }
        case .integer, .number:
            let number = value.doubleValue!
            if let minimum = rules["minimum"]?.doubleValue, number < minimum {
                throw Mismatch(field: path, expected: describe(schema))
            }
            if let maximum = rules["maximum"]?.doubleValue, number > maximum {
                throw Mismatch(field: path, expected: describe(schema))
            }
            if case .number(let double) = value, !double.isFinite {
                throw Mismatch(field: path, expected: describe(schema))
            }
        case .array(let elements):
            if let minItems = rules["minItems"]?.integerValue, elements.count < minItems {
                throw Mismatch(field: path, expected: describe(schema))
            }
            if let maxItems = rules["maxItems"]?.integerValue, elements.count > maxItems {
                throw Mismatch(field: path, expected: describe(schema))
            }
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() {
                    try validate(element, against: items, at: "\(path)[\(index)]")
                }
            }
        case .object(let members):
            let properties = rules["properties"]?.objectValue ?? JSONObject()
            if case .array(let required)? = rules["required"] {
                for case .string(let name) in required where !members.contains(name) {
                    throw Mismatch(
                        field: join(path, name), expected: describe(properties[name] ?? Schema.any), missing: true)
                }
            }
            let closed = rules["additionalProperties"]?.boolValue == false
            for (name, member) in members {
                if let property = properties[name] {
                    try validate(member, against: property, at: join(path, name))
                } else if closed {
                    throw Mismatch(
                        field: join(path, name),
                        expected: "one of: " + properties.orderedKeys.joined(separator: ", "), unknown: true)
                }
            }
        default:
            break
        }
    }

    static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("null", .null), ("array", .array), ("object", .object):
            return true
        case ("integer", .integer): return true
        // A whole number written with a fraction or exponent (`3.0`, `1e2`) counts, if it fits in 64 bits.
        case ("integer", .number(let number)): return Int64(exactly: number) != nil
        case ("number", .integer), ("number", .number): return true
        default: return false
        }
    }

    /// `number` and its noun in English's form for it: "1 character", "2 characters".
    static func count(_ number: Int64, _ one: String, _ other: String) -> String {
        "\(number) \(Language.english.pluralCategory(of: String(number)) == .one ? one : other)"
    }

    /// A short English phrase for what `schema` accepts, used as `data.expected`.
    static func describe(_ schema: JSONValue) -> String {
        guard case .object(let rules) = schema else { return "any value" }
        if case .array(let alternatives)? = rules["anyOf"] {
            if let description = rules["description"]?.stringValue { return description }
            return alternatives.map(describe).joined(separator: " or ")
        }
        if case .array(let allowed)? = rules["enum"] {
            return "one of " + allowed.map { $0.stringValue.map { "\"\($0)\"" } ?? $0.description }
                .joined(separator: ", ")
        }
        guard let type = rules["type"]?.stringValue else { return "any value" }
        switch type {
        case "string":
            let minLength = rules["minLength"]?.integerValue
            let maxLength = rules["maxLength"]?.integerValue
            var phrase = "a string"
            switch rules["format"]?.stringValue {
            case "date-time"?: phrase = "an RFC 3339 timestamp"
            case let format?: phrase = "a string in \(format) format"
            case nil: break
            }
            switch (minLength, maxLength) {
            case let (min?, max?): phrase += " of \(min) to \(max) characters"  // a range is plural (CLDR)
            case let (nil, max?): phrase += " of at most \(count(max, "character", "characters"))"
            case let (min?, nil): phrase += " of at least \(count(min, "character", "characters"))"
            default: break
            }
            return phrase
        case "integer", "number":
            let noun = type == "integer" ? "an integer" : "a number"
            let minimum = rules["minimum"]
            let maximum = rules["maximum"]
            switch (minimum, maximum) {
            case let (min?, max?): return "\(noun) from \(min) to \(max)"
            case let (min?, nil): return "\(noun) of at least \(min)"
            case let (nil, max?): return "\(noun) of at most \(max)"
            default: return noun
            }
        case "boolean": return "a boolean"
        case "null": return "null"
        case "array":
            var phrase = "an array"
            if let maxItems = rules["maxItems"]?.integerValue {
                phrase += " of at most \(count(maxItems, "item", "items"))"
            }
            return phrase
        case "object": return "an object"
        default: return type
        }
    }
}
