import Foundation
import Testing

@testable import Domain

/// The change log (SPEC §11): every committed mutation appends its event(s) in the same transaction, in
/// order, with increasing `seq`; a refused mutation appends nothing.
@Suite struct ChangeLogTests {
    typealias Support = DomainTestSupport

    /// An event without its sequence number, for comparisons.
    private struct Entry: Equatable, CustomStringConvertible {
        var domain: ChangeDomain
        var kind: ChangeKind
        var id: String
        var at: Int64

        init(_ domain: ChangeDomain, _ kind: ChangeKind, _ id: String, at: Int64) {
            self.domain = domain
            self.kind = kind
            self.id = id
            self.at = at
        }

        init(_ event: ChangeEvent) {
            self.init(event.domain, event.kind, event.id, at: event.at)
        }

        var description: String { "\(domain.rawValue).\(kind.rawValue)(\(id)) at \(at)" }
    }

    /// Follows the log: each `expect` checks exactly what was appended since the previous one.
    private final class Tail {
        let store: DataStore
        var last: Int64

        init(_ store: DataStore) throws {
            self.store = store
            last = try store.changes.latestSequence()
        }

        func appended() throws -> [ChangeEvent] {
            let events = try store.changes.events(after: last, limit: 1000)
            for event in events {
                #expect(event.sequence > last, "seq must increase")
                last = event.sequence
            }
            #expect(try store.changes.latestSequence() == last)
            return events
        }

        func expect(_ entries: [Entry], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let events = try appended()
            #expect(events.map(Entry.init) == entries, sourceLocation: sourceLocation)
        }

        func expectNothing(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let before = last
            let events = try appended()
            #expect(events.isEmpty, "unexpected events: \(events)", sourceLocation: sourceLocation)
            #expect(try store.changes.latestSequence() == before, sourceLocation: sourceLocation)
        }
    }

    @Test func aFreshStoreHasAnEmptyLog() throws {
        let store = try Support.openStore()
        #expect(try store.changes.latestSequence() == 0)
        #expect(try store.changes.events(after: 0, limit: 100).isEmpty)
    }

    @Test func everyNoteMutationAppendsExactlyOneEventInOrder() throws {
        let clock = ManualClock(milliseconds: 1_000)
        let store = try Support.openStore(clock: clock)
        let tail = try Tail(store)

        let first = try store.notes.create(NoteDraft(title: "first"))
        try tail.expect([Entry(.notes, .created, first.id, at: 1_000)])

        clock.advance(by: 1)
        let second = try store.notes.create(NoteDraft(title: "second"), at: 0)
        try tail.expect([Entry(.notes, .created, second.id, at: 1_001)])

        clock.advance(by: 1)
        _ = try store.notes.update(id: first.id, NoteChanges(content: "body"))
        try tail.expect([Entry(.notes, .updated, first.id, at: 1_002)])

        clock.advance(by: 1)
        _ = try store.notes.update(id: first.id, NoteChanges(deadline: .some(nil)), ifRevision: 2)
        try tail.expect([Entry(.notes, .updated, first.id, at: 1_003)])

        clock.advance(by: 1)
        _ = try store.notes.move(id: first.id, to: 0)
        try tail.expect([Entry(.notes, .moved, first.id, at: 1_004)])

        clock.advance(by: 1)
        try store.notes.delete(id: second.id)
        try tail.expect([Entry(.notes, .deleted, second.id, at: 1_005)])

        // The whole log, in order, with strictly increasing sequence numbers.
        let all = try Support.allEvents(store)
        #expect(all.map(\.kind) == [.created, .created, .updated, .updated, .moved, .deleted])
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(try store.changes.latestSequence() == all.last?.sequence)
    }

