import Foundation
import Testing

@testable import Domain

/// ENotes text notes (SPEC §3, §5): defaults, limits in characters, blank notes, partial updates,
/// `ifRevision`, deadlines, deletes.
@Suite struct NoteStoreTests {
    typealias Support = DomainTestSupport

    // MARK: Create

    @Test func newNoteIsWhiteAtRevisionOneWithBothTimesFromTheClock() throws {
        let clock = ManualClock(milliseconds: 1_700_000_000_123)
        let store = try Support.openStore(clock: clock)
        let note = try store.notes.create(NoteDraft(title: "Groceries"))
        #expect(!note.id.isEmpty)
        #expect(note.title == "Groceries")
        #expect(note.content == "")
        #expect(note.color == HSBColor.white)
        #expect(note.color.hue == 0)
        #expect(note.color.saturation == 0)
        #expect(note.color.brightness == 1)
        #expect(note.color.hex == "#FFFFFF")
        #expect(note.deadline == nil)
        #expect(note.revision == 1)
        #expect(note.createdAt == 1_700_000_000_123)
        #expect(note.updatedAt == note.createdAt)
        #expect(try store.notes.get(id: note.id) == note)
        #expect(try store.notes.count() == 1)
    }

    @Test func createKeepsEveryGivenField() throws {
        let store = try Support.openStore()
        let color = try HSBColor(hue: 0.1, saturation: 0.6, brightness: 0.8)
        let note = try store.notes.create(
            NoteDraft(title: "Title", content: "Line 1\nLine 2", color: color, deadline: 1_795_252_500_000))
        let stored = try store.notes.get(id: note.id)
        #expect(stored.title == "Title")
        #expect(stored.content == "Line 1\nLine 2")
        #expect(stored.color == color)
        #expect(stored.deadline == 1_795_252_500_000)
        #expect(stored == note)
    }

    @Test func idsAreDistinct() throws {
        let store = try Support.openStore()
        var ids: Set<String> = []
        for index in 0..<20 { ids.insert(try store.notes.create(NoteDraft(title: "n\(index)")).id) }
        #expect(ids.count == 20)
    }

    // MARK: Title and content limits, counted in Characters

    @Test func charactersHelperReallyDiffersFromUTF8AndScalarCounts() {
        let text = Support.characters(500)
        #expect(text.count == 500)
        #expect(text.utf8.count > 500)
        #expect(text.unicodeScalars.count > 500)
        #expect(Support.combiningE.count == 1)
        #expect(Support.family.count == 1)
    }

    @Test func titleOfExactly500CharactersIsAccepted() throws {
        let store = try Support.openStore()
        let title = Support.characters(500)
        let note = try store.notes.create(NoteDraft(title: title))
        #expect(try store.notes.get(id: note.id).title == title)
        // Also when only ASCII.
        _ = try store.notes.create(NoteDraft(title: String(repeating: "a", count: 500)))
        // And 500 combining "é"s: 1,000 scalars, 1,500 UTF-8 bytes.
        _ = try store.notes.create(NoteDraft(title: String(repeating: Support.combiningE, count: 500)))
        #expect(try store.notes.count() == 3)
    }

