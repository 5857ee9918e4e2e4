import Testing

@testable import Domain

/// `notes.get` answers from a cache of recently read notes, kept coherent through the change log: whatever
/// changes a note — this store, another process, a rolled-back group — the next read sees the database.
@Suite struct EntityCacheTests {
    @Test func aNoteChangedByAnotherProcessIsReadAfresh() throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/cache.sqlite"
            let store = try DomainTestSupport.openStore(path: path)
            let other = try DomainTestSupport.openStore(path: path, ids: RandomIDGenerator(clock: ManualClock()))
            let note = try store.notes.create(NoteDraft(title: "first"))
            #expect(try store.notes.get(id: note.id).title == "first")
            #expect(try store.notes.get(id: note.id).title == "first")
            _ = try other.notes.update(id: note.id, NoteChanges(title: "second"))
            #expect(try store.notes.get(id: note.id).title == "second")
            // The same inside a chunk's read snapshot.
            store.beginWriteGroup()
            #expect(try store.notes.get(id: note.id).revision == 2)
            try store.commitWriteGroup()
            _ = try other.notes.create(NoteDraft(title: "unrelated"))
            _ = try other.notes.move(id: note.id, to: 1)  // a move bumps the revision
            store.beginWriteGroup()
            #expect(try store.notes.get(id: note.id).revision == 3)
            try store.commitWriteGroup()
            try other.notes.delete(id: note.id)
            #expect(throws: DomainError.notFound(kind: "note", id: note.id)) { try store.notes.get(id: note.id) }
        }
    }

    @Test func ownChangesAreSeenAtOnce() throws {
        let store = try DomainTestSupport.openStore()
        let note = try store.notes.create(NoteDraft(title: "before"))
        _ = try store.notes.get(id: note.id)
        _ = try store.notes.update(id: note.id, NoteChanges(title: "after"))
        #expect(try store.notes.get(id: note.id).title == "after")
        store.beginWriteGroup()
        _ = try store.notes.get(id: note.id)
        _ = try store.notes.update(id: note.id, NoteChanges(title: "in the group"))
        #expect(try store.notes.get(id: note.id).title == "in the group")
        try store.commitWriteGroup()
        #expect(try store.notes.get(id: note.id).title == "in the group")
    }

    @Test func whatARolledBackGroupReadIsNeverKept() throws {
        let store = try DomainTestSupport.openStore()
        let note = try store.notes.create(NoteDraft(title: "committed"))
        _ = try store.notes.get(id: note.id)
        store.beginWriteGroup()
        _ = try store.notes.update(id: note.id, NoteChanges(title: "never committed"))
        #expect(try store.notes.get(id: note.id).title == "never committed")
        try store.database.execute("ROLLBACK")  // what SQLite does by itself after an I/O error
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        // The next write takes the sequence number the lost update had.
        _ = try store.notes.create(NoteDraft(title: "next"))
        #expect(try store.notes.get(id: note.id).title == "committed")
    }

    @Test func theCacheStaysWithinItsBounds() throws {
        let store = try DomainTestSupport.openStore()
        let cache = EntityCache<Note>(database: store.database, domain: .notes, capacity: 3) { _ in 1 }
        let notes = try (0..<5).map { try store.notes.create(NoteDraft(title: "n\($0)")) }
        for note in notes {
            _ = try cache.value(for: note.id)
            cache.remember(note, for: note.id)
            #expect(cache.count <= 3)
        }
        let small = EntityCache<Note>(database: store.database, domain: .notes, byteBudget: 100) { $0.content.utf8.count }
        let big = try store.notes.create(NoteDraft(title: "big", content: String(repeating: "x", count: 60)))
        _ = try small.value(for: big.id)
        small.remember(big, for: big.id)
        small.remember(big, for: "another")
        #expect(small.count == 1)
    }
}
