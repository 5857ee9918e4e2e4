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

    @Test func aPluralNeedsEveryFormItsLanguageUsesAndNoOther() {
        let table: MessageCatalog.Table = [
            "a": [
                .english: "{n, plural, one {# note} other {# notes}}",
                .russian: "{n, plural, one {# заметка} many {# заметок} other {# заметки}}",
                .japanese: "{n, plural, one {# 件} other {# 件}}",
            ],
            "b": [.english: "{n, plural, one {# note} other {# notes}}", .russian: "{n} заметок", .japanese: "{n} 件"],
            "c": [.english: "{n, plural, one {# note}}", .russian: "{n, plural, one {# заметка", .japanese: "{n, plural}"],
            "d": [
                .english: "{n, plural, one {{field}: # note} other {{field}: # notes}}",
                .russian: "{n, plural, one {# заметка} few {# заметки} many {# заметок} other {# заметки}}",
                .japanese: "{field}: {n} 件",
            ],
        ]
        #expect(MessageCatalog.problems(in: table) == [
            "a in ru: {n} has no few form",
            "a in ja: {n} has a one form, which it never uses",
            "b in ru: {n} has forms in another language but none here",
            "c in en: {n}: a plural without its other form",
            "c in ru: a plural's form is not closed",
            "c in ja: {n is neither {n} nor {n, plural, …}",
            "d in ru: other placeholders",
        ])
    }

    @Test func everyTextThatIsNoTemplateIsAProblem() {
        let texts = [
            "{n, plural, =0 {none} other {# notes}}": "{n}: '=' is not a plural category",
            "{n, plural, other {# notes} other {#}}": "{n}: two other forms",
            "{n, plural, one # note other {# notes}}": "{n}: the one form is not in braces",
            "{n, plural, one {# note} other {# notes}": "{n, plural, …} is not closed",
            "at most { } notes": "a { without an argument's name",
            "at most n} notes": "a } that closes nothing",
        ]
        for (text, reason) in texts {
            let table: MessageCatalog.Table = ["k": [.english: text, .russian: text, .japanese: text]]
            #expect(MessageCatalog.problems(in: table).first == "k in en: \(reason)", "\(text)")
        }
    }

    @Test(arguments: [
        ("0", PluralCategory.other, PluralCategory.many), ("1", .one, .one), ("2", .other, .few), ("4", .other, .few),
        ("5", .other, .many), ("11", .other, .many), ("12", .other, .many), ("14", .other, .many), ("20", .other, .many),
        ("21", .other, .one), ("22", .other, .few), ("24", .other, .few), ("25", .other, .many), ("30", .other, .many),
        ("101", .other, .one), ("104", .other, .few), ("111", .other, .many), ("112", .other, .many),
        ("-1", .one, .one), ("-22", .other, .few), ("100000000000000000000021", .other, .one),
        ("1.5", .other, .other), ("1.0", .other, .other), ("many", .other, .other),
    ])
    func pluralCategoriesFollowCLDR(number: String, english: PluralCategory, russian: PluralCategory) {
        #expect(Language.english.pluralCategory(of: number) == english)
        #expect(Language.russian.pluralCategory(of: number) == russian)
        #expect(Language.japanese.pluralCategory(of: number) == .other)
    }

    @Test func theFreeLimitSaysHowManyNotesInTheFormOfItsNumber() {
        let expected: [(String, String, String)] = [
            ("1", "1 note", "1 заметки"), ("2", "2 notes", "2 заметок"), ("5", "5 notes", "5 заметок"),
            ("21", "21 notes", "21 заметки"), ("22", "22 notes", "22 заметок"), ("25", "25 notes", "25 заметок"),
            ("111", "111 notes", "111 заметок"),
        ]
        for (limit, english, russian) in expected {
            let arguments = ["limit": limit]
            #expect(MessageCatalog.text("freeLimitReached", .english, arguments: arguments) == "The free edition holds at most \(english)")
            #expect(MessageCatalog.text("freeLimitReached", .russian, arguments: arguments) == "Бесплатная версия вмещает не более \(russian)")
            #expect(MessageCatalog.text("freeLimitReached", .japanese, arguments: arguments) == "無料版で保存できるノートは \(limit) 件までです")
        }
    }

    /// Every message where a limit counts something: the noun agrees with the number, in the case its
    /// sentence puts it.
    @Test func everyCountedNounTakesTheFormOfItsNumber() {
        let expected: [MessageKey: [String: (english: String, russian: String)]] = [
            "titleTooLong": [
                "1": ("The title is too long: at most 1 character", "Слишком длинный заголовок: не более 1 символа"),
                "500": ("The title is too long: at most 500 characters", "Слишком длинный заголовок: не более 500 символов"),
            ],
            "contentTooLong": [
                "21": ("The text is too long: at most 21 characters", "Слишком длинный текст: не более 21 символа"),
                "3": ("The text is too long: at most 3 characters", "Слишком длинный текст: не более 3 символов"),
            ],
            "captionTooLong": [
                "1": ("The caption is too long: at most 1 character", "Слишком длинная подпись: не более 1 символа")
            ],
            "memoTooLong": ["1": ("The memo is too long: at most 1 character", "Слишком длинная заметка: не более 1 символа")],
            "messageTooLong": [
                "1": ("The message is too long: at most 1 character", "Слишком длинное сообщение: не более 1 символа"),
                "10000": ("The message is too long: at most 10000 characters", "Слишком длинное сообщение: не более 10000 символов"),
            ],
            "tooManyImages": [
                "1": ("A post holds at most 1 photo", "В посте может быть не более 1 фотографии"),
                "4": ("A post holds at most 4 photos", "В посте может быть не более 4 фотографий"),
            ],
            "imageTooLarge": [
                "1": ("image.data is too large: at most 1 byte", "image.data: изображение слишком большое, не более 1 байта"),
                "22": ("image.data is too large: at most 22 bytes", "image.data: изображение слишком большое, не более 22 байт"),
            ],
            "exportTooLarge": [
                "1": (
                    "The export is larger than a message may be (1 byte): export into a file with `path`",
                    "Экспорт больше допустимого размера сообщения (1 байт): экспортируйте в файл с параметром `path`"
                ),
                "4": (
                    "The export is larger than a message may be (4 bytes): export into a file with `path`",
                    "Экспорт больше допустимого размера сообщения (4 байта): экспортируйте в файл с параметром `path`"
                ),
            ],
        ]
        for (key, byLimit) in expected {
            for (limit, texts) in byLimit {
                let arguments = ["limit": limit, "field": "image.data"]
                #expect(MessageCatalog.text(key, .english, arguments: arguments) == texts.english)
                #expect(MessageCatalog.text(key, .russian, arguments: arguments) == texts.russian)
            }
        }
    }

    @Test("Japanese says ノート for a note and メモ only for a reminder's memo, as the apps do")
    func japaneseWordForANote() {
        #expect(MessageCatalog.text("emptyNote", .japanese) == "ノートにはタイトルか本文が必要です")
        #expect(MessageCatalog.text("memoTooLong", .japanese, arguments: ["limit": "9"]) == "メモが長すぎます: 9 文字以内にしてください")
        for (key, texts) in MessageCatalog.all where key != "memoTooLong" {
            // メモリ is memory, another word.
            #expect(texts[.japanese]?.replacing("メモリ", with: "").contains("メモ") == false, "\(key.rawValue)")
        }
    }

    @Test func argumentsAreFilledOnceAndAMissingOneStaysVisible() {
        let table: MessageCatalog.Table = [
            "k": [.english: "{field}: at most {limit, plural, one {# note} other {# notes}}", .russian: "{field}"]
        ]
        #expect(MessageCatalog.text("k", .english, arguments: ["field": "{limit}", "limit": "1"], from: table) == "{limit}: at most 1 note")
        #expect(MessageCatalog.text("k", .english, from: table) == "{field}: at most {limit} notes")
        // A message missing in Japanese is English's, in English's forms.
        #expect(MessageCatalog.text("k", .japanese, arguments: ["field": "f", "limit": "1"], from: table) == "f: at most 1 note")
        #expect(MessageCatalog.text("k", .english, arguments: ["field": "f", "limit": "1.5"], from: table) == "f: at most 1.5 notes")
    }

    @Test func languageTagsAreRecognised() {
        #expect(Language(tag: "ru") == .russian)
        #expect(Language(tag: "ja-JP") == .japanese)
        #expect(Language(tag: "en_GB") == .english)
        #expect(Language(tag: "fr") == nil)
    }
}