    @Test func everyPhotoMutationAppendsItsEventsAndImagesTheirs() throws {
        let clock = ManualClock(milliseconds: 2_000)
        let store = try Support.openStore(clock: clock)
        let tail = try Tail(store)

        // A new picture: the image is created along with the photo note.
        let first = try store.photos.add(image: Support.png(tag: 1), caption: "first")
        try tail.expect([
            Entry(.images, .created, first.image.id, at: 2_000), Entry(.photos, .created, first.id, at: 2_000),
        ])

        // The same picture again: stored once, so only the photo note is new.
        clock.advance(by: 1)
        let second = try store.photos.add(image: Support.png(tag: 1), caption: nil)
        #expect(second.image.id == first.image.id)
        try tail.expect([Entry(.photos, .created, second.id, at: 2_001)])

        // Reusing by id: likewise.
        clock.advance(by: 1)
        let third = try store.photos.add(image: .reuse(id: first.image.id), caption: nil)
        try tail.expect([Entry(.photos, .created, third.id, at: 2_002)])

        clock.advance(by: 1)
        _ = try store.photos.update(id: second.id, caption: .some("caption"))
        try tail.expect([Entry(.photos, .updated, second.id, at: 2_003)])

        clock.advance(by: 1)
        _ = try store.photos.update(id: second.id, caption: .some(nil), ifRevision: 2)
        try tail.expect([Entry(.photos, .updated, second.id, at: 2_004)])

        clock.advance(by: 1)
        _ = try store.photos.move(id: third.id, to: 0)
        try tail.expect([Entry(.photos, .moved, third.id, at: 2_005)])

        // Deleting a photo note whose image is still used elsewhere: only the photo note goes.
        clock.advance(by: 1)
        try store.photos.delete(id: first.id)
        try tail.expect([Entry(.photos, .deleted, first.id, at: 2_006)])

        clock.advance(by: 1)
        try store.photos.delete(id: second.id)
        try tail.expect([Entry(.photos, .deleted, second.id, at: 2_007)])

        // The last owner goes: the image is deleted with it.
        clock.advance(by: 1)
        try store.photos.delete(id: third.id)
        let last = try tail.appended().map(Entry.init)
        #expect(last.count == 2)
        #expect(last.contains(Entry(.photos, .deleted, third.id, at: 2_008)))
        #expect(last.contains(Entry(.images, .deleted, first.image.id, at: 2_008)))
        #expect(try store.images.count() == 0)
    }

    @Test func eventsOfNotesAndPhotosInterleaveInCommitOrder() throws {
        let store = try Support.openStore()
        let note = try store.notes.create(NoteDraft(title: "n"))
        let photo = try store.photos.add(image: Support.png(), caption: nil)
        _ = try store.notes.update(id: note.id, NoteChanges(title: "m"))
        _ = try store.photos.update(id: photo.id, caption: .some("c"))
        try store.notes.delete(id: note.id)
        let events = try Support.allEvents(store)
        #expect(events.map(\.domain) == [.notes, .images, .photos, .notes, .photos, .notes])
        #expect(events.map(\.kind) == [.created, .created, .created, .updated, .updated, .deleted])
        #expect(events.map(\.id) == [note.id, photo.image.id, photo.id, note.id, photo.id, note.id])
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    }

