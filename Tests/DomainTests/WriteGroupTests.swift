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
}
