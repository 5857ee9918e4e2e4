import Foundation
import Testing

@testable import Domain

/// SPEC §11 search: FTS5 over every app; every search sees every committed change.
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

    @Test func aSnippetNeverCutsAWordInTwo() throws {
        let text = "Yesterday we finally walked the whole length of the harbour wall, and the the lighthouse keeper waved at us from the very top of his tower before the rain"
        let snippet = try #require(SearchIndex.snippet(of: text, terms: ["lighthouse"]))
        #expect(snippet.hasPrefix("…"), "\(snippet)")
        #expect(snippet.hasSuffix("…"), "\(snippet)")
        let inner = snippet.dropFirst().dropLast().replacingOccurrences(of: "**", with: "")
        let words = Set(text.split(separator: " ").map(String.init))
        for word in inner.split(separator: " ") {
            #expect(words.contains(String(word)), "\(word) is half a word in \(snippet)")
        }
        #expect(snippet.contains("**lighthouse**"))
        // Without spaces (Japanese), the text is cut where it falls.
        let japanese = String(repeating: "今日は港を歩いた", count: 8) + "灯台守が手を振った" + String(repeating: "雨が降った", count: 12)
        let cut = try #require(SearchIndex.snippet(of: japanese, terms: ["灯台"]))
        #expect(cut.contains("**灯台**") && cut.hasPrefix("…") && cut.hasSuffix("…"))
    }

    /// A word in more documents than are ranked exactly: the most recent matches are ranked, title
    /// matches first, then newest first, and every hit is a match with its terms marked.
    @Test func aVeryCommonWordRanksItsRecentMatchesTitlesFirst() throws {
        let store = try Self.store()
        store.beginWriteGroup()
        let total = SearchIndex.rankedMatches + 500
        var notes: [Note] = []
        for index in 0..<total {
            let title = index == 1_200 ? "Apple harvest" : "note \(index)"
            notes.append(try store.notes.create(NoteDraft(title: title, content: "an apple a day, day \(index)")))
            if index % 100 == 0 { _ = try store.board.create(title: "apple board \(index)") }
        }
        try store.commitWriteGroup()
        let hits = try store.search.search("apple day", limit: 10)
        #expect(hits.count == 10)
        #expect(hits.first?.id == notes[1_200].id, "the title match comes first")
        let rest = Array(hits.dropFirst()).map(\.id)
        #expect(rest == notes.reversed().filter { $0.id != notes[1_200].id }.prefix(9).map(\.id), "then newest first")
        #expect(hits.allSatisfy { $0.snippet.contains("**apple**") && $0.snippet.contains("**day**") }, "\(hits.map(\.snippet))")
        // Narrowed to one domain: the board's few matches are ranked exactly, the notes' many by recency.
        let board = try store.search.search("apple", domains: [.board], limit: 100)
        #expect(board.count == (total + 99) / 100)
        #expect(board.allSatisfy { $0.domain == .board })
        let onlyNotes = try store.search.search("apple", domains: [.notes], limit: 3)
        #expect(onlyNotes.map(\.id) == [notes[1_200].id, notes[total - 1].id, notes[total - 2].id])
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

/// The FTS index takes in the change log in batches; these check that the batching never leaves it out of
/// step with the data, whatever a transaction mixes.
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

/// The index follows the change log: writes leave it alone, a search or an idle step brings it up to date,
/// and what it holds is always exactly what the apps' tables say.
@Suite struct SearchIndexFollowsTheChangeLogTests {
    /// What the index holds, and what it should hold according to the source tables, as sorted rows.
    static func indexedAndExpected(_ store: DataStore) throws -> (indexed: [String], expected: [String]) {
        func rows(_ sql: String) throws -> [String] {
            var rows: [String] = []
            try store.database.prepare(sql).forEachRow([]) { row in
                rows.append([row.text(0), row.text(1), row.text(2), row.text(3)].joined(separator: "|"))
            }
            return rows
        }
        let indexed = try rows("SELECT domain, entity_id, title, body FROM search_documents ORDER BY 1, 2")
        let expected = try rows(
            """
            SELECT * FROM (
                SELECT 'notes', id, title, content FROM notes
                UNION ALL SELECT 'photos', id, coalesce(caption, ''), '' FROM photo_notes
                UNION ALL SELECT 'diary', id, '', coalesce(text, '') FROM diary_posts
                UNION ALL SELECT 'reminders', id, title, coalesce(memo, '') FROM reminders
                UNION ALL SELECT 'messages', id, author_name, text FROM messages
                UNION ALL SELECT 'board', id, title, '' FROM board_posts
            ) ORDER BY 1, 2
            """)
        return (indexed, expected)
    }

    @Test func writesLeaveTheIndexAloneUntilASearchTakesThemIn() throws {
        let store = try SearchIndexTests.store()
        #expect(try store.search.isBehind() == false)
        let note = try store.notes.create(NoteDraft(title: "quartz"))
        #expect(try store.search.isBehind())
        #expect(try store.database.scalarInteger("SELECT count(*) FROM search_documents") == 0)
        #expect(try store.search.search("quartz").map(\.id) == [note.id])
        #expect(try store.search.isBehind() == false)
    }

    @Test func idleStepsTakeInAtMostTheirBatch() throws {
        let store = try SearchIndexTests.store()
        store.beginWriteGroup()
        for index in 0..<7 { _ = try store.notes.create(NoteDraft(title: "batch \(index)")) }
        try store.commitWriteGroup()
        #expect(try store.search.catchUp(limit: 3) == .moreToDo)
        #expect(try store.database.scalarInteger("SELECT count(*) FROM search_documents") == 3)
        #expect(try store.search.catchUp(limit: 3) == .moreToDo)
        #expect(try store.search.catchUp(limit: 3) == .upToDate)
        #expect(try store.database.scalarInteger("SELECT count(*) FROM search_documents") == 7)
        #expect(try store.search.catchUp(limit: 3) == .upToDate)
    }

    @Test func anIdleStepDoesNotWaitForAnotherWriter() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/wait.sqlite"
            let store = try DomainTestSupport.openStore(path: path)
            _ = try store.notes.create(NoteDraft(title: "waiting"))
            let other = try Database(path: path)
            try other.execute("BEGIN IMMEDIATE")
            let started = Date()
            #expect(try store.search.catchUp(waiting: false) == .busy, "gives up at once")
            #expect(Date().timeIntervalSince(started) < 5, "did not sit out the busy timeout")
            #expect(try store.search.isBehind())
            try other.execute("ROLLBACK")
            #expect(try store.search.catchUp(waiting: false) == .upToDate)
            #expect(try store.search.isBehind() == false)
        }
    }

    @Test func everyKindOfWriteInEveryAppEndsUpInTheIndex() throws {
        let store = try SearchIndexTests.store()
        let session = store.makeEditingSession()
        #expect(try DemoData.fillIfEmpty(store))
        let note = try store.notes.create(NoteDraft(title: "november", content: "oscar"))
        _ = try store.notes.update(id: note.id, NoteChanges(content: "palimpsest"))
        _ = try store.notes.move(id: note.id, to: 0)
        let doomed = try store.notes.create(NoteDraft(title: "doomed"))
        try store.notes.delete(id: doomed.id)
        let png = PNGEncoder.solid(width: 1, height: 1, red: 9, green: 9, blue: 9)
        let photo = try store.photos.add(
            image: .data(base64: Data(png).base64EncodedString(), claimedMimeType: nil), caption: "quebec")
        _ = try store.photos.update(id: photo.id, caption: .some(nil))
        let post = try store.diary.create(text: "romeo", images: [])
        _ = try store.diary.update(id: post.id, text: "sierra", images: nil)
        let reminder = try store.reminders.add(title: "tango", session: session).reminder
        _ = try store.reminders.update(id: reminder.id, ReminderChanges(title: "uniform"), session: session)
        _ = try store.reminders.add(title: "", session: session)  // blank: removed when the session ends
        try store.reminders.endSession(session)
        _ = try store.messages.send(text: "victor")
        _ = try store.messages.loadMore(limit: 5)
        let board = try store.board.create(title: "whiskey")
        _ = try store.board.vote(id: board.id, .up, voter: "a")
        let (indexed, expected) = try Self.indexedAndExpected(store)
        #expect(indexed.isEmpty, "nothing is indexed before a search")
        _ = try store.search.search("palimpsest")
        let after = try Self.indexedAndExpected(store)
        #expect(after.indexed == after.expected)
        #expect(after.indexed.count == expected.count)
        try store.database.run("INSERT INTO search_index(search_index) VALUES ('integrity-check')")

        // Replacing everything by an import goes through the same log.
        let document = try store.exchange.export()
        let other = try SearchIndexTests.store()
        _ = try other.notes.create(NoteDraft(title: "xray"))
        _ = try other.search.search("xray")
        _ = try other.exchange.importDocument(document, mode: .replace)
        #expect(try other.search.search("xray").isEmpty)
        let found = try other.search.search("palimpsest")
        #expect(found.map(\.id) == [note.id])
        let imported = try Self.indexedAndExpected(other)
        #expect(imported.indexed == imported.expected)
    }

    @Test func aVersion6DatabaseKeepsItsIndexAndFollowsTheLogFromThere() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/v6.sqlite"
            do {
                let database = try Database(path: path)
                try Migrations.migrate(database, to: 6)
                try database.execute(
                    """
                    INSERT INTO notes(id, title, content, hue, saturation, brightness, position, created_at, updated_at,
                                      revision)
                    VALUES ('note_old', 'yankee', 'from before', 0, 0, 1, 1024, 0, 0, 1);
                    INSERT INTO changes(at, domain, kind, entity_id) VALUES (0, 'notes', 'created', 'note_old');
                    """)
                #expect(try database.scalarInteger("SELECT count(*) FROM search_pending") == 1)
            }
            let store = try DomainTestSupport.openStore(path: path)
            #expect(try store.schemaVersion() == Migrations.latestVersion)
            #expect(try store.search.isBehind() == false, "version 6 had indexed it already")
            #expect(try store.search.search("yankee").map(\.id) == ["note_old"])
            let fresh = try store.notes.create(NoteDraft(title: "zulu"))
            #expect(try store.search.search("zulu").map(\.id) == [fresh.id])
            let state = try Self.indexedAndExpected(store)
            #expect(state.indexed == state.expected)
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

