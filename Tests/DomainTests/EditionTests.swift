import Testing

@testable import Domain

/// The free edition (SPEC §5): `--free-limit N` caps notes and photo notes together; the create that would
/// pass it is `freeLimitReached` and changes nothing. No limit: unlimited.
@Suite struct EditionTests {
    typealias Support = DomainTestSupport

    /// What a refused create must leave exactly as it was.
    private struct Snapshot: Equatable {
        var notes: [String]
        var photos: [String]
        var images: Int
        var sequence: Int64
        var used: Int

        init(_ store: DataStore) throws {
            notes = try Support.noteIDs(store)
            photos = try Support.photoIDs(store)
            images = try store.images.count()
            sequence = try store.changes.latestSequence()
            used = try store.edition.used()
        }
    }

    @Test(arguments: [1, 2, 3, 6])
    func exactlyTheLimitOfNotesAndPhotosTogetherIsAllowedThenBothKindsAreRefused(limit: Int) throws {
        let store = try Support.openStore(freeLimit: limit)
        #expect(store.edition.freeLimit == limit)
        for index in 0..<limit {
            if index.isMultiple(of: 2) {
                _ = try store.notes.create(NoteDraft(title: "note \(index)"))
            } else {
                _ = try store.photos.add(image: Support.png(tag: index), caption: "photo \(index)")
            }
            #expect(try store.edition.used() == index + 1)
        }
        #expect(try store.notes.count() + store.photos.count() == limit)

        let before = try Snapshot(store)
        #expect(throws: DomainError.freeLimitReached(limit: limit)) {
            try store.notes.create(NoteDraft(title: "one too many"))
        }
        #expect(throws: DomainError.freeLimitReached(limit: limit)) {
            try store.notes.create(NoteDraft(title: "one too many, first"), at: 0)
        }
        // A new image that would have been stored with the photo is not stored either.
        #expect(throws: DomainError.freeLimitReached(limit: limit)) {
            try store.photos.add(image: Support.png(tag: 1000), caption: "one too many")
        }
        // Nor does reusing an existing image get round it.
        #expect(throws: DomainError.freeLimitReached(limit: limit)) {
            try store.photos.add(image: Support.png(tag: 1), caption: "same picture")
        }
        #expect(try Snapshot(store) == before)
    }

    @Test func onlyNotesCountAgainstTheSameLimitAsPhotos() throws {
        let store = try Support.openStore(freeLimit: 3)
        for index in 0..<3 { _ = try store.notes.create(NoteDraft(title: "n\(index)")) }
        #expect(throws: DomainError.freeLimitReached(limit: 3)) { try store.photos.add(image: Support.png(), caption: nil) }
        #expect(try store.photos.count() == 0)
        #expect(try store.images.count() == 0)
    }

    @Test func onlyPhotosCountAgainstTheSameLimitAsNotes() throws {
        let store = try Support.openStore(freeLimit: 3)
        for index in 0..<3 { _ = try store.photos.add(image: Support.png(tag: index), caption: nil) }
        #expect(throws: DomainError.freeLimitReached(limit: 3)) { try store.notes.create(NoteDraft(title: "x")) }
        #expect(try store.notes.count() == 0)
    }

    @Test func afterDeletingOneCreatingWorksAgain() throws {
        let store = try Support.openStore(freeLimit: 2)
        let note = try store.notes.create(NoteDraft(title: "note"))
        let photo = try store.photos.add(image: Support.png(), caption: nil)
        #expect(throws: DomainError.freeLimitReached(limit: 2)) { try store.notes.create(NoteDraft(title: "x")) }

        try store.notes.delete(id: note.id)
        #expect(try store.edition.used() == 1)
        _ = try store.photos.add(image: Support.png(tag: 7), caption: nil)
        #expect(throws: DomainError.freeLimitReached(limit: 2)) { try store.notes.create(NoteDraft(title: "x")) }

        try store.photos.delete(id: photo.id)
        _ = try store.notes.create(NoteDraft(title: "again"))
        #expect(try store.edition.used() == 2)
        #expect(throws: DomainError.freeLimitReached(limit: 2)) {
            try store.photos.add(image: Support.png(tag: 8), caption: nil)
        }
    }

    @Test func updatesMovesAndDeletesStillWorkAtTheLimit() throws {
        let store = try Support.openStore(freeLimit: 2)
        let first = try store.notes.create(NoteDraft(title: "a"))
        let second = try store.notes.create(NoteDraft(title: "b"))
        _ = try store.notes.update(id: first.id, NoteChanges(title: "a2"))
        _ = try store.notes.move(id: second.id, to: 0)
        #expect(try Support.noteIDs(store) == [second.id, first.id])
        try store.notes.delete(id: first.id)
        #expect(try store.edition.used() == 1)
    }

    @Test func limitZeroAllowsNothing() throws {
        let store = try Support.openStore(freeLimit: 0)
        #expect(throws: DomainError.freeLimitReached(limit: 0)) { try store.notes.create(NoteDraft(title: "x")) }
        #expect(throws: DomainError.freeLimitReached(limit: 0)) { try store.photos.add(image: Support.png(), caption: nil) }
        #expect(try store.edition.used() == 0)
        #expect(try store.changes.latestSequence() == 0)
    }

    @Test func noLimitIsUnlimited() throws {
        let store = try Support.openStore(freeLimit: nil)
        #expect(store.edition.freeLimit == nil)
        for index in 0..<300 { _ = try store.notes.create(NoteDraft(title: "n\(index)")) }
        for index in 0..<5 { _ = try store.photos.add(image: Support.png(tag: index), caption: nil) }
        #expect(try store.notes.count() == 300)
        #expect(try store.photos.count() == 5)
        #expect(try store.edition.used() == 305)
    }

    @Test func defaultSettingsAreUnlimited() throws {
        #expect(DomainSettings().freeLimit == nil)
        let store = try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
        #expect(store.edition.freeLimit == nil)
    }

    @Test func aRefusedCreateBreaksNoLaterOne() throws {
        // The refused create rolled its transaction back cleanly: the store keeps working.
        let store = try Support.openStore(freeLimit: 1)
        let note = try store.notes.create(NoteDraft(title: "a"))
        #expect(throws: DomainError.freeLimitReached(limit: 1)) { try store.notes.create(NoteDraft(title: "b")) }
        #expect(store.database.isInTransaction == false)
        _ = try store.notes.update(id: note.id, NoteChanges(title: "a2"))
        try store.notes.delete(id: note.id)
        let again = try store.notes.create(NoteDraft(title: "c"))
        #expect(try Support.noteIDs(store) == [again.id])
    }
}
