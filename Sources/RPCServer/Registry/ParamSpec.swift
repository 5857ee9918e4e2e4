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
