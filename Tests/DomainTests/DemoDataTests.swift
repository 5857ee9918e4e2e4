import Foundation
import Testing

@testable import Domain

/// `--demo` sample data: every app gets something to look at, and only an empty store is filled.
@Suite struct DemoDataTests {
    typealias Support = DomainTestSupport

    /// Fruit names (more than the demo needs), so the check does not just copy the demo's table.
    static let fruitNames: Set<String> = [
        "Apple", "Apricot", "Avocado", "Banana", "Blackberry", "Blueberry", "Cherry", "Clementine", "Coconut",
        "Cranberry", "Currant", "Date", "Elderberry", "Fig", "Gooseberry", "Grape", "Grapefruit", "Guava",
        "Honeydew", "Kiwi", "Lemon", "Lime", "Lychee", "Mango", "Melon", "Nectarine", "Orange", "Papaya",
        "Passion fruit", "Peach", "Pear", "Persimmon", "Pineapple", "Plum", "Pomegranate", "Quince", "Raspberry",
        "Strawberry", "Tangerine", "Watermelon",
    ]

    private static func allBoardPosts(_ store: DataStore) throws -> [BoardPost] {
        try store.board.list(sort: .title, PageRequest(limit: PageRequest.maximumLimit)).items
    }

    private static func counts(_ store: DataStore) throws -> [Int] {
        [
            try store.notes.count(), try store.photos.count(), try store.reminders.count(), try store.diary.count(),
            try store.messages.count(), try store.board.count(),
        ]
    }

    @Test func anEmptyStoreGetsTwentyDistinctFruitPostsWithVariedVotes() throws {
        let store = try Support.openStore()
        #expect(try DemoData.fillIfEmpty(store))
        let posts = try Self.allBoardPosts(store)
        #expect(posts.count == 20)
        #expect(try store.board.count() == 20)
        let titles = posts.map(\.title)
        #expect(Set(titles).count == 20)
        for title in titles { #expect(Self.fruitNames.contains(title), "\(title) is not a fruit") }
        let votes = Set(posts.map(\.votes))
        #expect(votes.count > 1)
        #expect(votes.count >= 10)
        #expect(posts.contains { $0.votes < 0 })
        #expect(posts.contains { $0.votes > 0 })
        // Some down votes among the up votes, so "best" differs from "votes".
        #expect(posts.contains { $0.ups > 0 && $0.downs > 0 })
        for post in posts { #expect(post.votes == post.ups - post.downs) }
        // The votes the demo table promises are the votes stored.
        let promised = Dictionary(uniqueKeysWithValues: DemoData.fruits.map { ($0.0, Int64($0.1)) })
        for post in posts { #expect(post.votes == promised[post.title], "\(post.title)") }
        let byVotes = try store.board.list(sort: .votes, PageRequest(limit: 500)).items.map(\.id)
        let byBest = try store.board.list(sort: .best, PageRequest(limit: 500)).items.map(\.id)
        #expect(byVotes != byBest)
    }

    @Test func anEmptyStoreGetsSomethingInEveryApp() throws {
        let store = try Support.openStore()
        #expect(try DemoData.fillIfEmpty(store))
        #expect(try store.notes.count() >= 1)
        #expect(try store.photos.count() >= 1)
        #expect(try store.reminders.count() >= 1)
        #expect(try store.diary.count() >= 1)
        #expect(try store.messages.count() >= 1)
        // No reminder is left blank or held by an editing session (checked before any listing could sweep).
        #expect(try store.database.scalarInteger("SELECT count(*) FROM reminders WHERE blank <> 0") == 0)
        #expect(
            try store.database.scalarInteger("SELECT count(*) FROM reminders WHERE editing_session IS NOT NULL") == 0)
        #expect(try store.database.scalarInteger("SELECT count(*) FROM editing_sessions") == 0)
        let session = store.makeEditingSession()
        let listed = try store.reminders.list(PageRequest(limit: 500), session: session)
        #expect(listed.editingID == nil)
        #expect(listed.page.items.count == (try store.reminders.count()))
        for reminder in listed.page.items {
            #expect(!reminder.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            #expect(!reminder.editing)
        }
        // Notes and photos show up in their lists too.
        #expect(try Support.allNotes(store).count == (try store.notes.count()))
        #expect(try Support.allPhotos(store).count == (try store.photos.count()))
    }

    enum Seed: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case note, boardPost, message, diaryPost
        var testDescription: String { rawValue }
    }

    @Test(arguments: Seed.allCases)
    func aNonEmptyStoreIsLeftAlone(seed: Seed) throws {
        let store = try Support.openStore()
        switch seed {
        case .note: _ = try store.notes.create(NoteDraft(title: "Mine"))
        case .boardPost: _ = try store.board.create(title: "Mine")
        case .message: _ = try store.messages.send(text: "Mine")
        case .diaryPost: _ = try store.diary.create(text: "Mine", images: [])
        }
        let before = try Self.counts(store)
        let events = try Support.allEvents(store).count
        #expect(before.reduce(0, +) == 1)
        #expect(try DemoData.fillIfEmpty(store) == false)
        #expect(try Self.counts(store) == before)
        #expect(try Support.allEvents(store).count == events)
    }

    @Test func fillingTwiceAddsNothingTheSecondTime() throws {
        let store = try Support.openStore()
        #expect(try DemoData.fillIfEmpty(store))
        let after = try Self.counts(store)
        #expect(try DemoData.fillIfEmpty(store) == false)
        #expect(try Self.counts(store) == after)
    }
}
