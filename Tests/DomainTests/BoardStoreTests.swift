import Foundation
import Testing

@testable import Domain

/// The Reddit-like board (SPEC §10, the CLReddit seed): titles counted in characters, anonymous and
/// per-voter votes, the five orders and their keyset pages (frozen while votes change).
@Suite struct BoardStoreTests {
    typealias Support = DomainTestSupport

    // MARK: Helpers

    /// `count` characters cycling through a skin-toned thumb, a ZWJ family and a combining "é", so that
    /// neither the UTF-8, the UTF-16 nor the scalar length equals the character count.
    private static func mixedCharacters(_ count: Int) -> String {
        let pieces = ["👍🏽", "👨‍👩‍👧", "e\u{301}"]
        var text = ""
        for index in 0..<count { text += pieces[index % pieces.count] }
        return text
    }

    /// A post with the given anonymous up and down votes, as stored afterwards.
    private static func makePost(_ store: DataStore, _ title: String, ups: Int = 0, downs: Int = 0) throws -> BoardPost {
        let post = try store.board.create(title: title)
        for _ in 0..<ups { _ = try store.board.vote(id: post.id, .up) }
        for _ in 0..<downs { _ = try store.board.vote(id: post.id, .down) }
        return try store.board.get(id: post.id)
    }

    /// Every page of a listing, first to last.
    private static func pages(
        _ store: DataStore, sort: BoardSort, limit: Int, voter: String? = nil
    ) throws -> [[BoardPost]] {
        var pages: [[BoardPost]] = []
        var cursor: String?
        repeat {
            let page = try store.board.list(sort: sort, PageRequest(limit: limit, cursor: cursor), voter: voter)
            pages.append(page.items)
            cursor = page.nextCursor
            if pages.count > 1_000 {
                Issue.record("the listing never ends")
                break
            }
        } while cursor != nil
        return pages
    }