    @Test(arguments: [
        Support.characters(501), String(repeating: "a", count: 501),
        String(repeating: Support.combiningE, count: 501), String(repeating: Support.family, count: 501),
    ])
    func titleOf501CharactersIsTitleTooLong(title: String) throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .titleTooLong, field: "title", limit: 500)) {
            try store.notes.create(NoteDraft(title: title, content: "body"))
        }
        #expect(try store.notes.count() == 0)
        #expect(try store.changes.latestSequence() == 0)
    }

    @Test func contentOfExactlyOneMillionCharactersIsAccepted() throws {
        let store = try Support.openStore()
        let content = String(repeating: Support.combiningE, count: 1_000_000)
        let note = try store.notes.create(NoteDraft(content: content))
        let stored = try store.notes.get(id: note.id)
        #expect(stored.content.count == 1_000_000)
        #expect(stored.content.utf8.count == 3_000_000)
    }

    @Test func contentOfOneMillionAndOneCharactersIsContentTooLong() throws {
        let store = try Support.openStore()
        // 1,000,001 characters; 3,000,003 UTF-8 bytes.
        let content = String(repeating: Support.combiningE, count: 1_000_001)
        #expect(throws: DomainError.validation(reason: .contentTooLong, field: "content", limit: 1_000_000)) {
            try store.notes.create(NoteDraft(title: "t", content: content))
        }
        #expect(try store.notes.count() == 0)
    }

    @Test func contentLimitCountsCharactersAndFourBytesEach() throws {
        let store = try Support.openStore()
        // 150,000 family emojis: 3,750,000 UTF-8 bytes, but only 150,000 characters.
        let content = String(repeating: Support.family, count: 150_000)
        let note = try store.notes.create(NoteDraft(content: content))
        #expect(try store.notes.get(id: note.id).content.count == 150_000)
        // 400,000 of them are still fewer characters than the limit, but 10,000,000 bytes: more than four a
        // character of the limit.
        #expect(throws: DomainError.validation(reason: .textTooLarge, field: "content", limit: 4_000_000)) {
            try store.notes.create(NoteDraft(content: String(repeating: Support.family, count: 400_000)))
        }
        #expect(try store.notes.count() == 1)
    }

    // MARK: Blank notes

    @Test(arguments: [
        ("", ""), (" ", ""), ("", "\n"), ("  \t ", "\n\r\n  "), ("\u{00A0}", "\u{2003}\u{3000}"), ("\u{2028}", "\t"),
    ])
    func bothBlankIsEmptyNote(title: String, content: String) throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .emptyNote, field: "title")) {
            try store.notes.create(NoteDraft(title: title, content: content))
        }
        #expect(try store.notes.count() == 0)
    }

    @Test func blankTitleWithContentIsAccepted() throws {
        let store = try Support.openStore()
        let first = try store.notes.create(NoteDraft(title: "", content: "only a body"))
        let second = try store.notes.create(NoteDraft(title: "   \n", content: "x"))
        #expect(try store.notes.get(id: first.id).title == "")
        #expect(try store.notes.get(id: second.id).content == "x")
    }

    @Test func titleWithBlankContentIsAccepted() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "t", content: "   "))
        #expect(try store.notes.get(id: note.id).content == "   ")
    }

    // MARK: Get

    @Test func gettingAnUnknownIdIsNotFound() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.notFound(kind: "note", id: "note_404")) {
            try store.notes.get(id: "note_404")
        }
        _ = try store.notes.create(NoteDraft(title: "exists"))
        #expect(throws: DomainError.notFound(kind: "note", id: "")) { try store.notes.get(id: "") }
    }

    // MARK: Update

    @Test func updateChangesOnlyTheGivenFields() throws {
        let clock = ManualClock(milliseconds: 1_000_000)
        let store = try Support.openStore(clock: clock)
        let color = try HSBColor(hue: 0.25, saturation: 0.5, brightness: 0.75)
        let original = try store.notes.create(
            NoteDraft(title: "Title", content: "Content", color: color, deadline: 5_000_000))

        clock.advance(by: 1500)
        let retitled = try store.notes.update(id: original.id, NoteChanges(title: "New title"))
        #expect(retitled.title == "New title")
        #expect(retitled.content == "Content")
        #expect(retitled.color == color)
        #expect(retitled.deadline == 5_000_000)
        #expect(retitled.revision == 2)
        #expect(retitled.createdAt == 1_000_000)
        #expect(retitled.updatedAt == 1_001_500)
        #expect(try store.notes.get(id: original.id) == retitled)

        clock.advance(by: 1)
        let rewritten = try store.notes.update(id: original.id, NoteChanges(content: "New content"))
        #expect(rewritten.title == "New title")
        #expect(rewritten.content == "New content")
        #expect(rewritten.color == color)
        #expect(rewritten.revision == 3)
        #expect(rewritten.updatedAt == 1_001_501)
        #expect(rewritten.createdAt == 1_000_000)

        clock.advance(by: 1)
        let red = try HSBColor(hue: 0, saturation: 1, brightness: 1)
        let recoloured = try store.notes.update(id: original.id, NoteChanges(color: red))
        #expect(recoloured.color == red)
        #expect(recoloured.title == "New title")
        #expect(recoloured.content == "New content")
        #expect(recoloured.deadline == 5_000_000)
        #expect(recoloured.revision == 4)
        #expect(recoloured.updatedAt == 1_001_502)
        #expect(try store.notes.get(id: original.id) == recoloured)
    }

    @Test func updateWithEveryFieldAtOnce() throws {
        let clock = ManualClock(milliseconds: 10)
        let store = try Support.openStore(clock: clock)
        let note = try store.notes.create(NoteDraft(title: "a"))
        clock.advance(by: 90)
        let color = try HSBColor(hue: 0.5, saturation: 0.5, brightness: 0.5)
        let updated = try store.notes.update(
            id: note.id, NoteChanges(title: "b", content: "c", color: color, deadline: .some(42)))
        #expect(updated == Note(
            id: note.id, title: "b", content: "c", color: color, deadline: 42, createdAt: 10, updatedAt: 100,
            revision: 2))
        #expect(try store.notes.get(id: note.id) == updated)
    }

    @Test func updateThatWouldMakeBothBlankIsEmptyNoteAndChangesNothing() throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        let titled = try store.notes.create(NoteDraft(title: "Title", content: ""))
        let both = try store.notes.create(NoteDraft(title: "T", content: "C"))
        clock.advance(by: 1000)

        #expect(throws: DomainError.validation(reason: .emptyNote, field: "title")) {
            try store.notes.update(id: titled.id, NoteChanges(title: " \n\t"))
        }
        #expect(throws: DomainError.validation(reason: .emptyNote, field: "title")) {
            try store.notes.update(id: both.id, NoteChanges(title: "", content: "\n"))
        }
        #expect(try store.notes.get(id: titled.id) == titled)
        #expect(try store.notes.get(id: both.id) == both)
    }

    @Test func updateThatBlanksOneSideWhileTheOtherHasTextIsAccepted() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "T", content: "C"))
        let updated = try store.notes.update(id: note.id, NoteChanges(title: ""))
        #expect(updated.title == "")
        #expect(updated.content == "C")
    }

    @Test func updateBreakingALengthLimitChangesNothing() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "T", content: "C"))
        #expect(throws: DomainError.validation(reason: .titleTooLong, field: "title", limit: 500)) {
            try store.notes.update(id: note.id, NoteChanges(title: Support.characters(501), content: "new"))
        }
        #expect(throws: DomainError.validation(reason: .contentTooLong, field: "content", limit: 1_000_000)) {
            try store.notes.update(id: note.id, NoteChanges(content: String(repeating: "x", count: 1_000_001)))
        }
        #expect(try store.notes.get(id: note.id) == note)
        let exact = try store.notes.update(id: note.id, NoteChanges(title: Support.characters(500)))
        #expect(exact.title.count == 500)
    }

    @Test func updatingAnUnknownNoteIsNotFound() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.notFound(kind: "note", id: "note_9")) {
            try store.notes.update(id: "note_9", NoteChanges(title: "x"))
        }
    }

    @Test func matchingIfRevisionUpdates() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "v1"))
        let second = try store.notes.update(id: note.id, NoteChanges(title: "v2"), ifRevision: 1)
        #expect(second.revision == 2)
        let third = try store.notes.update(id: note.id, NoteChanges(title: "v3"), ifRevision: 2)
        #expect(third.revision == 3)
        #expect(try store.notes.get(id: note.id).title == "v3")
    }

    @Test(arguments: [Int64(0), 1, 3, -1, Int64.max])
    func mismatchedIfRevisionIsRevisionConflictAndChangesNothing(ifRevision: Int64) throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        let note = try store.notes.create(NoteDraft(title: "v1"))
        let current = try store.notes.update(id: note.id, NoteChanges(title: "v2"))  // revision 2
        clock.advance(by: 1000)
        #expect(throws: DomainError.revisionConflict(current: 2)) {
            try store.notes.update(id: note.id, NoteChanges(title: "v3", content: "c"), ifRevision: ifRevision)
        }
        #expect(try store.notes.get(id: note.id) == current)
    }

    @Test func ifRevisionOnAnUnknownNoteIsNotFound() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.notFound(kind: "note", id: "note_1")) {
            try store.notes.update(id: "note_1", NoteChanges(title: "x"), ifRevision: 1)
        }
    }

    // MARK: Deadlines

    @Test func deadlineIsSetKeptWhenNotGivenAndClearedWithSomeNil() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "Pay rent"))
        #expect(note.deadline == nil)

        let set = try store.notes.update(id: note.id, NoteChanges(deadline: .some(1_795_252_500_000)))
        #expect(set.deadline == 1_795_252_500_000)
        #expect(try store.notes.get(id: note.id).deadline == 1_795_252_500_000)

        let kept = try store.notes.update(id: note.id, NoteChanges(title: "Pay the rent"))
        #expect(kept.deadline == 1_795_252_500_000)
        #expect(try store.notes.get(id: note.id).deadline == 1_795_252_500_000)

        let moved = try store.notes.update(id: note.id, NoteChanges(deadline: .some(-14_182_939_500)))
        #expect(try store.notes.get(id: note.id).deadline == -14_182_939_500)
        #expect(moved.revision == 4)

        let cleared = try store.notes.update(id: note.id, NoteChanges(deadline: .some(nil)))
        #expect(cleared.deadline == nil)
        #expect(try store.notes.get(id: note.id).deadline == nil)
        #expect(cleared.revision == 5)

        let stillCleared = try store.notes.update(id: note.id, NoteChanges(content: "body"))
        #expect(stillCleared.deadline == nil)
    }

    @Test func deadlineGivenAtCreateIsStored() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "t", deadline: 0))
        #expect(try store.notes.get(id: note.id).deadline == 0)
    }

    // MARK: Delete

    @Test func deletedNoteIsGoneAndDeletingAgainIsNotFound() throws {
        let store = try Support.openStore()
        let keep = try store.notes.create(NoteDraft(title: "keep"))
        let note = try store.notes.create(NoteDraft(title: "drop"))
        try store.notes.delete(id: note.id)
        #expect(throws: DomainError.notFound(kind: "note", id: note.id)) { try store.notes.get(id: note.id) }
        #expect(throws: DomainError.notFound(kind: "note", id: note.id)) { try store.notes.delete(id: note.id) }
        #expect(throws: DomainError.notFound(kind: "note", id: note.id)) {
            try store.notes.update(id: note.id, NoteChanges(title: "x"))
        }
        #expect(throws: DomainError.notFound(kind: "note", id: note.id)) { try store.notes.move(id: note.id, to: 0) }
        #expect(try store.notes.count() == 1)
        #expect(try Support.noteIDs(store) == [keep.id])
    }

    @Test func deletingAnUnknownNoteIsNotFound() throws {
        let store = try Support.openStore()
        #expect(throws: DomainError.notFound(kind: "note", id: "nope")) { try store.notes.delete(id: "nope") }
    }

    @Test func idsAreNotReusedAfterDelete() throws {
        let store = try Support.openStore()
        let first = try store.notes.create(NoteDraft(title: "a"))
        try store.notes.delete(id: first.id)
        let second = try store.notes.create(NoteDraft(title: "b"))
        #expect(second.id != first.id)
    }
}