/// Search on repetitive text: a term is asked of FTS5 only up to where its trigrams repeat and checked whole
/// on the text, so a run of one letter costs what the document's length does, and the answers stay exact.
@Suite struct SearchRepetitiveTextTests {
    static func store() throws -> DataStore {
        try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
    }

    @Test func aRunOfOneLetterIsFoundOnlyWhereItIsLongEnough() throws {
        let store = try Self.store()
        let long = try store.notes.create(NoteDraft(title: "long", content: String(repeating: "w", count: 100_000)))
        let short = try store.notes.create(NoteDraft(title: "short", content: "a " + String(repeating: "w", count: 63) + " b"))
        #expect(try store.search.search(String(repeating: "w", count: 64)).map(\.id) == [long.id])
        #expect(Set(try store.search.search(String(repeating: "w", count: 63)).map(\.id)) == [long.id, short.id])
        #expect(try store.search.search(String(repeating: "W", count: 64)).map(\.id) == [long.id], "case is ignored")
        let hit = try #require(try store.search.search(String(repeating: "w", count: 40)).first { $0.id == short.id })
        #expect(hit.snippet.contains("**" + String(repeating: "w", count: 40) + "**"), "\(hit.snippet)")
    }

    @Test func aRepeatedPairMatchesOnlyTheWholeTerm() throws {
        let store = try Self.store()
        let pairs = try store.notes.create(NoteDraft(title: "pairs", content: String(repeating: "ab", count: 50_000)))
        let almost = try store.notes.create(NoteDraft(title: "almost", content: String(repeating: "ab", count: 31) + "x"))
        #expect(try store.search.search(String(repeating: "ab", count: 32)).map(\.id) == [pairs.id])
        #expect(Set(try store.search.search("abab").map(\.id)) == [pairs.id, almost.id])
        // A term that repeats a trigram after something else: the whole of it must be in the text.
        #expect(try store.search.search("xabcabcab").isEmpty)
        let mixed = try store.notes.create(NoteDraft(content: "go xabcabcab go"))
        #expect(try store.search.search("xabcabcab").map(\.id) == [mixed.id])
    }

