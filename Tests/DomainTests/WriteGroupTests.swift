import Testing

@testable import Domain

/// A chunk of pipelined requests runs in one armed group: its writes share one commit, and its reads made
/// before any write share one read transaction, so a run of reads takes SQLite's file locks once.
@Suite struct WriteGroupTests {
    @Test func readsInAnArmedGroupShareOneReadTransactionUntilTheCommit() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let store = try DomainTestSupport.openStore(path: directory + "/group.sqlite")
            let note = try store.notes.create(NoteDraft(title: "kept"))
            #expect(store.database.isInTransaction == false)
            store.beginWriteGroup()
            _ = try store.notes.get(id: note.id)
            #expect(store.database.isInTransaction, "the first read opened the group's read transaction")
            _ = try store.notes.get(id: note.id)
            try store.commitWriteGroup()
            #expect(store.database.isInTransaction == false)
            // Outside a group each read is on its own.
            _ = try store.notes.get(id: note.id)
            #expect(store.database.isInTransaction == false)
        }
    }

    @Test func aWriteAfterReadsSeesWhatOthersCommittedMeanwhile() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/group.sqlite"
            let store = try DomainTestSupport.openStore(path: path)
            let other = try DomainTestSupport.openStore(path: path, ids: RandomIDGenerator(clock: ManualClock()))
            _ = try store.notes.create(NoteDraft(title: "first"))
            store.beginWriteGroup()
            #expect(try store.notes.count() == 1)
            // Another process commits while this group holds its read snapshot...
            _ = try other.notes.create(NoteDraft(title: "from elsewhere"))
            #expect(try store.notes.count() == 1, "reads before the group's first write share one snapshot")
            // ...and the group's write still goes through (a stale snapshot is never upgraded to a write).
            let mine = try store.notes.create(NoteDraft(title: "mine"))
            #expect(try store.notes.count() == 3)
            try store.commitWriteGroup()
            #expect(try other.notes.get(id: mine.id).title == "mine")
            #expect(try DomainTestSupport.allNotes(store).map(\.title) == ["first", "from elsewhere", "mine"])
        }
    }

    struct Refused: Error {}

    static func table() throws -> (Database, WriteGroup) {
        let database = try Database(path: nil)
        try database.execute("CREATE TABLE t(x INTEGER NOT NULL)")
        return (database, WriteGroup(database: database))
    }

    static func count(_ database: Database) throws -> Int64 {
        try database.scalarInteger("SELECT count(*) FROM t") ?? -1
    }

    @Test func aSavepointMutationThatFailsIsUndoneAloneInItsGroup() throws {
        let (database, group) = try Self.table()
        group.arm()
        try group.transaction { try database.run("INSERT INTO t VALUES (1)") }
        #expect(throws: Refused.self) {
            try group.transaction {
                try database.run("INSERT INTO t VALUES (2)")
                throw Refused()
            }
        }
        try group.transaction { try database.run("INSERT INTO t VALUES (3)") }
        try group.commit()
        #expect(try Self.count(database) == 2)
    }

    @Test func aWholeGroupMutationThatFailsBeforeWritingLeavesTheGroupAlone() throws {
        let (database, group) = try Self.table()
        group.arm()
        try group.transaction { try database.run("INSERT INTO t VALUES (1)") }
        #expect(throws: Refused.self) {
            try group.transaction(undo: .wholeGroup) {
                _ = try Self.count(database)
                throw Refused()
            }
        }
        try group.transaction(undo: .wholeGroup) { try database.run("INSERT INTO t VALUES (2)") }
        try group.commit()
        #expect(try Self.count(database) == 2)
    }

    @Test func aWholeGroupMutationThatFailsAfterWritingGivesTheGroupUp() throws {
        let (database, group) = try Self.table()
        group.arm()
        try group.transaction { try database.run("INSERT INTO t VALUES (1)") }
        #expect(throws: Refused.self) {
            try group.transaction(undo: .wholeGroup) {
                try database.run("INSERT INTO t VALUES (2)")
                throw Refused()
            }
        }
        // Nothing more joins the group, and its commit fails: nothing half-written is ever kept.
        #expect(throws: SQLiteError.self) { try group.transaction { try database.run("INSERT INTO t VALUES (3)") } }
        #expect(throws: SQLiteError.self) { try group.commit() }
        #expect(try Self.count(database) == 0)
        // The next group starts afresh.
        group.arm()
        try group.transaction(undo: .wholeGroup) { try database.run("INSERT INTO t VALUES (4)") }
        try group.commit()
        #expect(try Self.count(database) == 1)
    }

    @Test func outsideAGroupAWholeGroupMutationIsItsOwnTransaction() throws {
        let (database, group) = try Self.table()
        #expect(throws: Refused.self) {
            try group.transaction(undo: .wholeGroup) {
                try database.run("INSERT INTO t VALUES (1)")
                throw Refused()
            }
        }
        #expect(try Self.count(database) == 0)
        #expect(database.isInTransaction == false)
    }

    // MARK: Appends in a group (the next position is remembered while nothing else writes)

    @Test func appendsInAGroupStayInOrderWhateverHappensBetweenThem() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/appends.sqlite"
            let store = try DomainTestSupport.openStore(path: path)
            let other = try DomainTestSupport.openStore(path: path, ids: RandomIDGenerator(clock: ManualClock()))
            store.beginWriteGroup()
            let a = try store.notes.create(NoteDraft(title: "a"))
            let b = try store.notes.create(NoteDraft(title: "b"))
            try store.notes.delete(id: b.id)  // the last one goes: its place is free again
            let c = try store.notes.create(NoteDraft(title: "c"))
            _ = try store.notes.move(id: c.id, to: 0)
            let d = try store.notes.create(NoteDraft(title: "d"))
            let e = try store.notes.create(NoteDraft(title: "e"), at: 1)
            let f = try store.notes.create(NoteDraft(title: "f"))
            try store.commitWriteGroup()
            // Another process appends between two groups of this one.
            let g = try other.notes.create(NoteDraft(title: "g"))
            store.beginWriteGroup()
            let h = try store.notes.create(NoteDraft(title: "h"))
            try store.commitWriteGroup()
            let order = try DomainTestSupport.allNotes(store).map(\.title)
            #expect(order == ["c", "e", "a", "d", "f", "g", "h"])
            _ = (a, d, e, f, g, h)
        }
    }

    @Test func afterAGroupIsGivenUpAppendsStartFromWhatIsStored() throws {
        let store = try DomainTestSupport.openStore()
        _ = try store.notes.create(NoteDraft(title: "kept"))
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "lost 1"))
        _ = try store.notes.create(NoteDraft(title: "lost 2"))
        try store.database.execute("ROLLBACK")  // what SQLite does by itself after an I/O error
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "next"))
        _ = try store.notes.create(NoteDraft(title: "last"))
        try store.commitWriteGroup()
        #expect(try DomainTestSupport.allNotes(store).map(\.title) == ["kept", "next", "last"])
    }
}