/// Photo notes' captions and life cycle (SPEC §5).
@Suite struct PhotoNoteCaptionTests {
    typealias Support = DomainTestSupport

    @Test func addedPhotoHasItsCaptionImageAndRevisionOne() throws {
        let clock = ManualClock(milliseconds: 123_456)
        let store = try Support.openStore(clock: clock)
        let photo = try store.photos.add(image: Support.png(), caption: "Sunset")
        #expect(photo.caption == "Sunset")
        #expect(photo.revision == 1)
        #expect(photo.createdAt == 123_456)
        #expect(photo.updatedAt == 123_456)
        #expect(photo.image.mimeType == "image/png")
        #expect(photo.image.width == 1)
        #expect(photo.image.height == 1)
        #expect(photo.image.byteSize == Support.pngBytes().count)
        #expect(try store.photos.get(id: photo.id) == photo)
        #expect(try store.photos.count() == 1)
    }

    @Test func photoWithoutCaptionHasNilCaption() throws {
        let store = try Support.openStore()
        let photo = try store.photos.add(image: Support.png(), caption: nil)
        #expect(photo.caption == nil)
        #expect(try store.photos.get(id: photo.id).caption == nil)
    }

    @Test func captionOfExactly1000CharactersIsAccepted() throws {
        let store = try Support.openStore()
        let caption = Support.characters(1000)
        let photo = try store.photos.add(image: Support.png(), caption: caption)
        #expect(try store.photos.get(id: photo.id).caption == caption)
        let updated = try store.photos.update(id: photo.id, caption: .some(String(repeating: Support.family, count: 1000)))
        #expect(updated.caption?.count == 1000)
    }

