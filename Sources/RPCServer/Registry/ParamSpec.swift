import Protocol

/// One parameter of a method: its name, its position, whether it is required, and its JSON Schema.
struct ParamSpec {
    var name: String
    var schema: JSONValue
    var required: Bool
    var summary: String

    static func required(_ name: String, _ schema: JSONValue, _ summary: String) -> ParamSpec {
        ParamSpec(name: name, schema: schema, required: true, summary: summary)
    }

    static func optional(_ name: String, _ schema: JSONValue, _ summary: String) -> ParamSpec {
        ParamSpec(name: name, schema: schema, required: false, summary: summary)
    }
}
