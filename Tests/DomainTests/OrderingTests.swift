import Foundation
import Testing

@testable import Domain

/// The user's order of notes and photo notes (SPEC §3, §5): appends, inserts at an index, moves, keyset
/// pages, cursors. Everything goes through the public store API; a plain Swift array is the reference.
@Suite struct OrderingTests {
    typealias Support = DomainTestSupport

    /// Notes or photo notes, seen through the same few operations.
    enum Kind: String, CaseIterable, Sendable {
        case notes, photos
    }

    private struct Lists {
        let store: DataStore
        let kind: Kind

        func add(_ label: Int) throws -> String {
            switch kind {
            case .notes: return try store.notes.create(NoteDraft(title: "item \(label)")).id
            case .photos: return try store.photos.add(image: Support.png(), caption: "item \(label)").id
            }
        }

        func move(_ id: String, to index: Int) throws -> (revision: Int64, updatedAt: Int64) {
            switch kind {
            case .notes:
                let note = try store.notes.move(id: id, to: index)
                return (note.revision, note.updatedAt)
            case .photos:
                let photo = try store.photos.move(id: id, to: index)
                return (photo.revision, photo.updatedAt)
            }
        }

        func revision(_ id: String) throws -> Int64 {
            switch kind {
            case .notes: return try store.notes.get(id: id).revision
            case .photos: return try store.photos.get(id: id).revision
            }
        }

        func ids() throws -> [String] {
            switch kind {
            case .notes: return try Support.noteIDs(store)
            case .photos: return try Support.photoIDs(store)
            }
        }

        func page(limit: Int, cursor: String?) throws -> (ids: [String], next: String?) {
            switch kind {
            case .notes:
                let page = try store.notes.list(PageRequest(limit: limit, cursor: cursor))
                return (page.items.map(\.id), page.nextCursor)
            case .photos:
                let page = try store.photos.list(PageRequest(limit: limit, cursor: cursor))
                return (page.items.map(\.id), page.nextCursor)
            }
        }

        func count() throws -> Int {
            switch kind {
            case .notes: return try store.notes.count()
            case .photos: return try store.photos.count()
            }
        }

        func delete(_ id: String) throws {
            switch kind {
            case .notes: try store.notes.delete(id: id)
            case .photos: try store.photos.delete(id: id)
            }
        }
    }

    private func makeLists(_ kind: Kind, count: Int, clock: ManualClock = ManualClock()) throws -> (Lists, [String]) {
        let lists = Lists(store: try Support.openStore(clock: clock), kind: kind)
        var ids: [String] = []
        for label in 0..<count { ids.append(try lists.add(label)) }
        return (lists, ids)
    }

    // MARK: Appends and inserts