    @Test func captionOf1001CharactersIsCaptionTooLongOnAddAndUpdate() throws {
        let store = try Support.openStore()
        let tooLong = DomainError.validation(reason: .captionTooLong, field: "caption", limit: 1000)
        #expect(throws: tooLong) { try store.photos.add(image: Support.png(), caption: Support.characters(1001)) }
        #expect(try store.photos.count() == 0)
        #expect(try store.images.count() == 0)

        let photo = try store.photos.add(image: Support.png(), caption: "short")
        #expect(throws: tooLong) { try store.photos.update(id: photo.id, caption: .some(Support.characters(1001))) }
        #expect(try store.photos.get(id: photo.id) == photo)
    }

    @Test func captionIsSetKeptWhenNotGivenAndClearedWithSomeNil() throws {
        let clock = ManualClock(milliseconds: 1000)
        let store = try Support.openStore(clock: clock)
        let photo = try store.photos.add(image: Support.png(), caption: nil)

        clock.advance(by: 10)
        let set = try store.photos.update(id: photo.id, caption: .some("Beach"))
        #expect(set.caption == "Beach")
        #expect(set.revision == 2)
        #expect(set.updatedAt == 1010)
        #expect(set.createdAt == 1000)
        #expect(set.image == photo.image)
        #expect(try store.photos.get(id: photo.id) == set)

        let kept = try store.photos.update(id: photo.id, caption: nil)
        #expect(kept.caption == "Beach")
        #expect(try store.photos.get(id: photo.id).caption == "Beach")

        let cleared = try store.photos.update(id: photo.id, caption: .some(nil))
        #expect(cleared.caption == nil)
        #expect(try store.photos.get(id: photo.id).caption == nil)
        #expect(cleared.revision == kept.revision + 1)
    }

