import Foundation
import Protocol
import Testing

/// A value parsed once and decoded from the tree reads as Foundation's `JSONDecoder` reads its text, and fails
/// at the same place.
@Suite struct JSONValueDecoderTests {
    struct Color: Codable, Equatable {
        var hue: Double
        var saturation: Double
    }

    struct Item: Codable, Equatable {
        var id: String
        var count: Int64
        var small: Int8?
        var done: Bool
        var caption: String?
        var color: Color
        var tags: [String]
    }

    struct Document: Codable, Equatable {
        var format: String
        var items: [Item]
    }

    /// Where decoding failed, as a path (`.items[1].color.hue`); `nil` when it did not.
    static func failure(_ body: () throws -> Document) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as DecodingError {
            let path: [any CodingKey]
            switch error {
            case .keyNotFound(let key, let context): path = context.codingPath + [key]
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath
            @unknown default: path = []
            }
            return path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        } catch {
            return "not a DecodingError: \(error)"
        }
    }

    static let good = """
        {"format":"x","items":[
          {"id":"a","count":3,"done":true,"color":{"hue":0.5,"saturation":1},"tags":["p","q"]},
          {"id":"b","count":-9007199254740993,"small":-7,"done":false,"caption":null,"color":{"hue":1,"saturation":0.25},"tags":[]},
          {"id":"c","count":0,"done":false,"caption":"hi","color":{"hue":0.1,"saturation":0.2},"tags":[],"extra":1}
        ]}
        """

    @Test func aValidDocumentDecodesAsFoundationDecodesItsText() throws {
        let mine = try JSONValueDecoder().decode(Document.self, from: try JSONParser.parse(Self.good))
        let theirs = try JSONDecoder().decode(Document.self, from: Data(Self.good.utf8))
        #expect(mine == theirs)
        #expect(mine.items[1].count == -9_007_199_254_740_993, "integers stay exact")
        #expect(mine.items[1].caption == nil && mine.items[2].caption == "hi")
    }

    @Test(arguments: [
        (#""items":[{"id":"a","count":3,"done":true,"color":{"hue":0.5},"tags":[]}]"#, ".items[0].color.saturation"),
        (#""items":[{"id":"a","count":"3","done":true,"color":{"hue":0.5,"saturation":1},"tags":[]}]"#, ".items[0].count"),
        (#""items":[{"id":"a","count":3,"done":true,"color":{"hue":0.5,"saturation":1},"tags":["p",2]}]"#, ".items[0].tags[1]"),
        (#""items":[{"id":null,"count":3,"done":true,"color":{"hue":0.5,"saturation":1},"tags":[]}]"#, ".items[0].id"),
        (#""items":[{"id":"a","count":3,"small":300,"done":true,"color":{"hue":0.5,"saturation":1},"tags":[]}]"#, ".items[0].small"),
        (#""items":[{"id":"a","count":1.5,"done":true,"color":{"hue":0.5,"saturation":1},"tags":[]}]"#, ".items[0].count"),
        (#""items":"none""#, ".items"),
        (#""items":[7]"#, ".items[0]"),
    ])
    func aBrokenDocumentFailsWhereFoundationFails(items: String, path: String) throws {
        let text = #"{"format":"x","# + items + "}"
        let mine = Self.failure { try JSONValueDecoder().decode(Document.self, from: try JSONParser.parse(text)) }
        let theirs = Self.failure { try JSONDecoder().decode(Document.self, from: Data(text.utf8)) }
        #expect(mine == path)
        // Foundation refuses it too, at the same place (for a number that does not fit it names none).
        #expect(theirs == path || theirs == "")
    }
}
