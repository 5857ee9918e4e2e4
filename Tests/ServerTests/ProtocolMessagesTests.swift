import Domain
import Testing

@testable import RPCServer

/// JSON-RPC's own wording lives in RPCServer; every message has all three languages, and a response finds
/// the protocol's and the domain's messages alike.
@Suite struct ProtocolMessagesTests {
    @Test func everyProtocolMessageExistsInEveryLanguageWithTheSamePlaceholders() {
        #expect(MessageCatalog.problems(in: ProtocolMessages.table) == [])
    }

    @Test func theProtocolsWordsAreNotTheDomains() {
        #expect(MessageCatalog.all["methodNotFound"] == nil)
        #expect(ProtocolMessages.text("methodNotFound", .english, arguments: ["method": "a.b"]) == "Method not found: a.b")
        #expect(ProtocolMessages.text("methodNotFound", .japanese, arguments: ["method": "a.b"]) == "メソッドが見つかりません: a.b")
        #expect(ProtocolMessages.text("notFound", .english, arguments: ["kind": "note", "id": "n1"]) == "No note with id n1")
    }

    /// The protocol's limits count bytes, levels, entries and parameters: each noun in the form of its number.
    @Test func everyCountedNounTakesTheFormOfItsNumber() {
        let expected: [(MessageKey, String, english: String, russian: String)] = [
            ("messageTooLarge", "1", "the message is longer than 1 byte", "сообщение длиннее 1 байта"),
            ("messageTooLarge", "1048576", "the message is longer than 1048576 bytes", "сообщение длиннее 1048576 байт"),
            ("tooDeep", "1", "JSON is nested deeper than 1 level", "вложенность JSON глубже 1 уровня"),
            ("tooDeep", "64", "JSON is nested deeper than 64 levels", "вложенность JSON глубже 64 уровней"),
            ("tooComplex", "1", "to parse in 1 byte of memory", "чтобы разобрать его в 1 байт памяти"),
            ("tooComplex", "2", "to parse in 2 bytes of memory", "чтобы разобрать его в 2 байта памяти"),
            ("tooComplex", "5242880", "to parse in 5242880 bytes of memory", "чтобы разобрать его в 5242880 байт памяти"),
            ("batchTooLarge", "1", "a batch may hold at most 1 entry", "пакет может содержать не более 1 элемента"),
            ("batchTooLarge", "22", "a batch may hold at most 22 entries", "пакет может содержать не более 22 элементов"),
            ("tooManyParams", "0", "at most 0 positional parameters", "не более 0 позиционных параметров"),
            ("tooManyParams", "1", "at most 1 positional parameter", "не более 1 позиционного параметра"),
            ("tooManyParams", "3", "at most 3 positional parameters", "не более 3 позиционных параметров"),
        ]
        for (key, limit, english, russian) in expected {
            let arguments = ["limit": limit]
            #expect(ProtocolMessages.text(key, .english, arguments: arguments).hasSuffix(english), "\(key.rawValue)")
            #expect(ProtocolMessages.text(key, .russian, arguments: arguments).contains(russian), "\(key.rawValue)")
            #expect(ProtocolMessages.text(key, .japanese, arguments: arguments).contains("\(limit) "), "\(key.rawValue)")
        }
    }

    @Test func whatASchemaAcceptsCountsInEnglishForms() {
        #expect(SchemaValidator.describe(Schema.string(minLength: 1)) == "a string of at least 1 character")
        #expect(SchemaValidator.describe(Schema.string(maxLength: 1)) == "a string of at most 1 character")
        #expect(SchemaValidator.describe(Schema.string(minLength: 0, maxLength: 1)) == "a string of 0 to 1 characters")
        #expect(SchemaValidator.describe(Schema.string(maxLength: 21)) == "a string of at most 21 characters")
        #expect(SchemaValidator.describe(Schema.array(of: Schema.id, maxItems: 1)) == "an array of at most 1 item")
        #expect(SchemaValidator.describe(Schema.array(of: Schema.id, maxItems: 4)) == "an array of at most 4 items")
    }
}