    @Test func photoIfRevisionMatchUpdatesAndMismatchIsRevisionConflict() throws {
        let store = try Support.openStore()
        let photo = try store.photos.add(image: Support.png(), caption: "v1")
        let second = try store.photos.update(id: photo.id, caption: .some("v2"), ifRevision: 1)
        #expect(second.revision == 2)
        #expect(throws: DomainError.revisionConflict(current: 2)) {
            try store.photos.update(id: photo.id, caption: .some("v3"), ifRevision: 1)
        }
        #expect(try store.photos.get(id: photo.id) == second)
    }

    @Test func unknownPhotoIsNotFoundForGetUpdateDeleteAndMove() throws {
        let store = try Support.openStore()
        let missing = DomainError.notFound(kind: "photo", id: "photo_77")
        #expect(throws: missing) { try store.photos.get(id: "photo_77") }
        #expect(throws: missing) { try store.photos.update(id: "photo_77", caption: .some("x")) }
        #expect(throws: missing) { try store.photos.delete(id: "photo_77") }
        #expect(throws: missing) { try store.photos.move(id: "photo_77", to: 0) }
    }

    @Test func deletedPhotoIsGoneAndItsUnsharedImageGoesWithIt() throws {
        let store = try Support.openStore()
        let shared1 = try store.photos.add(image: Support.png(tag: 1), caption: "a")
        let shared2 = try store.photos.add(image: Support.png(tag: 1), caption: "b")
        let alone = try store.photos.add(image: Support.png(tag: 2), caption: "c")
        #expect(shared1.image.id == shared2.image.id)
        #expect(alone.image.id != shared1.image.id)
        #expect(try store.images.count() == 2)

        try store.photos.delete(id: alone.id)
        #expect(throws: DomainError.notFound(kind: "photo", id: alone.id)) { try store.photos.get(id: alone.id) }
        #expect(throws: DomainError.notFound(kind: "photo", id: alone.id)) { try store.photos.delete(id: alone.id) }
        #expect(throws: DomainError.notFound(kind: "image", id: alone.image.id)) {
            try store.images.get(id: alone.image.id)
        }

        try store.photos.delete(id: shared1.id)
        #expect(try store.images.get(id: shared2.image.id) == shared2.image)
        try store.photos.delete(id: shared2.id)
        #expect(try store.images.count() == 0)
        #expect(try store.photos.count() == 0)
    }

    @Test func unsupportedImageAddsNothing() throws {
        let store = try Support.openStore()
        let text = ImageInput.data(base64: Data("not an image".utf8).base64EncodedString(), claimedMimeType: "image/png")
        #expect(throws: DomainError.validation(reason: .unsupportedImage, field: "image")) {
            try store.photos.add(image: text, caption: "x")
        }
        #expect(try store.photos.count() == 0)
        #expect(try store.images.count() == 0)
    }

    @Test func distinctTestImagesAreValidAndDistinct() throws {
        let store = try Support.openStore()
        let first = try store.photos.add(image: Support.png(tag: 1), caption: nil)
        let second = try store.photos.add(image: Support.png(tag: 2), caption: nil)
        #expect(first.image.sha256 != second.image.sha256)
        #expect(first.image.width == 1 && second.image.height == 1)
    }
}

