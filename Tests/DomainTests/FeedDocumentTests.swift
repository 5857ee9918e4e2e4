import Foundation
import Testing

@testable import Domain

/// The feed's two answer shapes (SPEC §9), read with JSONDecoder: what is kept, and what makes an answer
/// unusable (`malformedResponse`, or `invalidMessage` for a text that breaks the message rules).
@Suite struct FeedDocumentTests {
    static func read(_ text: String) throws(DomainError) -> [FeedMessage] {
        try FeedDocument.messages(from: Data(text.utf8))
    }

    static func reason(_ text: String) -> Reason? {
        do throws(DomainError) {
            _ = try read(text)
            return nil
        } catch {
            if case .upstreamUnavailable(let reason, _, _) = error { return reason }
            return nil
        }
    }

    @Test func theResultShapeIsAListOfTexts() throws {
        #expect(try Self.read(#"{"result":["one","two"]}"#) == [FeedMessage(text: "one"), FeedMessage(text: "two")])
    }

    @Test func theMessagesShapeKeepsIdsTimesAndAuthors() throws {
        let messages = try Self.read(
            #"""
            {"messages":[
              {"id":"m-1","text":"hi","sentAt":"2026-11-21T09:15:00.000Z","author":{"name":"Ann","avatarUrl":"https://a.example/x.png"}},
              {"id":42,"text":"two","author":null},
              {"text":"three","author":{"name":"Bo","avatarUrl":7}}
            ]}
            """#)
        #expect(messages[0] == FeedMessage(id: "m-1", text: "hi", sentAt: 1_795_252_500_000,
                                           author: Author(name: "Ann", avatarURL: "https://a.example/x.png")))
        #expect(messages[1] == FeedMessage(id: "42", text: "two"))
        #expect(messages[2] == FeedMessage(text: "three", author: Author(name: "Bo", avatarURL: nil)))
    }

    @Test(arguments: [
        "not json", "[1,2]", #"{"other":[]}"#, #"{"result":"x"}"#, #"{"result":["a",3]}"#,
        #"{"messages":[{"id":"a"}]}"#, #"{"messages":[{"id":"","text":"x"}]}"#, #"{"messages":[{"id":true,"text":"x"}]}"#,
        #"{"messages":[{"text":"x","sentAt":"yesterday"}]}"#, #"{"messages":[{"text":"x","author":{"name":"  "}}]}"#,
        #"{"messages":[{"text":"x","author":"Ann"}]}"#,
    ])
    func anUnusableAnswerIsMalformed(text: String) {
        #expect(Self.reason(text) == .malformedResponse)
    }

    @Test func aTextThatBreaksTheMessageRulesIsInvalidMessage() {
        #expect(Self.reason(#"{"result":["   "]}"#) == .invalidMessage)
        #expect(Self.reason(#"{"messages":[{"text":""}]}"#) == .invalidMessage)
    }
}
