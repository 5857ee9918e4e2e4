import Foundation
import Testing

@testable import Domain

/// New notes and change events are deferred rows: kept in memory inside their transaction and written many
/// to a statement, before any statement that touches their table and before the commit. Nothing in the
/// transaction can tell them from rows written at once; a failure loses nothing half-written.
@Suite struct DeferredInsertTests {
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

    @Test func everyValueOfADeferredNoteIsWrittenAsGiven() throws {
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
        let count = DeferredInserts<NoteStore.NewNoteRow>.rowsPerStatement * 2 + 7
        let ids = try (0..<count).map { try store.notes.create(NoteDraft(title: "n\($0)")).id }
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == (0..<count).map { "n\($0)" })
        #expect(try store.changes.events(after: 0, limit: 1000).map(\.id) == ids)
    }

    @Test func aStatementThatTouchesTheTableSeesTheRowsDeferredBeforeIt() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let first = try store.notes.create(NoteDraft(title: "first"))
        let second = try store.notes.create(NoteDraft(title: "second"))
        #expect(try store.database.scalarInteger("SELECT count(*) FROM notes") == 2)
        #expect(try store.notes.count() == 2)
        let third = try store.notes.create(NoteDraft(title: "third"))
        // Later mutations in the same group work on the deferred rows as on any others.
        _ = try store.notes.move(id: third.id, to: 0)
        try store.notes.delete(id: first.id)
        _ = try store.notes.update(id: second.id, NoteChanges(title: "second, edited"))
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == ["third", "second, edited"])
    }

    @Test func aStatementOnAnotherTableLeavesTheRowsDeferred() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "first"))
        let changes = store.database.totalChanges
        #expect(try store.database.scalarInteger("SELECT count(*) FROM reminders") == 0)
        #expect(store.database.totalChanges == changes)
        #expect(try store.database.scalarInteger("SELECT count(*) FROM changes") == 1, "the log's row is written")
        #expect(store.database.totalChanges == changes + 1, "and only the log's")
        try store.commitWriteGroup()
        #expect(try store.notes.count() == 1)
    }

    @Test func statementsKnowTheTablesTheyTouch() throws {
        let store = try DomainTestSupport.openStore()
        let count = try store.database.statement("SELECT count(*) FROM notes")
        #expect(count.touches("notes") && !count.touches("changes"))
        let newest = try store.database.statement("SELECT coalesce(max(seq), 0) FROM changes")
        #expect(newest.touches("changes") && !newest.touches("notes"))
        let delete = try store.database.statement("DELETE FROM notes WHERE id = ?1")
        #expect(delete.touches("notes"))
        let join = try store.database.statement(
            "SELECT n.id FROM notes n JOIN photo_notes p ON p.position = n.position")
        #expect(join.touches("notes") && join.touches("photo_notes") && !join.touches("changes"))
    }

    @Test func aCreateRefusedAfterItWroteEarlierDeferredRowsKeepsTheGroup() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let kept = try store.notes.create(NoteDraft(title: "kept"))
        // Checking the index counts the notes (writing the deferred one), then refuses: the group stays.
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "refused"), at: 99) }
        let later = try store.notes.create(NoteDraft(title: "later"))
        try store.commitWriteGroup()
        #expect(try Self.titles(store) == ["kept", "later"])
        #expect(try store.changes.events(after: 0, limit: 10).map(\.id) == [kept.id, later.id])
    }

    @Test func aWholeGroupMutationThatFailsAfterDeferringARowGivesTheGroupUp() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "answered"))
        #expect(throws: Refused.self) {
            try store.database.transaction(undo: .wholeGroup) {
                try store.changes.record(.notes, .updated, id: "ghost", at: 0)
                throw Refused()
            }
        }
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        #expect(try store.notes.count() == 0)
        #expect(try store.changes.latestSequence() == 0)
    }

    @Test func aSavepointThatWroteDeferredRowsAndRolledBackWritesThemAgainLater() throws {
        let store = try DomainTestSupport.openStore()
        let database = store.database
        store.beginWriteGroup()
        let kept = try store.notes.create(NoteDraft(title: "kept"))
        #expect(throws: Refused.self) {
            try database.transaction {
                #expect(try database.scalarInteger("SELECT count(*) FROM notes") == 1)
                throw Refused()
            }
        }
        try store.commitWriteGroup()
        #expect(try store.notes.get(id: kept.id).title == "kept")
        #expect(try store.database.scalarInteger("SELECT count(*) FROM notes") == 1)
    }

    @Test func aDeferredRowThatCannotBeWrittenGivesTheWholeGroupUp() throws {
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
        try store.database.statement("SELECT kind, entity_id FROM changes ORDER BY seq").forEachRow([]) {
            events.append($0.text(0) + " " + $0.text(1))
        }
        return events
    }

    /// A transaction writing many rows forgets those it wrote, so its memory does not grow with them; a
    /// savepoint that rolls back still rewrites the rows recorded before it and written in it.
    @Test func writtenRowsAreForgottenButASavepointGetsBackWhatItNeeds() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        // Recorded before the savepoint, written inside it, and needed again when it rolls back.
        for index in 0..<3 { try store.database.transaction { try store.changes.record(.notes, .created, id: "before \(index)", at: 0) } }
        #expect(throws: Refused.self) {
            try store.database.transaction {
                for index in 0..<20_000 {
                    try store.changes.record(.notes, .updated, id: "inside \(index)", at: 0)
                    if index % 1000 == 999 { try store.database.writeDeferredRows(before: nil) }
                }
                throw Refused()
            }
        }
        // A savepoint that keeps what it wrote: once written, the rows are forgotten.
        try store.database.writeDeferredRows(before: nil)
        try store.database.transaction {
            for index in 0..<20_000 {
                try store.changes.record(.notes, .updated, id: "kept \(index)", at: 0)
                if index % 1000 == 999 { try store.database.writeDeferredRows(before: nil) }
            }
        }
        #expect(store.changes.deferredInserts.keptRows < 2 * DeferredInserts<Int>.compactionRun)
        try store.commitWriteGroup()
        let events = try Self.events(store)
        #expect(events.prefix(3) == ["created before 0", "created before 1", "created before 2"])
        #expect(events.count == 20_003)
        #expect(events.dropFirst(3) == ArraySlice((0..<20_000).map { "updated kept \($0)" }))
    }

    @Test func rowsASavepointCouldNeedAreNotForgotten() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        // 10,000 rows recorded before the savepoint and written inside it: all needed if it rolls back.
        for index in 0..<10_000 { try store.database.transaction { try store.changes.record(.notes, .created, id: "\(index)", at: 0) } }
        #expect(throws: Refused.self) {
            try store.database.transaction {
                try store.database.writeDeferredRows(before: nil)
                throw Refused()
            }
        }
        try store.commitWriteGroup()
        #expect(try Self.events(store) == (0..<10_000).map { "created \($0)" })
    }
}
