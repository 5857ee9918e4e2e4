import Foundation
import Testing

@testable import Domain

/// Counts are kept by triggers in `row_counts` (schema 8), so reading one costs the same at any size; they
/// must always equal what the tables hold.
@Suite struct RowCountsTests {
    static let tables = ["notes", "photo_notes", "images", "reminders", "diary_posts", "messages", "board_posts"]

    /// Every counted table's kept count next to a real `count(*)`.
    static func keptAndReal(_ store: DataStore) throws -> (kept: [Int], real: [Int]) {
        let database = store.database
        let counts = RowCounts(database: database)
        return (
            try tables.map { try counts.rows(of: $0) },
            try tables.map { Int(try database.scalarInteger("SELECT count(*) FROM \($0)") ?? 0) }
        )
    }

    @Test func countsFollowCreatesAndDeletesInsideAWriteGroup() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        var notes: [Note] = []
        for index in 0..<150 { notes.append(try store.notes.create(NoteDraft(title: "note \(index)"))) }
        // Pipelined creates are written in batches; a count asked in the middle sees every one of them.
        #expect(try store.notes.count() == 150)
        try store.notes.delete(id: notes[3].id)
        _ = try store.board.create(title: "a post")
        _ = try store.messages.send(text: "hello")
        _ = try store.diary.create(text: "a day", images: [])
        #expect(try store.notes.count() == 149)
        try store.commitWriteGroup()
        let counts = try Self.keptAndReal(store)
        #expect(counts.kept == counts.real)
        #expect(counts.kept == [149, 0, 0, 0, 1, 1, 1])
    }

    @Test func aRefusedCreateLeavesTheCountAsItWas() throws {
        let store = try DomainTestSupport.openStore(freeLimit: 2)
        _ = try store.notes.create(NoteDraft(title: "one"))
        _ = try store.notes.create(NoteDraft(title: "two"))
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "three")) }
        #expect(try store.edition.used() == 2)
        #expect(try store.notes.count() == 2)
    }

    @Test func anImportThatReplacesEverythingKeepsTheCountsTrue() throws {
        let source = try DomainTestSupport.openStore()
        for index in 0..<5 { _ = try source.notes.create(NoteDraft(title: "note \(index)")) }
        _ = try source.board.create(title: "a post")
        let document = try source.exchange.export()
        let target = try DomainTestSupport.openStore()
        for index in 0..<9 { _ = try target.notes.create(NoteDraft(title: "old \(index)")) }
        _ = try target.messages.send(text: "old")
        _ = try target.exchange.importDocument(document, mode: .replace)
        let counts = try Self.keptAndReal(target)
        #expect(counts.kept == counts.real)
        #expect(counts.kept == [5, 0, 0, 0, 0, 0, 1])
    }

    @Test func replacingThousandsRecordsADeletionForEachAndImportsTheRest() throws {
        let target = try DomainTestSupport.openStore()
        target.beginWriteGroup()
        for index in 0..<3_000 { _ = try target.notes.create(NoteDraft(title: "old \(index)")) }
        try target.commitWriteGroup()
        let start = try Self.lastSequence(target)
        let source = try DomainTestSupport.openStore()
        source.beginWriteGroup()
        for index in 0..<2_500 { _ = try source.notes.create(NoteDraft(title: "new \(index)")) }
        try source.commitWriteGroup()
        let summary = try target.exchange.importDocument(try source.exchange.export(), mode: .replace)
        #expect(summary.counts["notes"] == 2_500)
        var deleted = 0
        var created = 0
        var after = start
        while true {
            let events = try target.changes.events(after: after, limit: 1000)
            guard let last = events.last else { break }
            deleted += events.filter { $0.kind == .deleted }.count
            created += events.filter { $0.kind == .created }.count
            after = last.sequence
        }
        #expect(deleted == 3_000)
        #expect(created == 2_500)
        let counts = try Self.keptAndReal(target)
        #expect(counts.kept == counts.real)
    }

    static func lastSequence(_ store: DataStore) throws -> Int64 {
        try store.database.scalarInteger("SELECT max(seq) FROM changes") ?? 0
    }

    @Test func aVersion7DatabaseCountsWhatItAlreadyHeld() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/v7.sqlite"
            do {
                let database = try Database(path: path)
                try Migrations.migrate(database, to: 7)
                try database.execute(
                    """
                    INSERT INTO notes(id, title, content, hue, saturation, brightness, position, created_at, updated_at,
                                      revision)
                    VALUES ('note_a', 'a', '', 0, 0, 1, 1024, 0, 0, 1), ('note_b', 'b', '', 0, 0, 1, 2048, 0, 0, 1);
                    """)
            }
            let store = try DomainTestSupport.openStore(path: path)
            #expect(try store.notes.count() == 2)
            _ = try store.notes.create(NoteDraft(title: "c"))
            let counts = try Self.keptAndReal(store)
            #expect(counts.kept == counts.real)
        }
    }
}