    @Test func aFailedMutationAppendsNothing() throws {
        let store = try Support.openStore(freeLimit: 4)
        let note = try store.notes.create(NoteDraft(title: "n"))
        let photo = try store.photos.add(image: Support.png(), caption: nil)
        _ = try store.notes.update(id: note.id, NoteChanges(title: "n2"))  // revision 2
        _ = try store.photos.update(id: photo.id, caption: .some("c"))  // revision 2
        let tail = try Tail(store)
        let state = (try Support.allNotes(store), try Support.allPhotos(store))

        // Validation.
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: Support.characters(501))) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: " ", content: "\n")) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "x"), at: 5) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.notes.update(id: note.id, NoteChanges(title: "")) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) {
            try store.notes.update(id: note.id, NoteChanges(content: String(repeating: "c", count: 1_000_001)))
        }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.notes.move(id: note.id, to: 1) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.photos.move(id: photo.id, to: -1) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.photos.add(image: Support.png(), caption: Support.characters(1001)) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) {
            try store.photos.add(image: .data(base64: "bm90IGFuIGltYWdl", claimedMimeType: nil), caption: nil)
        }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.photos.update(id: photo.id, caption: .some(Support.characters(1001))) }
        try tail.expectNothing()

        // Revision conflicts.
        #expect(throws: DomainError.revisionConflict(current: 2)) {
            try store.notes.update(id: note.id, NoteChanges(title: "x"), ifRevision: 1)
        }
        try tail.expectNothing()
        #expect(throws: DomainError.revisionConflict(current: 2)) {
            try store.photos.update(id: photo.id, caption: .some("x"), ifRevision: 1)
        }
        try tail.expectNothing()

        // Not found.
        #expect(throws: DomainError.self) { try store.notes.update(id: "note_x", NoteChanges(title: "x")) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.notes.delete(id: "note_x") }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.notes.move(id: "note_x", to: 0) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.photos.update(id: "photo_x", caption: .some("x")) }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.photos.delete(id: "photo_x") }
        try tail.expectNothing()
        #expect(throws: DomainError.self) { try store.photos.move(id: "photo_x", to: 0) }
        try tail.expectNothing()
        #expect(throws: DomainError.notFound(kind: "image", id: "img_x")) {
            try store.photos.add(image: .reuse(id: "img_x"), caption: nil)
        }
        try tail.expectNothing()

        // Moving to where it already is changes nothing, so it records nothing.
        _ = try store.notes.move(id: note.id, to: 0)
        _ = try store.photos.move(id: photo.id, to: 0)
        try tail.expectNothing()

        // The free limit.
        _ = try store.notes.create(NoteDraft(title: "3"))
        _ = try store.notes.create(NoteDraft(title: "4"))
        _ = try tail.appended()
        #expect(throws: DomainError.freeLimitReached(limit: 4)) { try store.notes.create(NoteDraft(title: "5")) }
        try tail.expectNothing()
        #expect(throws: DomainError.freeLimitReached(limit: 4)) { try store.photos.add(image: Support.png(tag: 5), caption: nil) }
        try tail.expectNothing()

        // Reads record nothing either.
        _ = try store.notes.get(id: note.id)
        _ = try store.notes.list(PageRequest(limit: 1))
        _ = try store.photos.get(id: photo.id)
        _ = try store.images.data(id: photo.image.id)
        try tail.expectNothing()

        // And the failed mutations did not touch the data.
        #expect(try Array(Support.allNotes(store).prefix(1)) == state.0)
        #expect(try Support.allPhotos(store) == state.1)
    }

    @Test func eventsAfterASequencePageByLimit() throws {
        let store = try Support.openStore()
        var ids: [String] = []
        for index in 0..<10 { ids.append(try store.notes.create(NoteDraft(title: "n\(index)")).id) }
        let all = try Support.allEvents(store)
        #expect(all.map(\.id) == ids)
        #expect(try store.changes.latestSequence() == all[9].sequence)

        var walked: [ChangeEvent] = []
        var after: Int64 = 0
        while true {
            let page = try store.changes.events(after: after, limit: 3)
            if page.isEmpty { break }
            #expect(page.count <= 3)
            walked += page
            after = page.last!.sequence
        }
        #expect(walked == all)
        #expect(try store.changes.events(after: all[4].sequence, limit: 100).map(\.id) == Array(ids[5...]))
        #expect(try store.changes.events(after: try store.changes.latestSequence(), limit: 100).isEmpty)
    }

    @Test func eventTimesComeFromTheClock() throws {
        let clock = ManualClock(milliseconds: -5_000)
        let store = try Support.openStore(clock: clock)
        let note = try store.notes.create(NoteDraft(title: "old"))
        clock.milliseconds = 1_795_252_500_000
        try store.notes.delete(id: note.id)
        #expect(try Support.allEvents(store).map(\.at) == [-5_000, 1_795_252_500_000])
    }

    @Test func theLogSurvivesReopeningAndKeepsCounting() throws {
        try Support.withTemporaryDirectory { directory in
            let path = directory + "/changes.sqlite"
            let before: [ChangeEvent]
            do {
                let store = try Support.openStore(path: path, ids: SequentialIDGenerator())
                let note = try store.notes.create(NoteDraft(title: "a"))
                _ = try store.notes.update(id: note.id, NoteChanges(title: "b"))
                before = try Support.allEvents(store)
            }
            let reopened = try Support.openStore(path: path)
            #expect(try Support.allEvents(reopened) == before)
            let later = try reopened.notes.create(NoteDraft(title: "c"))
            let after = try Support.allEvents(reopened)
            #expect(after.count == 3)
            #expect(after.last?.id == later.id)
            #expect(after[2].sequence > before[1].sequence)
        }
    }
}

/// In a run of pipelined creates, events are held in memory and written in bulk (see WriteGroup); these
/// check that grouping, reading mid-transaction, savepoints and rollbacks never lose, repeat or reorder one.
@Suite struct BatchedChangeEventTests {
    struct Refused: Error {}

    static func sequences(_ store: DataStore) throws -> [String] {
        try store.changes.events(after: 0, limit: 1000).map { "\($0.sequence):\($0.kind.rawValue):\($0.id)" }
    }

