import Foundation
import Protocol
import Testing

/// What an assistant reads of each tool in `tools/list`: a title for people, a description that says what the
/// tool does, what it returns and how it fails, every param described, and every numeric bound the words
/// give written as JSON Schema's `minimum`/`maximum` too.
@Suite struct MCPToolDescriptionTests {
    static func tools() throws -> [JSONValue] {
        let server = try SatchelProcess()
        return try #require(server.call(request(1, "tools/list"))?["result"]?["tools"]?.arrayValue)
    }

    @Test func everyToolHasATitleForPeopleAndADescriptionOfSomeLength() throws {
        for tool in try Self.tools() {
            let name = try #require(tool["name"]?.stringValue)
            let title = tool["title"]?.stringValue ?? ""
            #expect(!title.isEmpty && title != name, "\(name): title \(title)")
            #expect(!title.contains("_") && !title.contains("."), "\(name): \(title) reads as a method name")
            #expect(title.first?.isUppercase == true, "\(name): \(title)")
            #expect(tool["annotations"]?["title"]?.stringValue == title, "\(name)")
            let description = tool["description"]?.stringValue ?? ""
            #expect(description.count >= 80, "\(name): \(description)")
            for (param, schema) in tool["inputSchema"]?["properties"]?.objectValue ?? JSONObject() {
                #expect((schema["description"]?.stringValue ?? "").count >= 5, "\(name).\(param) is not described")
            }
        }
    }

    /// A number whose words give a bound ("0...1", "1...500", "0-based", "at least 8") says it in the schema.
    @Test func everyBoundTheWordsGiveIsInTheSchema() throws {
        var checked = 0
        for tool in try Self.tools() {
            let name = tool["name"]?.stringValue ?? ""
            for (path, rules) in Self.numbers(in: tool["inputSchema"] ?? .null, at: name) {
                let words = rules["description"]?.stringValue ?? ""
                let (lower, upper) = Self.bounds(in: words)
                if lower { #expect(rules["minimum"] != nil, "\(path): \"\(words)\" but no minimum") }
                if upper { #expect(rules["maximum"] != nil, "\(path): \"\(words)\" but no maximum") }
                if lower || upper { checked += 1 }
            }
        }
        #expect(checked >= 10)
        // The colour, whose bounds were words only.
        let create = try #require(try Self.tools().first { $0["name"] == "notes_create" })
        for component in ["hue", "saturation", "brightness"] {
            let rules = create["inputSchema"]?["properties"]?["color"]?["properties"]?[component]
            #expect(rules?["minimum"]?.doubleValue == 0 && rules?["maximum"]?.doubleValue == 1, "\(component)")
        }
    }

    /// Whether `words` state a lower and an upper bound in numbers.
    static func bounds(in words: String) -> (lower: Bool, upper: Bool) {
        let text = words.lowercased()
        let range = text.contains(/\d[\d,]*\s*(\.\.\.|…| to )\s*\d/)
        let lower = range || text.contains("0-based") || text.contains(/at least \d/)
        let upper = range || text.contains(/at most \d/)
        return (lower, upper)
    }

    /// Every number or integer schema inside `schema`, by its path.
    static func numbers(in schema: JSONValue, at path: String) -> [(String, JSONObject)] {
        guard let rules = schema.objectValue else { return [] }
        var found: [(String, JSONObject)] = []
        if ["number", "integer"].contains(rules["type"]?.stringValue ?? "") { found.append((path, rules)) }
        for (name, property) in rules["properties"]?.objectValue ?? JSONObject() {
            found += numbers(in: property, at: "\(path).\(name)")
        }
        if let items = rules["items"] { found += numbers(in: items, at: "\(path)[]") }
        for option in rules["anyOf"]?.arrayValue ?? [] { found += numbers(in: option, at: path) }
        return found
    }
}
