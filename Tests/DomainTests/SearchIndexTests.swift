import Foundation
import Testing

@testable import Domain

/// SPEC §11 search: FTS5 over every app, kept current in the data's own transactions.
@Suite struct SearchIndexTests {
    static func store() throws -> DataStore {
        try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
    }

    @Test func findsEveryAppByPiecesOfWords() throws {
        let store = try Self.store()
        let note = try store.notes.create(NoteDraft(title: "Groceries", content: "oat milk and bread"))
        let reminder = try store.reminders.add(title: "Call the plumber", session: store.makeEditingSession()).reminder
        let post = try store.diary.create(text: "Walked along the riverbank", images: [])
        let message = try store.messages.send(text: "See you at the station")
        let board = try store.board.create(title: "Pineapple")
        let png = PNGEncoder.solid(width: 2, height: 2, red: 1, green: 2, blue: 3)
        let photo = try store.photos.add(
            image: .data(base64: Data(png).base64EncodedString(), claimedMimeType: nil), caption: "Sunset over the harbour")
        let cases: [(String, ChangeDomain, String)] = [
            ("grocer", .notes, note.id), ("milk", .notes, note.id), ("plumb", .reminders, reminder.id),
            ("riverb", .diary, post.id), ("statio", .messages, message.id), ("pineap", .board, board.id),
            ("harbo", .photos, photo.id),
        ]
        for (query, domain, id) in cases {
            let hits = try store.search.search(query)
            #expect(hits.map(\.id) == [id], "\(query)")
            #expect(hits.first?.domain == domain)
        }
    }

    @Test func russianAndJapaneseAreFoundBySubstringsOfWords() throws {
        let store = try Self.store()
        let russian = try store.notes.create(NoteDraft(title: "Книги", content: "Перечитать «Мастера и Маргариту»"))
        let japanese = try store.notes.create(NoteDraft(title: "旅行", content: "京都で紅葉を見る"))
        #expect(try store.search.search("Маргарит").map(\.id) == [russian.id])
        #expect(try store.search.search("мастер").map(\.id) == [russian.id])
        #expect(try store.search.search("紅葉を").map(\.id) == [japanese.id])
        // Two-character words (most kanji words) are found too.
        #expect(try store.search.search("京都").map(\.id) == [japanese.id])
        #expect(try store.search.search("旅行").map(\.id) == [japanese.id])
    }

    @Test func allTermsMustMatchAndTitlesRankAboveBodies() throws {
        let store = try Self.store()
        let inBody = try store.notes.create(NoteDraft(title: "Shopping", content: "remember the tomatoes"))
        let inTitle = try store.notes.create(NoteDraft(title: "Tomatoes", content: "plant in May"))
        _ = try store.notes.create(NoteDraft(title: "Potatoes", content: "plant in April"))
        #expect(try store.search.search("tomato").map(\.id) == [inTitle.id, inBody.id])
        #expect(try store.search.search("tomato plant").map(\.id) == [inTitle.id])
        #expect(try store.search.search("tomato xylophone").isEmpty)
    }

    @Test func snippetsMarkTheMatch() throws {
        let store = try Self.store()
        _ = try store.notes.create(NoteDraft(title: "Trip", content: "We took the night train to Vienna and slept well"))
        let hit = try #require(try store.search.search("vienn").first)
        #expect(hit.snippet.contains("**Vienn**"))
        #expect(hit.title == "Trip")
        let short = try #require(try store.search.search("to").first)
        #expect(short.snippet.contains("**to**"))
    }

    @Test(arguments: ["\"milk", "milk*", "-milk", "milk NEAR bread", "NEAR(milk bread)", "milk OR", "(milk", "m'lk\"\"", "%", "_"])
    func queriesWithFTSSyntaxAreTextNotErrors(query: String) throws {
        let store = try Self.store()
        _ = try store.notes.create(NoteDraft(title: "milk and bread"))
        _ = try store.search.search(query)
    }

    @Test func syntaxCharactersAreSearchedLiterally() throws {
        let store = try Self.store()
        let starred = try store.notes.create(NoteDraft(title: "rate: 5*stars", content: "100% sure"))
        _ = try store.notes.create(NoteDraft(title: "stars", content: "100 sure"))
        #expect(try store.search.search("5*st").map(\.id) == [starred.id])
        #expect(try store.search.search("0%").map(\.id) == [starred.id])
    }

    @Test func updatesAndDeletesAreReflectedAtOnce() throws {
        let store = try Self.store()
        let note = try store.notes.create(NoteDraft(title: "Old title"))
        _ = try store.notes.update(id: note.id, NoteChanges(title: "Fresh words"))
        #expect(try store.search.search("old tit").isEmpty)
        #expect(try store.search.search("fresh").map(\.id) == [note.id])
        try store.notes.delete(id: note.id)
        #expect(try store.search.search("fresh").isEmpty)
        let board = try store.board.create(title: "Quince")
        try store.board.delete(id: board.id)
        #expect(try store.search.search("quinc").isEmpty)
    }

    @Test func domainsAndLimitNarrowTheHits() throws {
        let store = try Self.store()
        _ = try store.notes.create(NoteDraft(title: "apple pie"))
        _ = try store.board.create(title: "Apple")
        _ = try store.messages.send(text: "an apple a day")
        #expect(try store.search.search("apple").count == 3)
        #expect(try store.search.search("apple", domains: [.board]).map(\.domain) == [.board])
        #expect(try store.search.search("apple", limit: 2).count == 2)
        #expect(try store.search.search("   ").isEmpty)
    }

    @Test func aFailedMutationLeavesTheIndexAsItWas() throws {
        let store = try Self.store()
        let note = try store.notes.create(NoteDraft(title: "Keep me"))
        #expect(throws: DomainError.self) {
            try store.notes.update(id: note.id, NoteChanges(title: " ", content: ""))
        }
        #expect(try store.search.search("keep").map(\.id) == [note.id])
    }
}