    /// Expects `body` to throw `invalidArgument` for the field "cursor".
    private static func expectInvalidCursor(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        let error = #expect(throws: DomainError.self, sourceLocation: sourceLocation) { try body() }
        guard let error else { return }
        guard case .invalidArgument(let field, _) = error else {
            Issue.record("expected invalidArgument(field: \"cursor\"), got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(field == "cursor", sourceLocation: sourceLocation)
    }

    /// The fixed data set of the sort tests: (title, ups, downs, createdAt in seconds after the clock's start).
    /// Ties on votes, on title (case-insensitively and exactly), on hot and on best are on purpose; the 12th
    /// post's id ("bp_12" with sequential ids) sorts before "bp_2" as text.
    private static let sortData: [(String, Int, Int, Int64)] = [
        ("banana", 5, 0, 0),  // 0
        ("apple", 6, 1, 0),  // 1
        ("Banana", 5, 0, 1),  // 2
        ("Cherry", 7, 0, 1),  // 3
        ("date", 0, 1, 2),  // 4
        ("Elder", 0, 0, 2),  // 5
        ("fig", 2, 2, 3),  // 6
        ("Grape", 30, 20, 3_600),  // 7
        ("kiwi", 1, 0, 3_600),  // 8
        ("Lemon", 0, 10, 7_200),  // 9
        ("mango", 100, 0, -100_000),  // 10
        ("apple", 0, 0, 3),  // 11
    ]

    /// A store holding `sortData`, and its posts in the data set's order.
    private static func sortFixture() throws -> (DataStore, [BoardPost]) {
        let clock = ManualClock()
        let start = clock.milliseconds
        let store = try Support.openStore(clock: clock)
        var posts: [BoardPost] = []
        for (title, ups, downs, seconds) in sortData {
            clock.milliseconds = start + seconds * 1_000
            posts.append(try makePost(store, title, ups: ups, downs: downs))
        }
        clock.milliseconds = start + 10_000
        return (store, posts)
    }

    /// Checks that `items` falls into `groups` (indexes into `posts`) in this order; the order inside a group
    /// is free.
    private static func expectGroups(
        _ items: [BoardPost], _ groups: [[Int]], of posts: [BoardPost], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(items.count == posts.count, sourceLocation: sourceLocation)
        var rest = items[...]
        for group in groups {
            let chunk = rest.prefix(group.count)
            rest = rest.dropFirst(group.count)
            #expect(
                Set(chunk.map(\.id)) == Set(group.map { posts[$0].id }),
                "group \(group.map { posts[$0].title })", sourceLocation: sourceLocation)
        }
    }

    // MARK: Titles (counted in characters)

    @Test func titleOf255CharactersIsAccepted() throws {
        let store = try Support.openStore()
        let title = Self.mixedCharacters(255)
        try #require(title.count == 255)
        #expect(title.utf8.count != 255)
        #expect(title.utf16.count != 255)
        #expect(title.unicodeScalars.count != 255)
        let post = try store.board.create(title: title)
        #expect(post.title == title)
        #expect(try store.board.get(id: post.id).title == title)
        for other in [
            String(repeating: "a", count: 255), String(repeating: "e\u{301}", count: 255),
            String(repeating: "👨‍👩‍👧", count: 255), String(repeating: "👍🏽", count: 255),
        ] {
            try #require(other.count == 255)
            _ = try store.board.create(title: other)
        }
        #expect(try store.board.count() == 5)
    }

    @Test(arguments: [
        mixedCharacters(256), String(repeating: "a", count: 256), String(repeating: "e\u{301}", count: 256),
        String(repeating: "👨‍👩‍👧", count: 256), String(repeating: "👍🏽", count: 256), String(repeating: " ", count: 256),
    ])
    func titleOf256CharactersIsTitleTooLong(title: String) throws {
        try #require(title.count == 256)
        let store = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .titleTooLong, field: "title", limit: 255)) {
            try store.board.create(title: title)
        }
        #expect(try store.board.count() == 0)
    }

    @Test(arguments: [" ", "   ", String(repeating: " ", count: 255)])
    func titleOfOnlySpacesIsAllowed(title: String) throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: title)
        #expect(try store.board.get(id: post.id).title == title)
        #expect(try store.board.count() == 1)
    }

    @Test func emptyTitleIsEmptyTitle() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .emptyTitle, field: "title")) {
            try store.board.create(title: "")
        }
        #expect(try store.board.count() == 0)
    }

    @Test func duplicateTitlesAreAllowed() throws {
        let store = try Support.openStore()
        let first = try store.board.create(title: "Apple")
        let second = try store.board.create(title: "Apple")
        #expect(first.id != second.id)
        #expect(try store.board.count() == 2)
        #expect(try store.board.get(id: first.id).title == "Apple")
        #expect(try store.board.get(id: second.id).title == "Apple")
    }

    @Test func newPostHasNoVotesAtRevisionOneWithBothTimesFromTheClock() throws {
        let clock = ManualClock(milliseconds: 1_700_000_000_123)
        let store = try Support.openStore(clock: clock)
        let post = try store.board.create(title: "Kiwi")
        #expect(post.ups == 0)
        #expect(post.downs == 0)
        #expect(post.votes == 0)
        #expect(post.revision == 1)
        #expect(post.createdAt == 1_700_000_000_123)
        #expect(post.updatedAt == post.createdAt)
        #expect(post.myVote == nil)
        #expect(try store.board.get(id: post.id) == post)
    }

    // MARK: Votes

    @Test func votesAlwaysEqualUpsMinusDowns() throws {
        let store = try Support.openStore()
        let posts = try (0..<3).map { try store.board.create(title: "post \($0)") }
        var random = DomainTestRandom(seed: 0xB0A2D)
        let voters: [String?] = [nil, "alice", "bob", "carol"]
        let requests: [VoteRequest] = [.up, .down, .clear]
        var ups: [String: Int64] = [:]
        var downs: [String: Int64] = [:]
        var ballots: [String: [String: VoteDirection]] = [:]
        for _ in 0..<400 {
            let post = posts.randomElement(using: &random)!
            let voter = voters.randomElement(using: &random)!
            let request = requests.randomElement(using: &random)!
            if voter == nil && request == .clear { continue }
            // The model.
            if let voter {
                let previous = ballots[post.id, default: [:]][voter]
                let next: VoteDirection? = request == .clear ? nil : (request == .up ? .up : .down)
                if previous == .up { ups[post.id, default: 0] -= 1 }
                if previous == .down { downs[post.id, default: 0] -= 1 }
                if next == .up { ups[post.id, default: 0] += 1 }
                if next == .down { downs[post.id, default: 0] += 1 }
                ballots[post.id, default: [:]][voter] = next
            } else if request == .up {
                ups[post.id, default: 0] += 1
            } else {
                downs[post.id, default: 0] += 1
            }
            let result = try store.board.vote(id: post.id, request, voter: voter)
            let expectedUps = ups[post.id, default: 0]
            let expectedDowns = downs[post.id, default: 0]
            #expect(result.ups == expectedUps)
            #expect(result.downs == expectedDowns)
            #expect(result.votes == expectedUps - expectedDowns)
            let stored = try store.board.get(id: post.id)
            #expect(stored.votes == expectedUps - expectedDowns)
            #expect(stored.votes == stored.ups - stored.downs)
        }
        for item in try store.board.list(sort: .votes, PageRequest(limit: 500)).items {
            #expect(item.votes == ups[item.id, default: 0] - downs[item.id, default: 0])
        }
    }

    @Test func anonymousVotesEachCount() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Mango")
        for _ in 0..<3 { _ = try store.board.vote(id: post.id, .up) }
        var stored = try store.board.get(id: post.id)
        #expect(stored.ups == 3)
        #expect(stored.downs == 0)
        #expect(stored.votes == 3)
        #expect(stored.revision == 4)
        for _ in 0..<2 { _ = try store.board.vote(id: post.id, .down) }
        stored = try store.board.get(id: post.id)
        #expect(stored.ups == 3)
        #expect(stored.downs == 2)
        #expect(stored.votes == 1)
        #expect(stored.myVote == nil)
    }

    @Test func clearWithoutVoterIsVoterRequired() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Fig")
        _ = try store.board.vote(id: post.id, .up)
        #expect(throws: DomainError.validation(reason: .voterRequired, field: "voter")) {
            try store.board.vote(id: post.id, .clear)
        }
        let stored = try store.board.get(id: post.id)
        #expect(stored.ups == 1)
        #expect(stored.revision == 2)
    }

    @Test func unknownIDIsNotFound() throws {
        let store = try Support.openStore()
        _ = try store.board.create(title: "Lime")
        let missing = DomainError.notFound(kind: "boardPost", id: "bp_missing")
        #expect(throws: missing) { try store.board.get(id: "bp_missing") }
        #expect(throws: missing) { try store.board.get(id: "bp_missing", voter: "alice") }
        #expect(throws: missing) { try store.board.vote(id: "bp_missing", .up) }
        #expect(throws: missing) { try store.board.vote(id: "bp_missing", .down, voter: "alice") }
        #expect(throws: missing) { try store.board.vote(id: "bp_missing", .clear, voter: "alice") }
        #expect(throws: missing) { try store.board.delete(id: "bp_missing") }
        #expect(try store.board.count() == 1)
    }

    @Test func deleteRemovesThePostAndItsVotes() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Plum")
        _ = try store.board.vote(id: post.id, .up, voter: "alice")
        try store.board.delete(id: post.id)
        #expect(throws: DomainError.notFound(kind: "boardPost", id: post.id)) { try store.board.get(id: post.id) }
        #expect(try store.board.count() == 0)
        #expect(try store.database.scalarInteger("SELECT count(*) FROM board_votes") == 0)
        #expect(throws: DomainError.notFound(kind: "boardPost", id: post.id)) { try store.board.delete(id: post.id) }
    }

    // MARK: Votes with a voter

    @Test func firstVoteUpAddsOneUpAndRecordsMyVote() throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        let post = try store.board.create(title: "Cherry")
        clock.advance(by: 5_000)
        let voted = try store.board.vote(id: post.id, .up, voter: "alice")
        #expect(voted.ups == 1)
        #expect(voted.downs == 0)
        #expect(voted.myVote == .up)
        #expect(voted.revision == 2)
        #expect(voted.updatedAt == clock.milliseconds)
        #expect(try store.board.get(id: post.id, voter: "alice") == voted)
    }

    @Test func repeatingTheSameVoteIsANoOp() throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        let post = try store.board.create(title: "Cherry")
        let first = try store.board.vote(id: post.id, .up, voter: "alice")
        clock.advance(by: 5_000)
        let again = try store.board.vote(id: post.id, .up, voter: "alice")
        #expect(again == first)
        #expect(again.ups == 1)
        #expect(again.downs == 0)
        #expect(again.revision == first.revision)
        #expect(again.myVote == .up)
        #expect(try store.board.get(id: post.id, voter: "alice") == first)
        // Also for a repeated down vote.
        let down = try store.board.vote(id: post.id, .down, voter: "bob")
        let downAgain = try store.board.vote(id: post.id, .down, voter: "bob")
        #expect(downAgain == down)
        #expect(downAgain.downs == 1)
    }

    @Test func oppositeVoteSwitches() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Cherry")
        let up = try store.board.vote(id: post.id, .up, voter: "alice")
        let down = try store.board.vote(id: post.id, .down, voter: "alice")
        #expect(down.ups == up.ups - 1)
        #expect(down.downs == up.downs + 1)
        #expect(down.votes == -1)
        #expect(down.myVote == .down)
        #expect(down.revision == up.revision + 1)
        let backUp = try store.board.vote(id: post.id, .up, voter: "alice")
        #expect(backUp.ups == 1)
        #expect(backUp.downs == 0)
        #expect(backUp.myVote == .up)
    }

    @Test func clearWithdrawsTheVote() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Cherry")
        let down = try store.board.vote(id: post.id, .down, voter: "alice")
        #expect(down.downs == 1)
        let cleared = try store.board.vote(id: post.id, .clear, voter: "alice")
        #expect(cleared.ups == 0)
        #expect(cleared.downs == 0)
        #expect(cleared.myVote == nil)
        #expect(cleared.revision == down.revision + 1)
        #expect(try store.board.get(id: post.id, voter: "alice").myVote == nil)
        // Withdrawn, so voting again counts again.
        #expect(try store.board.vote(id: post.id, .down, voter: "alice").downs == 1)
    }

    @Test func clearWithoutAVoteIsANoOp() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Cherry")
        _ = try store.board.vote(id: post.id, .up)
        let before = try store.board.get(id: post.id, voter: "alice")
        let cleared = try store.board.vote(id: post.id, .clear, voter: "alice")
        #expect(cleared == before)
        #expect(cleared.ups == 1)
        #expect(cleared.myVote == nil)
        #expect(try store.board.get(id: post.id).revision == before.revision)
    }

    @Test func twoVotersAreIndependent() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Cherry")
        _ = try store.board.vote(id: post.id, .up, voter: "alice")
        let both = try store.board.vote(id: post.id, .down, voter: "bob")
        #expect(both.ups == 1)
        #expect(both.downs == 1)
        #expect(both.myVote == .down)
        // Alice repeating her vote is still a no-op, whatever Bob did.
        #expect(try store.board.vote(id: post.id, .up, voter: "alice").ups == 1)
        let aliceCleared = try store.board.vote(id: post.id, .clear, voter: "alice")
        #expect(aliceCleared.ups == 0)
        #expect(aliceCleared.downs == 1)
        #expect(try store.board.get(id: post.id, voter: "bob").myVote == .down)
        // Bob switching leaves Alice's (absent) vote alone.
        let bobUp = try store.board.vote(id: post.id, .up, voter: "bob")
        #expect(bobUp.ups == 1)
        #expect(bobUp.downs == 0)
        #expect(try store.board.get(id: post.id, voter: "alice").myVote == nil)
    }

    @Test func getAndListGiveEachVoterTheirOwnVote() throws {
        let store = try Support.openStore()
        let post = try store.board.create(title: "Cherry")
        let other = try store.board.create(title: "Date")
        _ = try store.board.vote(id: post.id, .up, voter: "alice")
        _ = try store.board.vote(id: post.id, .down, voter: "bob")
        #expect(try store.board.get(id: post.id, voter: "alice").myVote == .up)
        #expect(try store.board.get(id: post.id, voter: "bob").myVote == .down)
        #expect(try store.board.get(id: post.id, voter: "carol").myVote == nil)
        #expect(try store.board.get(id: post.id).myVote == nil)
        #expect(try store.board.get(id: other.id, voter: "alice").myVote == nil)
        for sort in BoardSort.allCases {
            // One page, and several pages (a frozen order).
            for limit in [500, 1] {
                let alice = try Self.pages(store, sort: sort, limit: limit, voter: "alice").flatMap { $0 }
                #expect(alice.first { $0.id == post.id }?.myVote == .up)
                #expect(alice.first { $0.id == other.id }?.myVote == nil)
                let bob = try Self.pages(store, sort: sort, limit: limit, voter: "bob").flatMap { $0 }
                #expect(bob.first { $0.id == post.id }?.myVote == .down)
                let nobody = try Self.pages(store, sort: sort, limit: limit).flatMap { $0 }
                #expect(nobody.count == 2)
                #expect(nobody.allSatisfy { $0.myVote == nil })
            }
        }
    }

    // MARK: Sorts

    @Test func votesSortIsVotesDescendingThenTitleCaseInsensitivelyThenID() throws {
        let (store, posts) = try Self.sortFixture()
        let items = try store.board.list(sort: .votes, PageRequest(limit: 500)).items
        let expected = [10, 7, 3, 1, 0, 2, 8, 11, 5, 6, 4, 9].map { posts[$0].id }
        #expect(items.map(\.id) == expected)
        // The same rule, stated as a comparison, so the literal above cannot drift from it.
        let reference = posts.sorted { a, b in
            if a.votes != b.votes { return a.votes > b.votes }
            if a.title.lowercased() != b.title.lowercased() { return a.title.lowercased() < b.title.lowercased() }
            return a.id < b.id
        }
        #expect(items.map(\.id) == reference.map(\.id))
        // Votes is the default order of the original app: "apple" before "Banana" before "banana"-or-"Banana".
        #expect(items.map(\.title) == [
            "mango", "Grape", "Cherry", "apple", "banana", "Banana", "kiwi", "apple", "Elder", "fig", "date", "Lemon",
        ])
    }

    @Test func titleSortIsCaseInsensitiveAscendingTiesByID() throws {
        let (store, posts) = try Self.sortFixture()
        let items = try store.board.list(sort: .title, PageRequest(limit: 500)).items
        // "apple" (bp_12) before "apple" (bp_2): ids compare as text. "banana" (bp_1) before "Banana" (bp_3).
        let expected = [11, 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10].map { posts[$0].id }
        #expect(items.map(\.id) == expected)
        let reference = posts.sorted { a, b in
            a.title.lowercased() != b.title.lowercased() ? a.title.lowercased() < b.title.lowercased() : a.id < b.id
        }
        #expect(items.map(\.id) == reference.map(\.id))
    }

    @Test func newSortIsNewestFirst() throws {
        let (store, posts) = try Self.sortFixture()
        let items = try store.board.list(sort: .new, PageRequest(limit: 500)).items
        let times = items.map(\.createdAt)
        #expect(times == times.sorted(by: >))
        #expect(items.first?.id == posts[9].id)
        #expect(items.last?.id == posts[10].id)
        Self.expectGroups(items, [[9], [7, 8], [6, 11], [4, 5], [2, 3], [0, 1], [10]], of: posts)
    }

    @Test func hotSortIsHotRankingDescending() throws {
        let (store, posts) = try Self.sortFixture()
        let items = try store.board.list(sort: .hot, PageRequest(limit: 500)).items
        let scores = items.map { BoardRanking.hot(votes: $0.votes, createdAt: $0.createdAt) }
        #expect(scores == scores.sorted(by: >))
        // Computed by hand: mango's 100 votes are worth 2, but it is 100,000 s older (−2.22); kiwi's single
        // vote is worth log10(1) = 0, so it ranks on its age alone; "date" (−1) and "Elder" (0) tie.
        Self.expectGroups(items, [[7], [3], [2], [0, 1], [8], [6, 11], [4, 5], [10], [9]], of: posts)
    }

    @Test func bestSortIsWilsonLowerBoundDescending() throws {
        let (store, posts) = try Self.sortFixture()
        let items = try store.board.list(sort: .best, PageRequest(limit: 500)).items
        let scores = items.map { BoardRanking.best(ups: $0.ups, downs: $0.downs) }
        #expect(scores == scores.sorted(by: >))
        // Wilson lower bounds from Python: mango 0.984, Cherry 0.810, banana/Banana 0.753, apple (6/1) 0.622,
        // Grape (30/20) 0.509, kiwi (1/0) 0.378, fig (2/2) 0.230, and 0 for the rest.
        Self.expectGroups(items, [[10], [3], [0, 2], [1], [7], [8], [6], [11, 5, 4, 9]], of: posts)
    }

    // Without up votes the Wilson bound is exactly 0 (the formula once left 6.4e-18 of rounding noise), so
    // such posts tie with unvoted ones and the tie-break (votes descending) orders them.
    @Test func bestTiesAtZeroBreakByVotes() throws {
        let store = try Support.openStore()
        let fresh = try Self.makePost(store, "fresh")
        let oneDown = try Self.makePost(store, "one down", downs: 1)
        let manyDowns = try Self.makePost(store, "nineteen downs", downs: 19)
        let liked = try Self.makePost(store, "liked", ups: 1)
        let items = try store.board.list(sort: .best, PageRequest(limit: 500)).items
        #expect(items.map(\.id) == [liked.id, fresh.id, oneDown.id, manyDowns.id])
    }

    // MARK: Pages

    @Test(arguments: BoardSort.allCases, [1, 2, 3])
    func pagesWalkEveryPostOnceInOrder(sort: BoardSort, limit: Int) throws {
        let (store, posts) = try Self.sortFixture()
        let whole = try store.board.list(sort: sort, PageRequest(limit: 500))
        #expect(whole.nextCursor == nil)
        let pages = try Self.pages(store, sort: sort, limit: limit)
        #expect(pages.count == (posts.count + limit - 1) / limit)
        #expect(pages.dropLast().allSatisfy { $0.count == limit })
        #expect(pages.allSatisfy { !$0.isEmpty && $0.count <= limit })
        let walked = pages.flatMap { $0 }.map(\.id)
        #expect(walked == whole.items.map(\.id))
        #expect(Set(walked).count == posts.count)
        #expect(Set(walked) == Set(posts.map(\.id)))
    }

    @Test func aListThatFitsOnOnePageHasNoCursor() throws {
        let store = try Support.openStore()
        for title in ["a", "b", "c"] { _ = try store.board.create(title: title) }
        for sort in BoardSort.allCases {
            let page = try store.board.list(sort: sort, PageRequest(limit: 3))
            #expect(page.items.count == 3)
            #expect(page.nextCursor == nil)
        }
        let empty = try Support.openStore()
        let page = try empty.board.list(sort: .votes, PageRequest(limit: 1))
        #expect(page.items.isEmpty)
        #expect(page.nextCursor == nil)
    }

    @Test func stableKeysetPagesNeitherSkipNorRepeatAPostWhileVotesChangeBetweenPages() throws {
        let store = try Support.openStore()
        // p0 (votes 20) … p9 (votes 2): distinct votes, so the order is p0, p1, …, p9.
        let posts = try (0..<10).map { try Self.makePost(store, "p\($0)", ups: 20 - 2 * $0) }
        let first = try store.board.list(sort: .votes, PageRequest(limit: 3), voter: "alice")
        #expect(first.items.map(\.id) == posts[0..<3].map(\.id))
        var cursor = try #require(first.nextCursor)
        var seen = first.items.map(\.id)

        // Later posts jump above the boundary, page-1 posts fall below it.
        for _ in 0..<50 { _ = try store.board.vote(id: posts[9].id, .up) }
        for _ in 0..<30 { _ = try store.board.vote(id: posts[8].id, .up) }
        for _ in 0..<40 { _ = try store.board.vote(id: posts[0].id, .down) }
        for _ in 0..<40 { _ = try store.board.vote(id: posts[1].id, .down) }
        _ = try store.board.vote(id: posts[6].id, .up, voter: "alice")
        // The live order really changed.
        let live = try store.board.list(sort: .votes, PageRequest(limit: 500)).items.map(\.id)
        #expect(live.first == posts[9].id)
        #expect(live.last == posts[1].id)

        var round = 0
        while true {
            let page = try store.board.list(sort: .votes, PageRequest(limit: 3, cursor: cursor), voter: "alice")
            // Items show the current counts (and the voter's current vote).
            for item in page.items {
                let current = try store.board.get(id: item.id, voter: "alice")
                #expect(item == current)
                // p8 was boosted by 30 up votes after page 1 and not touched since when its page comes.
                if item.id == posts[8].id { #expect(item.votes == 4 + 30) }
                if item.id == posts[6].id { #expect(item.myVote == .up) }
            }
            seen += page.items.map(\.id)
            guard let next = page.nextCursor else { break }
            cursor = next
            // Keep shuffling between pages: the next page's first post drops to the bottom, a shown one rises.
            round += 1
            let shown = seen[seen.count - 1]
            for _ in 0..<100 { _ = try store.board.vote(id: shown, .up) }
            if let upcoming = posts.first(where: { !seen.contains($0.id) }) {
                for _ in 0..<100 { _ = try store.board.vote(id: upcoming.id, .down) }
            }
            if round > 10 { break }
        }
        #expect(seen.count == posts.count)
        #expect(Set(seen) == Set(posts.map(\.id)))
        // The frozen order is the order of page 1's moment.
        #expect(seen == posts.map(\.id))
    }

    @Test func aPostDeletedBetweenPagesIsAbsentAndNothingElseIsSkipped() throws {
        let store = try Support.openStore()
        let posts = try (0..<8).map { try Self.makePost(store, "p\($0)", ups: 16 - 2 * $0) }
        let first = try store.board.list(sort: .votes, PageRequest(limit: 3))
        #expect(first.items.map(\.id) == posts[0..<3].map(\.id))
        // One already shown, the one right after the cursor, and one further on.
        try store.board.delete(id: posts[1].id)
        try store.board.delete(id: posts[3].id)
        try store.board.delete(id: posts[6].id)
        var seen = first.items.map(\.id)
        var cursor = first.nextCursor
        while let current = cursor {
            let page = try store.board.list(sort: .votes, PageRequest(limit: 3, cursor: current))
            #expect(!page.items.isEmpty)
            seen += page.items.map(\.id)
            cursor = page.nextCursor
            if seen.count > 20 { break }
        }
        #expect(seen == [0, 1, 2, 4, 5, 7].map { posts[$0].id })
    }

    @Test func aCursorFromAnotherListIsInvalidArgument() throws {
        let store = try Support.openStore()
        for index in 0..<3 { _ = try store.notes.create(NoteDraft(title: "note \(index)")) }
        for index in 0..<3 { _ = try Self.makePost(store, "post \(index)", ups: index) }
        let notesCursor = try #require(try store.notes.list(PageRequest(limit: 1)).nextCursor)
        for sort in BoardSort.allCases {
            Self.expectInvalidCursor { _ = try store.board.list(sort: sort, PageRequest(limit: 1, cursor: notesCursor)) }
        }
    }

    @Test(arguments: [
        "garbage!", "", "~", "%%%", Support.base64URL("no separator"), Support.base64URL("x~snap_1"),
        Support.base64URL("3~"), Support.base64URL("3~snap_999"), Support.base64URL("-1~bp_1"),
    ])
    func aGarbageCursorIsInvalidArgument(cursor: String) throws {
        let store = try Support.openStore()
        for index in 0..<3 { _ = try Self.makePost(store, "post \(index)", ups: index) }
        Self.expectInvalidCursor { _ = try store.board.list(sort: .votes, PageRequest(limit: 1, cursor: cursor)) }
    }

    @Test func anExpiredSnapshotCursorIsInvalidArgument() throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        for index in 0..<5 { _ = try Self.makePost(store, "post \(index)", ups: index) }
        let old = try store.board.list(sort: .votes, PageRequest(limit: 2))
        let oldCursor = try #require(old.nextCursor)

        // Still inside its hour: another listing's clean-up keeps it.
        clock.advance(by: BoardStore.snapshotLifetime - 1)
        #expect(try store.board.list(sort: .title, PageRequest(limit: 2)).nextCursor != nil)
        let stillValid = try store.board.list(sort: .votes, PageRequest(limit: 2, cursor: oldCursor))
        #expect(stillValid.items.count == 2)

        // Past it: the next multi-page listing removes it.
        clock.advance(by: 2)
        let fresh = try store.board.list(sort: .votes, PageRequest(limit: 2))
        #expect(fresh.nextCursor != nil)
        Self.expectInvalidCursor { _ = try store.board.list(sort: .votes, PageRequest(limit: 2, cursor: oldCursor)) }
        // The new listing's own cursor works.
        let freshCursor = try #require(fresh.nextCursor)
        #expect(try store.board.list(sort: .votes, PageRequest(limit: 2, cursor: freshCursor)).items.count == 2)
    }
}