    @Test func theSamePrefixOfTwoTermsIsAskedOnce() {
        #expect(SearchIndex.distinctPrefix(String(repeating: "w", count: 5)) == ("www", false))
        #expect(SearchIndex.distinctPrefix("abcabc") == ("abcab", false))
        #expect(SearchIndex.distinctPrefix("harbour") == ("harbour", true))
        #expect(SearchIndex.distinctPrefix("AAa") == ("AAa", true))
        #expect(SearchIndex.distinctPrefix("aAaA") == ("aAa", false), "compared ignoring case, as FTS5 does")
    }

    @Test func aWordOrAQueryPastItsBoundIsAnInvalidArgument() throws {
        let store = try Self.store()
        #expect(throws: DomainError.invalidArgument(field: "query", expected: "words of at most 64 characters")) {
            try store.search.search(String(repeating: "w", count: 65))
        }
        #expect(throws: DomainError.invalidArgument(field: "query", expected: "at most 1024 bytes")) {
            try store.search.search("a" + String(repeating: "\u{301}", count: 600))
        }
        _ = try store.search.search(String(repeating: "w", count: 64))
    }

    @Test func aSnippetScansAMegabyteOnceAndMarksWithinReach() throws {
        let text = String(repeating: "w", count: 1_000_000)
        let snippet = try #require(SearchIndex.snippet(of: text, terms: [String(repeating: "w", count: 64)]))
        #expect(snippet.hasPrefix("**" + String(repeating: "w", count: 64) + "**"))
        #expect(snippet.hasSuffix("…"))
        // A match beyond the reach is not looked for: the text's beginning stands in.
        let far = String(repeating: "x ", count: SearchIndex.snippetReach) + "needle"
        #expect(SearchIndex.snippet(of: far, terms: ["needle"]) == nil)
        #expect(SearchIndex.snippet(title: "t", body: far, terms: ["needle"]).hasPrefix("x x x"))
        // Never a cut inside a character: an accent stays with its letter.
        let accents = String(repeating: "e\u{301}", count: 40) + " target"
        let cut = try #require(SearchIndex.snippet(of: accents, terms: ["target"]))
        #expect(!cut.dropFirst().unicodeScalars.first!.properties.isGraphemeExtend, "\(cut)")
    }
}

@Suite struct SearchQueryNULTests {
    /// SQLite's LIKE ends a pattern at a NUL: a query's NUL separates words instead (found by the fuzzer:
    /// "---…\0---" matched a text without the NUL).
    @Test func aNULInAQuerySeparatesWords() throws {
        let store = try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
        let dashes = try store.notes.create(NoteDraft(content: String(repeating: "-", count: 40)))
        #expect(try store.search.search(String(repeating: "-", count: 18) + "\0" + "-----").map(\.id) == [dashes.id])
        #expect(try store.search.search(String(repeating: "-", count: 18) + "\0" + "xyz").isEmpty)
    }
}
