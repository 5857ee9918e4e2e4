import Protocol
import Testing

@testable import RPCServer

/// The shortcut for plain string params accepts exactly what the schema validator accepts, and is only
/// taken for schemas it fully understands.
@Suite struct PlainStringCheckTests {
    static let schemas: [JSONValue] = [
        Schema.string(), Schema.id, Schema.string(maxLength: 3), Schema.string(minLength: 2, maxLength: 4),
        Schema.string(description: "anything"), Schema.string(minLength: 1, maxLength: 1),
    ]
    static let values: [JSONValue] = [
        "", "a", "ab", "abc", "abcd", "abcde", "日本", "日本語テキスト", "e\u{301}", "🙂🙂🙂", 5, 1.5, .null, true,
        ["a"], ["k": "v"],
    ]

    @Test(arguments: schemas)
    func agreesWithTheValidator(schema: JSONValue) throws {
        let check = try #require(PlainStringCheck(schema))
        for value in Self.values {
            let validator = (try? SchemaValidator.validate(value, against: schema, at: "p")) != nil
            #expect(check.accepts(value) == validator, "\(value) against \(schema)")
        }
    }

    @Test(arguments: [
        Schema.integer(), Schema.string(format: "date-time"), Schema.nullable(Schema.string()),
        JSONValue.object(["type": "string", "enum": ["a", "b"]]), JSONValue.object(["type": "string", "maxLength": "3"]),
    ])
    func isNotTakenForOtherSchemas(schema: JSONValue) {
        #expect(PlainStringCheck(schema) == nil)
    }
}
