import Protocol

/// One parameter of a method: its name, its position, whether it is required, and its JSON Schema.
struct ParamSpec {
    var name: String
    var schema: JSONValue {
        didSet { plainString = PlainStringCheck(schema) }
    }
    var required: Bool
    var summary: String
    /// Set when the schema is a plain string schema, which is then checked without reading it.
    private(set) var plainString: PlainStringCheck?

    init(name: String, schema: JSONValue, required: Bool, summary: String) {
        self.name = name
        self.schema = schema
        self.required = required
        self.summary = summary
        plainString = PlainStringCheck(schema)
    }

    static func required(_ name: String, _ schema: JSONValue, _ summary: String) -> ParamSpec {
        ParamSpec(name: name, schema: schema, required: true, summary: summary)
    }

    static func optional(_ name: String, _ schema: JSONValue, _ summary: String) -> ParamSpec {
        ParamSpec(name: name, schema: schema, required: false, summary: summary)
    }

    /// The schema with the summary as its `description` (the schema's own, if any, after it in brackets):
    /// a param as one schema says what it is for.
    var describedSchema: JSONValue {
        guard case .object(var rules) = schema else { return schema }
        var text = summary
        if let own = rules["description"]?.stringValue, !summary.contains(own) {
            if text.hasSuffix(".") { text.removeLast() }
            text += " (\(own))."
        }
        rules["description"] = .string(text)
        return .object(rules)
    }
}

/// The commonest param schema — `{"type": "string"}` with at most `minLength`, `maxLength` and a
/// `description` — read once, so a value can be accepted without looking the rules up each time. It only
/// ever accepts what ``SchemaValidator`` accepts; anything it does not accept goes to the validator, which
/// also words the error.
struct PlainStringCheck {
    let minLength: Int64?
    let maxLength: Int64?

    init?(_ schema: JSONValue) {
        guard case .object(let rules) = schema, rules["type"]?.stringValue == "string",
            rules.orderedKeys.allSatisfy({ ["type", "minLength", "maxLength", "description"].contains($0) })
        else { return nil }
        minLength = rules["minLength"]?.integerValue
        maxLength = rules["maxLength"]?.integerValue
        if rules["minLength"] != nil && minLength == nil || rules["maxLength"] != nil && maxLength == nil {
            return nil
        }
    }

    func accepts(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value else { return false }
        // Characters are counted only when the UTF-8 length does not settle it.
        if let minLength, minLength > 0 {
            if minLength == 1 ? text.isEmpty : Int64(text.count) < minLength { return false }
        }
        if let maxLength, Int64(text.utf8.count) > maxLength, Int64(text.count) > maxLength { return false }
        return true
    }
}

/// A required param declared with the type its handler reads it as: the spec the registry validates and
/// publishes, and how a validated value becomes a `Value`. `params[key]` then is a `Value`, never an
/// optional to force open (see ``ParamValues/subscript(_:)``).
struct Required<Value> {
    let spec: ParamSpec
    let read: (JSONValue) -> Value?

    init(_ name: String, _ schema: JSONValue, _ summary: String, read: @escaping (JSONValue) -> Value?) {
        spec = .required(name, schema, summary)
        self.read = read
    }
}

extension Required where Value == String {
    /// A string param (an id, a title, a query).
    static func string(_ name: String, _ schema: JSONValue = Schema.string(), _ summary: String) -> Self {
        Self(name, schema, summary) { $0.stringValue }
    }
}

extension Required where Value == Int {
    /// An integer param, clamped to `Int`.
    static func integer(_ name: String, _ schema: JSONValue = Schema.integer(), _ summary: String) -> Self {
        Self(name, schema, summary) { $0.integerValue.map { Int(clamping: $0) } }
    }
}

extension Required where Value == JSONValue {
    /// A param read as the JSON it is (an image input, a document).
    static func json(_ name: String, _ schema: JSONValue, _ summary: String) -> Self {
        Self(name, schema, summary) { $0 }
    }
}

extension Required where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of `Value`'s cases by its raw value; the schema lists them.
    static func oneOf(_ name: String, _ summary: String) -> Self {
        Self(name, Schema.enumeration(Value.allCases.map(\.rawValue)), summary) { $0.stringValue.flatMap(Value.init(rawValue:)) }
    }
}