/// Notes survive closing and reopening a database file.
@Suite struct NotePersistenceTests {
    typealias Support = DomainTestSupport

    @Test func notesAreAllThereInOrderAfterReopening() throws {
        try Support.withTemporaryDirectory { directory in
            let path = directory + "/nested/notes.sqlite"
            let written: [Note]
            let photos: [PhotoNote]
            let sequence: Int64
            do {
                let store = try Support.openStore(path: path, ids: SequentialIDGenerator())
                #expect(try store.schemaVersion() >= 1)
                for index in 0..<12 {
                    _ = try store.notes.create(NoteDraft(title: "note \(index)", content: Support.characters(index)))
                }
                _ = try store.notes.create(NoteDraft(title: "first"), at: 0)
                _ = try store.notes.create(NoteDraft(title: "middle", deadline: 99), at: 6)
                let ids = try Support.noteIDs(store)
                _ = try store.notes.move(id: ids[3], to: 10)
                let color = try HSBColor(hue: 1, saturation: 0, brightness: 0)
                _ = try store.notes.update(id: ids[1], NoteChanges(color: color))
                try store.notes.delete(id: ids[2])
                _ = try store.photos.add(image: Support.png(tag: 1), caption: "one")
                _ = try store.photos.add(image: Support.png(tag: 2), caption: nil)
                written = try Support.allNotes(store)
                photos = try Support.allPhotos(store)
                sequence = try store.changes.latestSequence()
            }
            #expect(written.count == 13)
            #expect(FileManager.default.fileExists(atPath: path))

            let reopened = try Support.openStore(path: path, ids: RandomIDGenerator(clock: ManualClock()))
            #expect(try reopened.schemaVersion() >= 1)
            #expect(try Support.allNotes(reopened) == written)
            #expect(try Support.allNotes(reopened, pageSize: 4) == written)
            #expect(try Support.allPhotos(reopened) == photos)
            #expect(try reopened.notes.count() == 13)
            #expect(try reopened.changes.latestSequence() == sequence)
            let (image, bytes) = try reopened.images.data(id: photos[0].image.id)
            #expect(image == photos[0].image)
            #expect(bytes == Support.pngBytes(tag: 1))
            let colored = try reopened.notes.get(id: written[1].id)
            #expect(colored.color.hue == 1 && colored.color.saturation == 0 && colored.color.brightness == 0)

            // The reopened store keeps ordering: a new note goes last, moves still work.
            let late = try reopened.notes.create(NoteDraft(title: "after restart"))
            _ = try reopened.notes.move(id: written[0].id, to: 13)
            #expect(try Support.noteIDs(reopened) == Array(written.map(\.id).dropFirst()) + [late.id, written[0].id])
        }
    }

    @Test func aNewDatabaseFileHasTheCurrentSchemaAndNothingElse() throws {
        try Support.withTemporaryDirectory { directory in
            let store = try Support.openStore(path: directory + "/fresh.sqlite")
            #expect(try store.schemaVersion() >= 1)
            #expect(try store.notes.count() == 0)
            #expect(try store.photos.count() == 0)
            #expect(try store.changes.latestSequence() == 0)
        }
    }

    @Test func inMemoryStoreHasASchemaVersion() throws {
        let store = try Support.openStore()
        #expect(try store.schemaVersion() >= 1)
    }
}
