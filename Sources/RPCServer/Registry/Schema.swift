import Protocol

/// Builders for the JSON Schemas (draft 2020-12 vocabulary) that describe params and results.
///
/// A schema is plain JSON, so the same value is validated against, published in `rpc.discover` and,
/// later, handed to MCP clients as a tool's input schema.
enum Schema {
    static func string(
        minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil, description: String? = nil
    ) -> JSONValue {
        var object: JSONObject = ["type": "string"]
        if let minLength { object["minLength"] = .integer(Int64(minLength)) }
        if let maxLength { object["maxLength"] = .integer(Int64(maxLength)) }
        if let format { object["format"] = .string(format) }
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    static func integer(minimum: Int64? = nil, maximum: Int64? = nil, description: String? = nil) -> JSONValue {
        var object: JSONObject = ["type": "integer"]
        if let minimum { object["minimum"] = .integer(minimum) }
        if let maximum { object["maximum"] = .integer(maximum) }
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    static func number(minimum: Double? = nil, maximum: Double? = nil, description: String? = nil) -> JSONValue {
        var object: JSONObject = ["type": "number"]
        if let minimum { object["minimum"] = .number(minimum) }
        if let maximum { object["maximum"] = .number(maximum) }
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    static let boolean: JSONValue = ["type": "boolean"]
    static let null: JSONValue = ["type": "null"]
    /// Any JSON value at all.
    static let any: JSONValue = [:]

    static func enumeration(_ values: [String], description: String? = nil) -> JSONValue {
        var object: JSONObject = ["type": "string", "enum": .array(values.map { .string($0) })]
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    static func array(of items: JSONValue, minItems: Int? = nil, maxItems: Int? = nil) -> JSONValue {
        var object: JSONObject = ["type": "array", "items": items]
        if let minItems { object["minItems"] = .integer(Int64(minItems)) }
        if let maxItems { object["maxItems"] = .integer(Int64(maxItems)) }
        return .object(object)
    }

    /// An object with these properties; `additional` says whether other members are allowed.
    static func object(
        _ properties: [(String, JSONValue)], required: [String] = [], additional: Bool = false,
        description: String? = nil
    ) -> JSONValue {
        var object: JSONObject = [
            "type": "object",
            "properties": .object(JSONObject(properties)),
        ]
        if !required.isEmpty { object["required"] = .array(required.map { .string($0) }) }
        object["additionalProperties"] = .bool(additional)
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    /// An object whose members may be anything (such as `clientInfo` or `capabilities`).
    static let openObject: JSONValue = ["type": "object"]

    /// `schema` or `null`.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        ["anyOf": [schema, null]]
    }

    /// Any one of `schemas`; `expected` is how a mismatch is described.
    static func anyOf(_ schemas: [JSONValue], expected: String) -> JSONValue {
        ["anyOf": .array(schemas), "description": .string(expected)]
    }

    /// An RFC 3339 timestamp.
    static let timestamp = string(format: "date-time")

    /// An opaque id made by the server.
    static let id = string(minLength: 1)

    /// The `limit` and `cursor` params every list takes.
    static let pageParams: [ParamSpec] = [
        .optional("limit", integer(minimum: 1, maximum: 500), "Items per page (1...500, default 50)."),
        .optional("cursor", string(), "The `nextCursor` of the previous page."),
    ]

    /// `{items: [item], nextCursor}`.
    static func page(of item: JSONValue) -> JSONValue {
        object([("items", array(of: item)), ("nextCursor", nullable(string()))], required: ["items", "nextCursor"])
    }

    /// `{id, deleted: true}`.
    static let deleted = object([("id", id), ("deleted", boolean)], required: ["id", "deleted"])
}
