import Foundation
import Testing

@testable import Domain

/// Lists that promise newest first keep creation order for entities made within the same millisecond,
/// also when two processes (two connections, each with its own id generator) make them.
@Suite struct CreationOrderTests {
    /// Two stores on one database file with the same frozen clock: `body` gets them and the file.
    private func withTwoConnections(_ body: (DataStore, DataStore) throws -> Void) throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/order.sqlite"
            let clock = ManualClock()
            let first = try DomainTestSupport.openStore(path: path, clock: clock, ids: RandomIDGenerator(clock: clock))
            let second = try DomainTestSupport.openStore(path: path, clock: clock, ids: RandomIDGenerator(clock: clock))
            try body(first, second)
        }
    }

    @Test func diaryPostsOfOneMillisecondListNewestFirst() throws {
        try withTwoConnections { first, second in
            var made: [String] = []
            for index in 0..<40 {
                let store = index % 3 == 0 ? second : first
                made.append(try store.diary.create(text: "post \(index)", images: []).id)
            }
            var listed: [String] = []
            var cursor: String? = nil
            repeat {
                let page = try first.diary.list(PageRequest(limit: 7, cursor: cursor))
                listed += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(listed == made.reversed())
        }
    }

    @Test func boardPostsOfOneMillisecondSortNewestFirstUnderNewAndHot() throws {
        try withTwoConnections { first, second in
            var made: [String] = []
            for index in 0..<30 {
                let store = index % 2 == 0 ? first : second
                made.append(try store.board.create(title: "post \(index)").id)
            }
            for sort in [BoardSort.new, .hot] {
                let listed = try first.board.list(sort: sort, PageRequest(limit: 100, cursor: nil)).items.map(\.id)
                #expect(listed == made.reversed(), "\(sort)")
            }
        }
    }

    @Test func messagesOfOneMillisecondListNewestFirst() throws {
        try withTwoConnections { first, second in
            var made: [String] = []
            for index in 0..<20 {
                let store = index % 2 == 0 ? first : second
                made.append(try store.messages.send(text: "message \(index)").id)
            }
            let listed = try first.messages.list(PageRequest(limit: 100, cursor: nil)).items.map(\.id)
            #expect(listed == made.reversed())
        }
    }
}
