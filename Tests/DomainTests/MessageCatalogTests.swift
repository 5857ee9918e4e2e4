import Testing

@testable import Domain

@Suite struct MessageCatalogTests {
    @Test func everyMessageExistsInEveryLanguageWithTheSamePlaceholders() {
        #expect(MessageCatalog.problems(in: MessageCatalog.all) == [])
    }

    @Test func aMissingLanguageOrPlaceholderIsAProblem() {
        let table: MessageCatalog.Table = [
            "a": [.english: "{x} a", .russian: "{x} а"],
            "b": [.english: "{x} b", .russian: "{y} б", .japanese: "{x} ビ"],
        ]
        #expect(MessageCatalog.problems(in: table) == ["a has no ja text", "b in ru: other placeholders"])
    }

    @Test func everyReasonHasAMessage() {
        for reason in Reason.allCases {
            #expect(MessageCatalog.all[MessageKey(rawValue: reason.rawValue)] != nil, "\(reason) has no message")
        }
    }

    @Test func argumentsAreFilledAndUnknownKeysFallBackToTheKey() {
        #expect(MessageCatalog.text("notFound", .english, arguments: ["kind": "note", "id": "n1"]) == "No note with id n1")
        #expect(MessageCatalog.text("freeLimitReached", .japanese, arguments: ["limit": "3"]).contains("3"))
        #expect(MessageCatalog.text("no.such.key", .russian) == "no.such.key")
    }

    @Test func languageTagsAreRecognised() {
        #expect(Language(tag: "ru") == .russian)
        #expect(Language(tag: "ja-JP") == .japanese)
        #expect(Language(tag: "en_GB") == .english)
        #expect(Language(tag: "fr") == nil)
    }
}
