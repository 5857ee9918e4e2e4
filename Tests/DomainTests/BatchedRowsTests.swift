import Foundation
import Testing

@testable import Domain

/// New notes and change events are batched rows: in a write group, a mutation without a savepoint of its
/// own (a create) holds them, and they are written many to a statement before the next statement of any
/// kind and before the commit. Nothing in the transaction can tell them from rows written at once; a
/// failure loses nothing half-written.
@Suite struct BatchedRowsTests {
    struct Refused: Error {}

    static func titles(_ store: DataStore) throws -> [String] {
        try store.notes.list(PageRequest(limit: 1000)).items.map(\.title)
    }

    @Test func pipelinedCreatesWriteNothingUntilTheCommit() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "first"))
        let changesAfterFirst = store.database.totalChanges
        for index in 0..<10 { _ = try store.notes.create(NoteDraft(title: "note \(index)")) }
        #expect(store.database.totalChanges == changesAfterFirst, "creates in a group are written in bulk")
        try store.commitWriteGroup()
        // Each note also moves the notes counter by one (a trigger's update, which SQLite counts too).
        #expect(store.database.totalChanges == changesAfterFirst + 33, "11 notes, 11 counts and 11 events at the commit")
        #expect(try Self.titles(store) == ["first"] + (0..<10).map { "note \($0)" })
    }

    @Test func everyValueOfABatchedNoteIsWrittenAsGiven() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/values.sqlite"
            let store = try DomainTestSupport.openStore(path: path)
            let color = try HSBColor(hue: 0.25, saturation: 0.5, brightness: 0.75)
            store.beginWriteGroup()
            let plain = try store.notes.create(NoteDraft(title: "plain"))
            let full = try store.notes.create(
                NoteDraft(title: "Заметка ✓", content: "line one\nline two", color: color, deadline: 1_800_000_000_000))
            try store.commitWriteGroup()
            // Another connection reads what reached the file (no cache in between).
            let other = try DomainTestSupport.openStore(path: path)
            #expect(try other.notes.get(id: plain.id) == plain)
            #expect(try other.notes.get(id: full.id) == full)
            #expect(full.revision == 1 && full.updatedAt == full.createdAt)
        }
    }

    @Test func moreCreatesThanOneStatementHoldsAreAllWrittenInOrder() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let count = BatchedInsert<NoteStore.NewNoteRow>.rowsPerStatement * 2 + 7
        let ids = try (0..<count).map { try store.notes.create(NoteDraft(title: "n\($0)")).id }
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == (0..<count).map { "n\($0)" })
        #expect(try store.changes.events(after: 0, limit: 1000).map(\.id) == ids)
    }

    @Test func aStatementThatTouchesTheTableSeesTheRowsHeldBeforeIt() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let first = try store.notes.create(NoteDraft(title: "first"))
        let second = try store.notes.create(NoteDraft(title: "second"))
        #expect(try store.database.scalarInteger("SELECT count(*) FROM notes") == 2)
        #expect(try store.notes.count() == 2)
        let third = try store.notes.create(NoteDraft(title: "third"))
        // Later mutations in the same group work on the held rows as on any others.
        _ = try store.notes.move(id: third.id, to: 0)
        try store.notes.delete(id: first.id)
        _ = try store.notes.update(id: second.id, NoteChanges(title: "second, edited"))
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == ["third", "second, edited"])
    }

    @Test func anyStatementWritesTheHeldRowsFirst() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "first"))
        let changes = store.database.totalChanges
        #expect(try store.database.scalarInteger("SELECT count(*) FROM reminders") == 0)
        #expect(store.database.totalChanges == changes + 3, "the note, its count and its event are written")
        try store.commitWriteGroup()
        #expect(try store.notes.count() == 1)
    }

    @Test func aCreateRefusedAfterItWroteEarlierHeldRowsKeepsTheGroup() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let kept = try store.notes.create(NoteDraft(title: "kept"))
        // Checking the index counts the notes (writing the held one), then refuses: the group stays.
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "refused"), at: 99) }
        let later = try store.notes.create(NoteDraft(title: "later"))
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == ["kept", "later"])
        #expect(try store.changes.events(after: 0, limit: 10).map(\.id) == [kept.id, later.id])
    }

    @Test func aWholeGroupMutationThatFailsAfterHoldingARowGivesTheGroupUp() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "answered"))
        #expect(throws: Refused.self) {
            try store.group.transaction(undo: .wholeGroup) {
                try store.changes.record(.notes, .updated, id: "ghost", at: 0)
                throw Refused()
            }
        }
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        #expect(try store.notes.count() == 0)
        #expect(try store.changes.latestSequence() == 0)
    }

    @Test func aSavepointThatRollsBackKeepsTheRowsHeldBeforeIt() throws {
        let store = try DomainTestSupport.openStore()
        let database = store.database
        store.beginWriteGroup()
        let kept = try store.notes.create(NoteDraft(title: "kept"))
        #expect(throws: Refused.self) {
            try store.group.transaction {
                #expect(try database.scalarInteger("SELECT count(*) FROM notes") == 1)
                throw Refused()
            }
        }
        try store.commitWriteGroup()
        #expect(try store.notes.get(id: kept.id).title == "kept")
        #expect(try store.database.scalarInteger("SELECT count(*) FROM notes") == 1)
    }

    @Test func aHeldRowThatCannotBeWrittenGivesTheWholeGroupUp() throws {
        let store = try DomainTestSupport.openStore()
        _ = try store.notes.create(NoteDraft(title: "before"))
        // Stands for anything that fails a write only SQLite can check (a full disk, a corrupt page).
        try store.database.execute(
            """
            CREATE TEMP TRIGGER refuse BEFORE INSERT ON notes WHEN NEW.title = 'cannot be written'
            BEGIN SELECT RAISE(ABORT, 'refused'); END
            """)
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "answered first"))
        _ = try store.notes.create(NoteDraft(title: "cannot be written"))
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        #expect(try Self.titles(store) == ["before"])
        #expect(try store.changes.latestSequence() == 1)

        // Written early, for a statement that touches the table: the statement fails, and so does the group.
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "answered first"))
        _ = try store.notes.create(NoteDraft(title: "cannot be written"))
        #expect(throws: DomainError.self) { try store.notes.count() }
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "joins a lost group")) }
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        #expect(try Self.titles(store) == ["before"])
        #expect(try store.changes.latestSequence() == 1)
        _ = try store.notes.create(NoteDraft(title: "after"))
        #expect(try Self.titles(store) == ["before", "after"])
    }

    /// Events in the log, by kind and id, in order.
    static func events(_ store: DataStore) throws -> [String] {
        var events: [String] = []
        try store.database.prepare("SELECT kind, entity_id FROM changes ORDER BY seq").forEachRow([]) {
            events.append($0.text(0) + " " + $0.text(1))
        }
        return events
    }

    /// Rows are held only by a mutation without a savepoint: in one with a savepoint they are written at
    /// once (so a savepoint that rolls back takes them with it, and a long one holds nothing in memory).
    @Test func aSavepointMutationWritesItsRowsAtOnce() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        for index in 0..<3 {
            try store.group.transaction(undo: .wholeGroup) {
                try store.changes.record(.notes, .created, id: "before \(index)", at: 0)
            }
        }
        #expect(throws: Refused.self) {
            try store.group.transaction {
                for index in 0..<20_000 { try store.changes.record(.notes, .updated, id: "inside \(index)", at: 0) }
                throw Refused()
            }
        }
        try store.group.transaction {
            let before = store.database.totalChanges
            for index in 0..<20_000 { try store.changes.record(.notes, .updated, id: "kept \(index)", at: 0) }
            #expect(store.database.totalChanges - before == 20_000, "each row written as it is added")
        }
        try store.commitWriteGroup()
        let events = try Self.events(store)
        #expect(events.prefix(3) == ["created before 0", "created before 1", "created before 2"])
        #expect(events.count == 20_003)
        #expect(events.dropFirst(3) == ArraySlice((0..<20_000).map { "updated kept \($0)" }))
    }

    @Test func rowsHeldBeforeASavepointSurviveItsRollback() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        for index in 0..<10_000 {
            try store.group.transaction(undo: .wholeGroup) { try store.changes.record(.notes, .created, id: "\(index)", at: 0) }
        }
        #expect(throws: Refused.self) {
            try store.group.transaction {
                #expect(try store.database.scalarInteger("SELECT count(*) FROM changes") == 10_000)
                throw Refused()
            }
        }
        try store.commitWriteGroup()
        #expect(try Self.events(store) == (0..<10_000).map { "created \($0)" })
    }

    /// A savepoint opened on the database itself (not through the group) still cannot take held rows with it.
    @Test func aSavepointOpenedOnTheDatabaseKeepsTheRowsHeldBeforeIt() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let kept = try store.notes.create(NoteDraft(title: "kept"))
        #expect(throws: Refused.self) {
            try store.database.transaction {
                try store.database.run("DELETE FROM notes")
                throw Refused()
            }
        }
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == ["kept"])
        #expect(try store.changes.events(after: 0, limit: 10).map(\.id) == [kept.id])
    }

    /// A write inside the group's shared read snapshot would upgrade it: the programming error stops at once.
    @Test func aSavepointInsideTheReadSnapshotIsRefusedLoudly() async {
        await #expect(processExitsWith: .failure) {
            let store = try DomainTestSupport.openStore()
            store.beginWriteGroup()
            _ = try store.notes.count()
            // Without the stop, the delete would end the snapshot and run on its own, outside any transaction.
            try? store.database.transaction { try store.database.run("DELETE FROM notes") }
        }
    }

    /// A savepoint opened on the database inside a create-like mutation: what it adds is written at once,
    /// so its rollback takes it back.
    @Test func rowsAddedInsideASavepointOfAWholeGroupMutationGoWithItsRollback() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        try store.group.transaction(undo: .wholeGroup) {
            try store.changes.record(.notes, .created, id: "kept", at: 0)
            try? store.database.transaction {
                try store.changes.record(.notes, .updated, id: "ghost", at: 0)
                throw Refused()
            }
        }
        try store.commitWriteGroup()
        #expect(try Self.events(store) == ["created kept"])
    }

    /// Rows held when SQLite has rolled the transaction back on its own are lost with it: never written
    /// outside it, and the group's commit says so.
    @Test func rowsHeldAfterTheTransactionIsGoneAreNeverWrittenOnTheirOwn() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        #expect(throws: SQLiteError.self) {
            try store.group.transaction(undo: .wholeGroup) {
                try store.changes.record(.notes, .created, id: "first", at: 0)
                try store.database.execute("ROLLBACK")  // what SQLite does by itself after an I/O error
                try store.changes.record(.notes, .created, id: "second", at: 0)
                _ = try store.database.scalarInteger("SELECT 1")
            }
        }
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        #expect(try Self.events(store) == [])
    }

    @Test func armingAnArmedGroupAgainChangesNothing() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "one"))
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "two"))
        try store.commitWriteGroup()
        #expect(store.database.isInTransaction == false)
        #expect(try Self.titles(store) == ["one", "two"])
    }
}
