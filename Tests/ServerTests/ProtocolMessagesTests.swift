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
}
