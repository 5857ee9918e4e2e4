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

/// The FTS index is brought up to date once per transaction from a queue; these check that the batching
/// never leaves it out of step with the data, whatever a transaction mixes.
@Suite struct SearchIndexBatchingTests {
    func integrityCheck(_ store: DataStore) throws {
        try store.database.run("INSERT INTO search_index(search_index) VALUES ('integrity-check')")
    }

    @Test func createUpdateAndDeleteInOneGroupLeaveAConsistentIndex() throws {
        let store = try SearchIndexTests.store()
        let kept = try store.notes.create(NoteDraft(title: "alpha original"))
        store.beginWriteGroup()
        let fresh = try store.notes.create(NoteDraft(title: "bravo fresh"))
        _ = try store.notes.update(id: fresh.id, NoteChanges(title: "charlie renamed"))
        _ = try store.notes.update(id: kept.id, NoteChanges(title: "delta changed"))
        let gone = try store.notes.create(NoteDraft(title: "echo short lived"))
        try store.notes.delete(id: gone.id)
        // A search inside the open group sees the group's own changes.
        #expect(try store.search.search("charlie").map(\.id) == [fresh.id])
        _ = try store.notes.update(id: fresh.id, NoteChanges(title: "foxtrot final"))
        try store.commitWriteGroup()
        try integrityCheck(store)
        #expect(try store.search.search("alpha").isEmpty)
        #expect(try store.search.search("bravo").isEmpty)
        #expect(try store.search.search("charlie").isEmpty)
        #expect(try store.search.search("echo").isEmpty)
        #expect(try store.search.search("delta").map(\.id) == [kept.id])
        #expect(try store.search.search("foxtrot").map(\.id) == [fresh.id])
    }

    @Test func aReusedRowidInOneGroupIsIndexedOnce() throws {
        let store = try SearchIndexTests.store()
        let last = try store.board.create(title: "golf")
        store.beginWriteGroup()
        try store.board.delete(id: last.id)
        let next = try store.board.create(title: "hotel")  // takes the freed rowid
        try store.commitWriteGroup()
        try integrityCheck(store)
        #expect(try store.search.search("golf").isEmpty)
        #expect(try store.search.search("hotel").map(\.id) == [next.id])
    }

    @Test func randomGroupsMatchAModel() throws {
        let store = try SearchIndexTests.store()
        var model: [String: String] = [:]  // note id -> title
        var random = SplitMix(seed: 42)
        let words = ["kilo", "lima", "mike", "oscar", "papa", "quebec", "romeo", "sierra"]
        for _ in 0..<40 {
            store.beginWriteGroup()
            for _ in 0..<Int(random.next() % 8) {
                let word = words[Int(random.next() % UInt64(words.count))] + String(random.next() % 5)
                switch random.next() % 3 {
                case 0:
                    let note = try store.notes.create(NoteDraft(title: word))
                    model[note.id] = word
                case 1:
                    if let id = model.keys.sorted().first(where: { _ in random.next() % 2 == 0 }) {
                        _ = try store.notes.update(id: id, NoteChanges(title: word))
                        model[id] = word
                    }
                default:
                    if let id = model.keys.sorted().first(where: { _ in random.next() % 2 == 0 }) {
                        try store.notes.delete(id: id)
                        model[id] = nil
                    }
                }
            }
            try store.commitWriteGroup()
        }
        try integrityCheck(store)
        for word in words {
            let expected = Set(model.filter { $0.value.hasPrefix(word) }.keys)
            #expect(Set(try store.search.search(word, limit: 100).map(\.id)) == expected, "\(word)")
        }
    }
}

/// A small deterministic random source for the tests above.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