    @Test(arguments: Kind.allCases)
    func appendOrderIsKept(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 12)
        #expect(try lists.ids() == ids)
        #expect(try lists.count() == 12)
    }

    @Test func emptyListsHaveNoItemsAndNoCursor() throws {
        let store = try Support.openStore()
        let notes = try store.notes.list(PageRequest())
        #expect(notes.items.isEmpty)
        #expect(notes.nextCursor == nil)
        let photos = try store.photos.list(PageRequest(limit: 1))
        #expect(photos.items.isEmpty)
        #expect(photos.nextCursor == nil)
    }

    @Test func createAtIndexZeroMiddleAndEnd() throws {
        let store = try Support.openStore()
        var reference: [String] = []
        for title in ["a", "b", "c"] { reference.append(try store.notes.create(NoteDraft(title: title)).id) }

        let first = try store.notes.create(NoteDraft(title: "first"), at: 0)
        reference.insert(first.id, at: 0)
        #expect(try Support.noteIDs(store) == reference)

        let middle = try store.notes.create(NoteDraft(title: "middle"), at: 2)
        reference.insert(middle.id, at: 2)
        #expect(try Support.noteIDs(store) == reference)

        let end = try store.notes.create(NoteDraft(title: "end"), at: reference.count)
        reference.append(end.id)
        #expect(try Support.noteIDs(store) == reference)

        let appended = try store.notes.create(NoteDraft(title: "appended"))
        reference.append(appended.id)
        #expect(try Support.noteIDs(store) == reference)
        #expect(try Support.allNotes(store).map(\.title) == ["first", "a", "middle", "b", "c", "end", "appended"])
    }

    @Test func createAtIndexZeroInAnEmptyList() throws {
        let store = try Support.openStore()
        let only = try store.notes.create(NoteDraft(title: "only"), at: 0)
        #expect(try Support.noteIDs(store) == [only.id])
    }

    @Test(arguments: [0, 1, 5])
    func createAtAnIndexOutsideZeroToCountIsIndexOutOfRange(existing: Int) throws {
        let store = try Support.openStore()
        for index in 0..<existing { _ = try store.notes.create(NoteDraft(title: "n\(index)")) }
        let before = try Support.noteIDs(store)
        let sequence = try store.changes.latestSequence()
        for index in [-1, existing + 1, existing + 100, Int.min, Int.max] {
            #expect(throws: DomainError.validation(reason: .indexOutOfRange, field: "atIndex", limit: Int64(existing))) {
                try store.notes.create(NoteDraft(title: "x"), at: index)
            }
        }
        #expect(try Support.noteIDs(store) == before)
        #expect(try store.changes.latestSequence() == sequence)
    }

    @Test func hundredsOfInsertsAtTheSameIndexKeepTheOrder() throws {
        // Each insert at index 1 takes the midpoint between the first note and the previous insert, so the
        // gap runs out after ~20 inserts and the list must be renumbered, again and again.
        let store = try Support.openStore()
        var reference: [String] = []
        for title in ["head", "tail"] { reference.append(try store.notes.create(NoteDraft(title: title)).id) }
        for round in 0..<300 {
            let note = try store.notes.create(NoteDraft(title: "insert \(round)"), at: 1)
            reference.insert(note.id, at: 1)
            if round % 25 == 0 { #expect(try Support.noteIDs(store) == reference, "after insert \(round)") }
        }
        #expect(try Support.noteIDs(store) == reference)
        // Front inserts as well.
        for round in 0..<100 {
            let note = try store.notes.create(NoteDraft(title: "front \(round)"), at: 0)
            reference.insert(note.id, at: 0)
        }
        #expect(try Support.noteIDs(store) == reference)
        #expect(try store.notes.count() == reference.count)
    }

    // MARK: Moves

    @Test(arguments: Kind.allCases)
    func moveToFirstLastAndMiddle(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 6)
        var reference = ids

        func check(_ id: String, to index: Int) throws {
            _ = try lists.move(id, to: index)
            reference.remove(at: reference.firstIndex(of: id)!)
            reference.insert(id, at: index)
            #expect(try lists.ids() == reference, "move \(id) to \(index)")
        }

        try check(ids[3], to: 0)  // to first
        try check(ids[0], to: 5)  // to last
        try check(ids[5], to: 2)  // up into the middle
        try check(ids[1], to: 4)  // down into the middle
        try check(ids[2], to: 3)  // one step down
        try check(ids[4], to: 1)  // one step up
        try check(reference[5], to: 0)  // last to first
        try check(reference[0], to: 5)  // first to last
        try check(reference[1], to: 2)  // swap neighbours
    }

    @Test(arguments: Kind.allCases)
    func moveBumpsRevisionAndUpdatedAt(kind: Kind) throws {
        let clock = ManualClock(milliseconds: 5000)
        let (lists, ids) = try makeLists(kind, count: 3, clock: clock)
        clock.advance(by: 250)
        let moved = try lists.move(ids[2], to: 0)
        #expect(moved.revision == 2)
        #expect(moved.updatedAt == 5250)
        #expect(try lists.revision(ids[2]) == 2)
        #expect(try lists.revision(ids[0]) == 1)  // the others are not touched
        #expect(try lists.revision(ids[1]) == 1)
        let again = try lists.move(ids[2], to: 2)
        #expect(again.revision == 3)
    }

    @Test(arguments: Kind.allCases)
    func moveToTheSamePlaceChangesNothing(kind: Kind) throws {
        let clock = ManualClock(milliseconds: 5000)
        let (lists, ids) = try makeLists(kind, count: 4, clock: clock)
        clock.advance(by: 1000)
        let sequence = try lists.store.changes.latestSequence()
        for (index, id) in ids.enumerated() {
            let result = try lists.move(id, to: index)
            #expect(result.revision == 1)
            #expect(result.updatedAt == 5000)
            #expect(try lists.revision(id) == 1)
        }
        #expect(try lists.ids() == ids)
        #expect(try lists.store.changes.latestSequence() == sequence)
    }

    @Test(arguments: Kind.allCases)
    func moveOutsideTheListIsIndexOutOfRange(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 4)
        let sequence = try lists.store.changes.latestSequence()
        for index in [-1, 4, 5, Int.min, Int.max] {
            #expect(throws: DomainError.validation(reason: .indexOutOfRange, field: "toIndex", limit: 3)) {
                try lists.move(ids[1], to: index)
            }
        }
        #expect(try lists.ids() == ids)
        #expect(try lists.revision(ids[1]) == 1)
        #expect(try lists.store.changes.latestSequence() == sequence)
    }

    @Test(arguments: Kind.allCases)
    func theOnlyItemCanOnlyMoveToZero(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 1)
        #expect(try lists.move(ids[0], to: 0).revision == 1)
        #expect(throws: DomainError.validation(reason: .indexOutOfRange, field: "toIndex", limit: 0)) {
            try lists.move(ids[0], to: 1)
        }
    }

    @Test(arguments: Kind.allCases)
    func hundredsOfMovesToTheFrontKeepTheOrder(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 10)
        var reference = ids
        for round in 0..<300 {
            let id = reference[round % 2 == 0 ? reference.count - 1 : 5]
            _ = try lists.move(id, to: 0)
            reference.remove(at: reference.firstIndex(of: id)!)
            reference.insert(id, at: 0)
            #expect(try lists.ids() == reference, "after move \(round)")
        }
    }

    @Test(arguments: Kind.allCases)
    func hundredsOfMovesBetweenTheSameTwoNeighboursKeepTheOrder(kind: Kind) throws {
        // [A, B, ...rest]: move the last item to index 1, so it lands between A and whatever is at 1 (the
        // item moved just before): the gap after A halves every time and has to be renumbered repeatedly.
        // Every other round moves an item back between the same A and B pair.
        let (lists, ids) = try makeLists(kind, count: 8)
        var reference = ids
        for round in 0..<400 {
            let id = round % 3 == 2 ? reference[4] : reference[reference.count - 1]
            _ = try lists.move(id, to: 1)
            reference.remove(at: reference.firstIndex(of: id)!)
            reference.insert(id, at: 1)
            #expect(try lists.ids() == reference, "after move \(round)")
        }
        // And the mirror image: in front of the last item.
        for round in 0..<300 {
            let id = reference[round % 2 == 0 ? 0 : 3]
            _ = try lists.move(id, to: reference.count - 2)
            reference.remove(at: reference.firstIndex(of: id)!)
            reference.insert(id, at: reference.count - 1)
            #expect(try lists.ids() == reference, "after mirrored move \(round)")
        }
    }

    @Test(arguments: Kind.allCases)
    func aRenumberingLogsEveryRowAsMovedSoSyncSendsTheNewPlaces(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 6)
        // The gap after the first row halves with each move in front of the second: it runs out in ~20.
        var logged: [ChangeEvent] = []
        for round in 0..<40 where logged.count <= 1 {
            let id = try lists.ids()[round % 2 == 0 ? 5 : 4]
            let start = try lists.store.changes.latestSequence()
            _ = try lists.move(id, to: 1)
            logged = try lists.store.changes.events(after: start, limit: 100)
        }
        #expect(logged.count > 1, "the list was renumbered within 40 moves")
        #expect(Set(logged.map(\.id)) == Set(ids))
        #expect(logged.allSatisfy { $0.kind == .moved && $0.domain == (kind == .notes ? .notes : .photos) })
    }

    @Test(arguments: Kind.allCases)
    func randomMovesMatchAReferenceArray(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 25)
        var reference = ids
        var random = DomainTestRandom(seed: kind == .notes ? 2026 : 1121)
        for round in 0..<600 {
            let from = Int.random(in: 0..<reference.count, using: &random)
            // Bias towards short hops and the ends, where the gaps run out fastest.
            let to: Int
            switch round % 4 {
            case 0: to = 0
            case 1: to = min(reference.count - 1, from + 1)
            case 2: to = max(0, from - 2)
            default: to = Int.random(in: 0..<reference.count, using: &random)
            }
            let id = reference[from]
            _ = try lists.move(id, to: to)
            reference.remove(at: from)
            reference.insert(id, at: to)
            if round % 10 == 0 || round > 580 {
                #expect(try lists.ids() == reference, "after move \(round) (\(from) -> \(to))")
            }
        }
        #expect(try lists.ids() == reference)
        // Pages still walk the reordered list exactly.
        var walked: [String] = []
        var cursor: String?
        repeat {
            let page = try lists.page(limit: 3, cursor: cursor)
            walked += page.ids
            cursor = page.next
        } while cursor != nil
        #expect(walked == reference)
    }

    @Test func movesAndInsertsInterleavedWithDeletesKeepTheOrder() throws {
        let store = try Support.openStore()
        var reference: [String] = []
        var random = DomainTestRandom(seed: 99)
        for round in 0..<400 {
            switch round % 5 {
            case 0, 1:
                let index = Int.random(in: 0...reference.count, using: &random)
                let note = try store.notes.create(NoteDraft(title: "n\(round)"), at: index)
                reference.insert(note.id, at: index)
            case 2 where reference.count > 3:
                let index = Int.random(in: 0..<reference.count, using: &random)
                try store.notes.delete(id: reference.remove(at: index))
            default:
                guard !reference.isEmpty else { continue }
                let from = Int.random(in: 0..<reference.count, using: &random)
                let to = round % 2 == 0 ? 0 : Int.random(in: 0..<reference.count, using: &random)
                let id = reference.remove(at: from)
                _ = try store.notes.move(id: id, to: to)
                reference.insert(id, at: to)
            }
            #expect(try Support.noteIDs(store) == reference, "after round \(round)")
        }
    }

    // MARK: Keyset pages

    @Test(arguments: Kind.allCases, [1, 2, 7])
    func pagesWalkTheWholeListWithNoSkipOrRepeat(kind: Kind, limit: Int) throws {
        for total in [1, 13, 14] {
            let (lists, ids) = try makeLists(kind, count: total)
            var walked: [String] = []
            var pages = 0
            var cursor: String?
            repeat {
                let page = try lists.page(limit: limit, cursor: cursor)
                pages += 1
                #expect(page.ids.count <= limit)
                #expect(!page.ids.isEmpty, "an empty page after a non-nil cursor")
                if page.next != nil { #expect(page.ids.count == limit) }
                walked += page.ids
                cursor = page.next
                try #require(pages <= total + 1, "the walk does not end")
            } while cursor != nil
            #expect(walked == ids, "\(total) items, limit \(limit)")
            #expect(Set(walked).count == walked.count)
            // No empty page at the end, even when the total is a multiple of the limit.
            #expect(pages == (total + limit - 1) / limit, "\(total) items, limit \(limit)")
        }
    }

    @Test(arguments: Kind.allCases)
    func pageWithTheWholeListHasNoNextCursor(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 7)
        let exact = try lists.page(limit: 7, cursor: nil)
        #expect(exact.ids == ids)
        #expect(exact.next == nil)
        let larger = try lists.page(limit: 500, cursor: nil)
        #expect(larger.ids == ids)
        #expect(larger.next == nil)
        let shorter = try lists.page(limit: 6, cursor: nil)
        #expect(shorter.ids == Array(ids.prefix(6)))
        #expect(shorter.next != nil)
    }

    @Test(arguments: Kind.allCases)
    func pagesFollowTheUserOrderAfterMoves(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 9)
        _ = try lists.move(ids[8], to: 0)
        _ = try lists.move(ids[0], to: 4)
        let reference = [ids[8], ids[1], ids[2], ids[3], ids[0], ids[4], ids[5], ids[6], ids[7]]
        for limit in [1, 2, 7] {
            var walked: [String] = []
            var cursor: String?
            repeat {
                let page = try lists.page(limit: limit, cursor: cursor)
                walked += page.ids
                cursor = page.next
            } while cursor != nil
            #expect(walked == reference, "limit \(limit)")
        }
    }

    @Test(arguments: Kind.allCases)
    func aCursorStaysValidWhenItsItemIsDeleted(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 6)
        let first = try lists.page(limit: 2, cursor: nil)
        try lists.delete(ids[1])  // the last item of the first page
        let second = try lists.page(limit: 2, cursor: first.next)
        #expect(second.ids == [ids[2], ids[3]])
    }

    @Test(arguments: Kind.allCases)
    func aCursorResumesAfterItsItemEvenWhenTheListWasRenumbered(kind: Kind) throws {
        let (lists, ids) = try makeLists(kind, count: 12)
        var reference = ids
        // Six moves to the front pack the first rows into small positions (2^14 ... 2^19).
        for _ in 0..<6 {
            let id = reference.removeLast()
            _ = try lists.move(id, to: 0)
            reference.insert(id, at: 0)
        }
        #expect(try lists.ids() == reference)
        let first = try lists.page(limit: 3, cursor: nil)
        #expect(first.ids == Array(reference[0..<3]))
        let cursor = try #require(first.next)

        // Meanwhile the top two rows are swapped back and forth until the gap before them runs out and the
        // list is renumbered (at most ~20 swaps); nothing from index 2 on moves.
        for _ in 0..<40 {
            let id = reference.remove(at: 1)
            _ = try lists.move(id, to: 0)
            reference.insert(id, at: 0)
        }
        #expect(try lists.ids() == reference)

        let second = try lists.page(limit: 3, cursor: cursor)
        #expect(second.ids == Array(reference[3..<6]))
        #expect(Set(second.ids).isDisjoint(with: first.ids))
    }

    @Test(arguments: Kind.allCases, [
        "garbage", "", "!!!!", "aGVsbG8=", "a", "~", "%7E",
        Support.base64URL("hello"), Support.base64URL("abc~note_1"), Support.base64URL("12~"),
        Support.base64URL("~note_1"), Support.base64URL("1.5~note_1"), Support.base64URL("99999999999999999999~note_1"),
        Support.base64URL("{\"position\":1}"),
    ])
    func invalidCursorIsInvalidArgumentCursor(kind: Kind, cursor: String) throws {
        let (lists, _) = try makeLists(kind, count: 3)
        let error = #expect(throws: DomainError.self) { try lists.page(limit: 2, cursor: cursor) }
        guard case .invalidArgument(let field, _) = error else {
            Issue.record("expected invalidArgument(field: cursor), got \(String(describing: error))")
            return
        }
        #expect(field == "cursor")
    }

    @Test func aCursorMadeByTheListIsAccepted() throws {
        let store = try Support.openStore()
        for index in 0..<3 { _ = try store.notes.create(NoteDraft(title: "n\(index)")) }
        let page = try store.notes.list(PageRequest(limit: 1))
        let cursor = try #require(page.nextCursor)
        #expect(!cursor.contains("="))
        #expect(cursor.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(try store.notes.list(PageRequest(limit: 1, cursor: cursor)).items.count == 1)
    }
}