/// A failure that makes SQLite roll the group's transaction back (a full disk, an I/O error): its cause is
/// what the group reports, once, and what comes after runs in a transaction of its own.
@Suite struct LostGroupTests {
    @Test func aFullDiskIsDiskFullNotAGenericFailure() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let store = try DomainTestSupport.openStore(path: directory + "/full.sqlite")
            // SQLite's own page limit stands in for a full disk: the same SQLITE_FULL.
            let pages = try #require(try store.database.scalarInteger("PRAGMA page_count"))
            _ = try store.database.scalarInteger("PRAGMA max_page_count = \(pages + 2)")
            store.beginWriteGroup()
            // (The new note's row is held and written at the commit: the commit meets the full disk.)
            do {
                _ = try store.notes.create(NoteDraft(title: "big", content: String(repeating: "x", count: 100_000)))
                try store.commitWriteGroup()
                Issue.record("the write fitted")
            } catch {
                guard case .storage(let reason, _)? = error as? DomainError else { throw error }
                #expect(reason == .diskFull)
            }
        }
    }

    @Test func aRolledBackGroupTellsItsCauseOnceAndTheNextWriteStandsAlone() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let store = try DomainTestSupport.openStore(path: directory + "/lost.sqlite")
            let kept = try store.notes.create(NoteDraft(title: "kept"))
            // A trigger that rolls the whole transaction back stands in for SQLite doing so on a full disk.
            try store.database.execute(
                "CREATE TEMP TRIGGER fail AFTER UPDATE ON notes WHEN NEW.title = 'fail' BEGIN SELECT RAISE(ROLLBACK, 'gone'); END")
            store.beginWriteGroup()
            let before = try store.notes.create(NoteDraft(title: "in the group"))
            #expect(throws: DomainError.self) { try store.notes.update(id: kept.id, NoteChanges(title: "fail")) }
            let cause = try #require(store.takeLostWriteGroup())
            guard case .storage(_, let detail) = cause else {
                Issue.record("\(cause)")
                return
            }
            #expect(detail.contains("gone"), "the cause, not a generic rollback: \(detail)")
            #expect(store.takeLostWriteGroup() == nil, "told once")
            let after = try store.notes.create(NoteDraft(title: "after"))
            try store.commitWriteGroup()
            #expect(throws: DomainError.notFound(kind: "note", id: before.id)) { try store.notes.get(id: before.id) }
            #expect(try store.notes.get(id: after.id).title == "after")
            #expect(try store.notes.get(id: kept.id).title == "kept")
        }
    }
}
