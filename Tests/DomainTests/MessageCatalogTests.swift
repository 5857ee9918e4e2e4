import Testing

@testable import Domain

@Suite struct MessageCatalogTests {
    @Test func everyMessageExistsInEveryLanguage() {
        for (key, texts) in MessageCatalog.all {
            for language in Language.allCases {
                let text = texts[language]
                #expect(text?.isEmpty == false, "\(key.rawValue) has no \(language.rawValue) text")
            }
        }
    }

    @Test func everyReasonHasAMessage() {
        for reason in Reason.allCases {
            #expect(MessageCatalog.all[MessageKey(rawValue: reason.rawValue)] != nil, "\(reason) has no message")
        }
    }

    @Test func placeholdersAgreeAcrossLanguages() {
        func placeholders(_ text: String) -> Set<String> {
            var found: Set<String> = []
            var rest = text[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                found.insert(String(rest[open...close]))
                rest = rest[rest.index(after: close)...]
            }
            return found
        }
        for (key, texts) in MessageCatalog.all {
            let english = placeholders(texts[.english] ?? "")
            for language in Language.allCases {
                #expect(placeholders(texts[language] ?? "") == english, "\(key.rawValue) in \(language.rawValue)")
            }
        }
    }

    @Test func argumentsAreFilledAndUnknownKeysFallBackToTheKey() {
        #expect(MessageCatalog.text("methodNotFound", .english, arguments: ["method": "a.b"]) == "Method not found: a.b")
        #expect(MessageCatalog.text("methodNotFound", .japanese, arguments: ["method": "a.b"]) == "メソッドが見つかりません: a.b")
        #expect(MessageCatalog.text("no.such.key", .russian) == "no.such.key")
    }

    @Test func languageTagsAreRecognised() {
        #expect(Language(tag: "ru") == .russian)
        #expect(Language(tag: "ja-JP") == .japanese)
        #expect(Language(tag: "en_GB") == .english)
        #expect(Language(tag: "fr") == nil)
    }
}
