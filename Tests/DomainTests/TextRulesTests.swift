import Testing

@testable import Domain

/// What counts as blank (an empty note is refused, an untitled reminder is removed): nothing but Unicode
/// white space. ASCII is decided byte by byte, anything else by the Unicode properties.
@Suite struct TextRulesTests {
    @Test(arguments: ["", " ", "\t\n\r", "\u{0B}\u{0C}", " \u{3000} ", "\u{00A0}", "\u{0085}", "  \u{2003}\t"])
    func blank(text: String) {
        #expect(TextRules.isBlank(text))
    }

    @Test(arguments: ["a", " a", "\t.\t", "\u{3000}x", "x\u{3000}", "\u{00A0}é", "日本", "\u{200B}", "_"])
    func notBlank(text: String) {
        #expect(!TextRules.isBlank(text))
    }
}

/// Every text a person writes is bounded in characters, in bytes (four a character of its limit, never less
/// than 32 KiB) and in the scalars one character is made of, by the one rule every path goes through.
@Suite struct TextBoundsTests {
    typealias Support = DomainTestSupport

    @Test func aCharacterOfAThousandAccentsIsRefusedThoughItIsOneCharacter() throws {
        let store = try Support.openStore()
        let title = "a" + String(repeating: "\u{301}", count: 1_000)
        #expect(title.count == 1)
        #expect(throws: DomainError.validation(reason: .characterTooLong, field: "title", limit: 32)) {
            try store.notes.create(NoteDraft(title: title))
        }
        // A megabyte of them is refused by its size before its characters are even counted.
        #expect(throws: DomainError.validation(reason: .textTooLarge, field: "title", limit: 32_768)) {
            try store.notes.create(NoteDraft(title: "a" + String(repeating: "\u{301}", count: 500_000)))
        }
        // A few accents, a flag and a family are well within the bound.
        let fine = "a\u{301}\u{302}\u{303} 🇯🇵 " + Support.family + " \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
        #expect(try store.notes.create(NoteDraft(title: fine)).title == fine)
        #expect(try store.notes.count() == 1)
    }

    @Test func aMegabyteBoardTitleIsRefused() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .titleTooLong, field: "title", limit: 255)) {
            try store.board.create(title: String(repeating: "é", count: 1 << 20))
        }
        #expect(throws: DomainError.validation(reason: .textTooLarge, field: "title", limit: 32_768)) {
            try store.board.create(title: String(repeating: "\u{301}", count: 1 << 19))
        }
    }

    @Test func joinedEmojiAreBoundedInBytes() {
        // 150,000 emoji joined by zero-width joiners: one character.
        let joined = Array(repeating: "👩", count: 150_000).joined(separator: "\u{200D}")
        #expect(throws: DomainError.validation(reason: .textTooLarge, field: "title", limit: 32_768)) {
            try Reminder.check(title: joined, memo: nil)
        }
        // Past its bytes but within them: a character of 40 scalars.
        let forty = Array(repeating: "👩", count: 20).joined(separator: "\u{200D}")
        #expect(throws: DomainError.validation(reason: .characterTooLong, field: "memo", limit: 32)) {
            try Reminder.check(title: "t", memo: forty)
        }
    }

    @Test func aDiaryTextIsBoundedToo() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .contentTooLong, field: "text", limit: 100_000)) {
            try store.diary.create(text: String(repeating: "w", count: 100_001), images: [])
        }
        #expect(try store.diary.create(text: String(repeating: "w", count: 100_000), images: []).text?.count == 100_000)
    }

    @Test func anImportHoldsToTheSameBounds() throws {
        let store = try Support.openStore()
        _ = try store.notes.create(NoteDraft(title: "kept"))
        var document = try store.exchange.export()
        document.notes[0].title = "a" + String(repeating: "\u{301}", count: 100)
        #expect(throws: DomainError.validation(reason: .characterTooLong, field: "document.notes[0].title", limit: 32)) {
            try store.exchange.importDocument(document, mode: .replace)
        }
        #expect(try store.notes.list(PageRequest(limit: 10)).items.map(\.title) == ["kept"])
    }
}

/// A page of large items stops early: no list answer grows past a few megabytes, and paging on finds the
/// rest, each once.
@Suite struct PageBytesTests {
    @Test func aPageOfMillionCharacterNotesStopsAtItsByteBudget() throws {
        let store = try DomainTestSupport.openStore()
        let content = String(repeating: "w", count: 1_000_000)
        let made = try (0..<6).map { try store.notes.create(NoteDraft(title: "big \($0)", content: content)).id }
        let first = try store.notes.list(PageRequest(limit: 500))
        #expect(first.items.count == 4, "4,000,000 bytes fit in 4 MiB; a fifth would not")
        let cursor = try #require(first.nextCursor)
        let second = try store.notes.list(PageRequest(limit: 500, cursor: cursor))
        #expect(second.nextCursor == nil)
        #expect((first.items + second.items).map(\.id) == made)
        // Small items fill a page to its limit as before.
        let small = try DomainTestSupport.openStore()
        for index in 0..<30 { _ = try small.notes.create(NoteDraft(title: "n \(index)")) }
        #expect(try small.notes.list(PageRequest(limit: 25)).items.count == 25)
    }
}