    @Test func theLiteralsBoundToSQLAreTheRawValues() {
        for domain in ChangeDomain.allCases { #expect("\(domain.literal)" == domain.rawValue) }
        for kind in ChangeKind.allCases { #expect("\(kind.literal)" == kind.rawValue) }
    }

    @Test func aGroupWritesItsEventsInOrderWithConsecutiveSequences() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let ids = try (0..<150).map { try store.notes.create(NoteDraft(title: "n\($0)")).id }
        try store.notes.delete(id: ids[3])
        try store.commitWriteGroup()
        let events = try store.changes.events(after: 0, limit: 1000)
        #expect(events.map(\.sequence) == Array(1...151))
        #expect(events.prefix(150).map(\.id) == ids)
        #expect(events.last?.kind == .deleted)
    }

    @Test func readingTheLogInsideTheGroupSeesItsEventsAndWritesThemOnce() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        let first = try store.notes.create(NoteDraft(title: "first"))
        #expect(try store.changes.latestSequence() == 1)
        let second = try store.notes.create(NoteDraft(title: "second"))
        #expect(try store.changes.events(after: 0, limit: 10).map(\.id) == [first.id, second.id])
        try store.commitWriteGroup()
        #expect(try Self.sequences(store) == ["1:created:\(first.id)", "2:created:\(second.id)"])
    }

    @Test func aRolledBackSavepointForgetsItsEventsEvenAfterTheyWereWrittenInsideIt() throws {
        let store = try DomainTestSupport.openStore()
        let database = store.database
        store.beginWriteGroup()
        let kept = try store.notes.create(NoteDraft(title: "kept"))
        #expect(throws: Refused.self) {
            try store.group.transaction {
                try store.changes.record(.notes, .updated, id: "ghost", at: 0)
                // Something in the savepoint reads the log: the held event (written before the savepoint began)
                // and its own are there...
                #expect(try database.scalarInteger("SELECT count(*) FROM changes") == 2)
                throw Refused()
            }
        }
        // ...and the savepoint's rollback took its own away again; the earlier event stays.
        let later = try store.notes.create(NoteDraft(title: "later"))
        try store.commitWriteGroup()
        #expect(try Self.sequences(store) == ["1:created:\(kept.id)", "2:created:\(later.id)"])
    }

    @Test func aGroupGivenUpLeavesNoEvents() throws {
        let store = try DomainTestSupport.openStore()
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "lost"))
        try store.database.execute("ROLLBACK")  // what SQLite does by itself after an I/O error
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        let next = try store.notes.create(NoteDraft(title: "next"))
        #expect(try Self.sequences(store) == ["1:created:\(next.id)"])
    }

    @Test func aCreateRefusedBeforeItsFirstWriteLeavesTheGroupAndItsEvents() throws {
        let store = try DomainTestSupport.openStore(freeLimit: 1)
        store.beginWriteGroup()
        let only = try store.notes.create(NoteDraft(title: "only"))
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "one too many")) }
        try store.commitWriteGroup()
        #expect(try Self.sequences(store) == ["1:created:\(only.id)"])
        #expect(try store.notes.count() == 1)
    }
}


/// A name read back from the database that this build does not know is a damaged database, never a guess
/// (an unknown domain used to read as `notes`).
@Suite struct StoredNamesTests {
    static func isCorrupt(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as DomainError {
            if case .storage(let reason, _) = error { return reason == .databaseCorrupt }
            return false
        } catch {
            return false
        }
    }

    @Test(arguments: ["domain = 'widgets'", "kind = 'exploded'"])
    func anUnknownDomainOrKindInTheChangeLogIsACorruptDatabase(damage: String) throws {
        let store = try DomainTestSupport.openStore()
        _ = try store.notes.create(NoteDraft(title: "a note"))
        try store.database.execute("UPDATE changes SET \(damage)")
        #expect(Self.isCorrupt { _ = try store.changes.events(after: 0, limit: 10) })
        #expect(Self.isCorrupt { _ = try store.search.search("note") }, "the index follows the same log")
    }

    @Test func anUnknownMessageOriginIsACorruptDatabase() throws {
        let store = try DomainTestSupport.openStore()
        let message = try store.messages.send(text: "hello")
        try store.database.execute("UPDATE messages SET origin = 'martian'")
        #expect(Self.isCorrupt { _ = try store.messages.get(id: message.id) })
        #expect(Self.isCorrupt { _ = try store.messages.list(PageRequest(limit: 10)) })
    }
}
