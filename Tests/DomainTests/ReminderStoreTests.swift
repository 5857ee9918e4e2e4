import Foundation
import Testing

@testable import Domain

/// Reminders (SPEC §8): the list, tap-to-add, updates and their limits, the memo's visibility, completion,
/// swipe delete, moves and the change log. The editing lifecycle (keyboard, Return, sessions, abandoned
/// sessions, restarts) is in `ReminderEditingTests.swift`.
@Suite struct ReminderStoreTests {
    typealias Support = DomainTestSupport
    typealias R = ReminderTestSupport

    // MARK: List

    @Test func anEmptyListHasNoItemsNoCursorAndNothingInEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let result = try store.reminders.list(PageRequest(), session: session)
        #expect(result.page.items.isEmpty)
        #expect(result.page.nextCursor == nil)
        #expect(result.editingID == nil)
        #expect(try store.reminders.count() == 0)
    }

    @Test func listPagesThroughTheRemindersInTheUsersOrder() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C", "D", "E"], store, session)
        let first = try store.reminders.list(PageRequest(limit: 2), session: session).page
        #expect(first.items.map(\.id) == Array(ids[0..<2]))
        let cursor = try #require(first.nextCursor)
        let second = try store.reminders.list(PageRequest(limit: 2, cursor: cursor), session: session).page
        #expect(second.items.map(\.id) == Array(ids[2..<4]))
        let secondCursor: String = try #require(second.nextCursor)
        let third = try store.reminders.list(PageRequest(limit: 2, cursor: secondCursor), session: session).page
        #expect(third.items.map(\.id) == [ids[4]])
        #expect(third.nextCursor == nil)
        #expect(try R.ids(store, session) == ids)
    }

    // MARK: Add

    @Test func addingOnAnEmptyListCreatesABlankReminderInEditingWithItsMemoShown() throws {
        let clock = ManualClock(milliseconds: 1_700_000_000_000)
        let store = try Support.openStore(clock: clock)
        let session = store.makeEditingSession()
        let (reminder, removedIDs) = try store.reminders.add(session: session)
        #expect(reminder.title == "")
        #expect(reminder.memo == nil)
        #expect(reminder.editing)
        #expect(reminder.memoVisible)
        #expect(!reminder.completed)
        #expect(reminder.completedAt == nil)
        #expect(reminder.revision == 1)
        #expect(reminder.createdAt == 1_700_000_000_000)
        #expect(reminder.updatedAt == reminder.createdAt)
        #expect(removedIDs.isEmpty)
        #expect(session.editingID == reminder.id)
        let listed = try store.reminders.list(PageRequest(), session: session)
        #expect(listed.page.items == [reminder])
        #expect(listed.editingID == reminder.id)
    }

    @Test func addingBelowTheListAppendsAtTheEnd() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C"], store, session)
        let added = try store.reminders.add(session: session).reminder
        #expect(try R.ids(store, session) == ids + [added.id])
    }

    @Test func addingAfterAReminderInsertsRightAfterIt() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C"], store, session)
        _ = try store.reminders.add(title: "after A", after: ids[0], session: session)
        #expect(try R.titles(store, session) == ["A", "after A", "B", "C"])
        _ = try store.reminders.add(title: "after B", after: ids[1], session: session)
        #expect(try R.titles(store, session) == ["A", "after A", "B", "after B", "C"])
        _ = try store.reminders.add(title: "after C", after: ids[2], session: session)
        #expect(try R.titles(store, session) == ["A", "after A", "B", "after B", "C", "after C"])
    }

    @Test func addingAfterAnUnknownReminderIsNotFoundAndChangesNothing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let blank = try store.reminders.add(session: session).reminder
        #expect(throws: DomainError.notFound(kind: "reminder", id: "rem_missing")) {
            try store.reminders.add(title: "X", after: "rem_missing", session: session)
        }
        // The refused add did not end the editing session, so the blank reminder is still there.
        #expect(session.editingID == blank.id)
        #expect(try store.reminders.list(PageRequest(), session: session).page.items == [blank])
    }

    @Test func addingEndsThePreviousEditingSessionRemovingABlankReminder() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let first = try store.reminders.add(session: session).reminder
        let (second, removedIDs) = try store.reminders.add(session: session)
        #expect(removedIDs == [first.id])
        #expect(try R.ids(store, session) == [second.id])
        #expect(session.editingID == second.id)
    }

    @Test func addingEndsThePreviousEditingSessionKeepingATitledReminder() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let first = try store.reminders.add(session: session).reminder
        _ = try store.reminders.update(id: first.id, ReminderChanges(title: "Milk"), session: session)
        let (second, removedIDs) = try store.reminders.add(session: session)
        #expect(removedIDs.isEmpty)
        let items = try R.all(store, session)
        #expect(items.map(\.id) == [first.id, second.id])
        #expect(items[0].title == "Milk")
        #expect(!items[0].editing)
        #expect(items[1].editing)
        #expect(try R.editingSessionColumn(of: first.id, in: store) == nil)
    }

    @Test func addingAfterTheBlankReminderBeingEditedInsertsAtItsOldPlace() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B"], store, session)
        let blank = try store.reminders.add(after: ids[0], session: session).reminder
        #expect(try R.ids(store, session) == [ids[0], blank.id, ids[1]])
        let (added, removedIDs) = try store.reminders.add(title: "new", after: blank.id, session: session)
        #expect(removedIDs == [blank.id])
        #expect(try R.ids(store, session) == [ids[0], added.id, ids[1]])
    }

    @Test func addingWithATitleOver1000CharactersIsTitleTooLong() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        #expect(throws: DomainError.validation(reason: .titleTooLong, field: "title", limit: 1000)) {
            try store.reminders.add(title: Support.characters(1001), session: session)
        }
        #expect(try store.reminders.count() == 0)
        let exact = try store.reminders.add(title: Support.characters(1000), session: session).reminder
        #expect(exact.title.count == 1000)
    }

    // MARK: Update

    @Test func aBlankTitleIsAllowedForTheReminderThisSessionEdits() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: session).reminder
        let updated = try store.reminders.update(id: reminder.id, ReminderChanges(title: ""), session: session)
        #expect(updated.title == "")
        #expect(updated.revision == 2)
        #expect(try store.reminders.get(id: reminder.id, session: session).title == "")
        let spaces = try store.reminders.update(id: reminder.id, ReminderChanges(title: "  "), session: session)
        #expect(spaces.title == "  ")
    }

    @Test(arguments: ["", "   ", "\t\n", "\u{3000}"])
    func aBlankTitleForAReminderNotInEditingIsEmptyTitleAndChangesNothing(title: String) throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        let before = try store.reminders.get(id: id, session: session)
        #expect(throws: DomainError.validation(reason: .emptyTitle, field: "title")) {
            try store.reminders.update(id: id, ReminderChanges(title: title), session: session)
        }
        #expect(try store.reminders.get(id: id, session: session) == before)
    }

    @Test func aBlankTitleForAReminderAnotherSessionEditsIsEmptyTitle() throws {
        let store = try Support.openStore()
        let editor = store.makeEditingSession()
        let other = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: editor).reminder
        #expect(throws: DomainError.validation(reason: .emptyTitle, field: "title")) {
            try store.reminders.update(id: reminder.id, ReminderChanges(title: ""), session: other)
        }
        let stored = try store.reminders.get(id: reminder.id, session: editor)
        #expect(stored.title == "Milk")
        #expect(stored.revision == 1)
    }

    @Test func updateWithAStaleRevisionIsARevisionConflict() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        let first = try store.reminders.update(id: id, ReminderChanges(title: "Eggs"), ifRevision: 1, session: session)
        #expect(first.revision == 2)
        #expect(throws: DomainError.revisionConflict(current: 2)) {
            try store.reminders.update(id: id, ReminderChanges(title: "Bread"), ifRevision: 1, session: session)
        }
        #expect(try store.reminders.get(id: id, session: session).title == "Eggs")
    }

    @Test func updateSetsClearsAndKeepsTheMemo() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        let set = try store.reminders.update(id: id, ReminderChanges(memo: "2 litres"), session: session)
        #expect(set.memo == "2 litres")
        let kept = try store.reminders.update(id: id, ReminderChanges(title: "Oat milk"), session: session)
        #expect(kept.memo == "2 litres")
        #expect(try store.reminders.get(id: id, session: session).memo == "2 litres")
        let cleared = try store.reminders.update(id: id, ReminderChanges(memo: .some(nil)), session: session)
        #expect(cleared.memo == nil)
        #expect(try store.reminders.get(id: id, session: session).memo == nil)
        #expect(try store.reminders.get(id: id, session: session).title == "Oat milk")
    }

    @Test func updateWithATitleOver1000CharactersIsTitleTooLong() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        #expect(throws: DomainError.validation(reason: .titleTooLong, field: "title", limit: 1000)) {
            try store.reminders.update(id: id, ReminderChanges(title: Support.characters(1001)), session: session)
        }
        #expect(try store.reminders.get(id: id, session: session).title == "Milk")
        let exact = try store.reminders.update(id: id, ReminderChanges(title: Support.characters(1000)), session: session)
        #expect(exact.title.count == 1000)
    }

    @Test func updateWithAMemoOver100000CharactersIsMemoTooLong() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        #expect(throws: DomainError.validation(reason: .memoTooLong, field: "memo", limit: 100_000)) {
            try store.reminders.update(id: id, ReminderChanges(memo: Support.characters(100_001)), session: session)
        }
        #expect(try store.reminders.get(id: id, session: session).memo == nil)
        // Exactly the limit, in characters of two scalars and three bytes each (within four bytes a character).
        let longest = String(repeating: Support.combiningE, count: 100_000)
        let exact = try store.reminders.update(id: id, ReminderChanges(memo: longest), session: session)
        #expect(exact.memo?.count == 100_000)
    }

    @Test func updatingAnUnknownReminderIsNotFound() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        #expect(throws: DomainError.notFound(kind: "reminder", id: "rem_missing")) {
            try store.reminders.update(id: "rem_missing", ReminderChanges(title: "X"), session: session)
        }
    }

    // MARK: Memo visibility

    @Test func aNonEmptyMemoIsShownWhateverTheEditingState() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let other = store.makeEditingSession()
        let added = try store.reminders.add(title: "Milk", memo: "2 litres", session: session).reminder
        #expect(added.editing && added.memoVisible)
        #expect(try R.all(store, other).map(\.memoVisible) == [true])  // not editing for `other`
        let ended = try #require(try store.reminders.endEditing(session: session).reminder)
        #expect(!ended.editing && ended.memoVisible)
        #expect(try R.all(store, session).map(\.memoVisible) == [true])
    }

    @Test func aNilOrEmptyMemoIsHiddenWhenNotEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        _ = try store.reminders.add(title: "No memo", memo: nil, session: session)
        _ = try store.reminders.add(title: "Empty memo", memo: "", session: session)
        _ = try store.reminders.endEditing(session: session)
        let items = try R.all(store, session)
        #expect(items.map(\.editing) == [false, false])
        #expect(items.map(\.memoVisible) == [false, false])
    }

    @Test func theMemoIsShownWhileEditingEvenWhenNilOrEmpty() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["No memo"], store, session)
        let empty = try store.reminders.add(title: "Empty memo", memo: "", session: session).reminder
        #expect(empty.editing && empty.memoVisible)
        let begun = try store.reminders.beginEditing(id: ids[0], session: session).reminder
        #expect(begun.memo == nil)
        #expect(begun.editing && begun.memoVisible)
        #expect(try R.all(store, session).map(\.memoVisible) == [true, false])
    }

    // MARK: Completion

    @Test func completingStampsTheClockTimeAndBumpsTheRevision() throws {
        let clock = ManualClock(milliseconds: 1_700_000_000_000)
        let store = try Support.openStore(clock: clock)
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        clock.advance(by: 5_000)
        let done = try store.reminders.setCompleted(id: id, true, session: session)
        #expect(done.completed)
        #expect(done.completedAt == 1_700_000_005_000)
        #expect(done.updatedAt == 1_700_000_005_000)
        #expect(done.revision == 2)
        #expect(try store.reminders.get(id: id, session: session) == done)
    }

    @Test func uncompletingClearsTheCompletionTime() throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        _ = try store.reminders.setCompleted(id: id, true, session: session)
        clock.advance(by: 1_000)
        let undone = try store.reminders.setCompleted(id: id, false, session: session)
        #expect(!undone.completed)
        #expect(undone.completedAt == nil)
        #expect(undone.revision == 3)
        #expect(try store.reminders.get(id: id, session: session) == undone)
    }

    @Test func settingTheSameCompletionAgainChangesNothing() throws {
        let clock = ManualClock()
        let store = try Support.openStore(clock: clock)
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        let open = try store.reminders.setCompleted(id: id, false, session: session)
        #expect(open.revision == 1)
        let done = try store.reminders.setCompleted(id: id, true, session: session)
        clock.advance(by: 1_000)
        let again = try store.reminders.setCompleted(id: id, true, session: session)
        #expect(again == done)
        #expect(try store.reminders.get(id: id, session: session) == done)
    }

    @Test func toggleFlipsTheCompletion() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let id = try R.addTitled(["Milk"], store, session)[0]
        let on = try store.reminders.setCompleted(id: id, nil, session: session)
        #expect(on.completed && on.completedAt != nil)
        let off = try store.reminders.setCompleted(id: id, nil, session: session)
        #expect(!off.completed && off.completedAt == nil)
        #expect(off.revision == 3)
    }

    @Test func completingAnUnknownReminderIsNotFound() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        #expect(throws: DomainError.notFound(kind: "reminder", id: "rem_missing")) {
            try store.reminders.setCompleted(id: "rem_missing", nil, session: session)
        }
    }

    // MARK: Delete (swipe)

    @Test func swipingDeletesTheReminder() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C"], store, session)
        try store.reminders.delete(id: ids[1], session: session)
        #expect(try R.ids(store, session) == [ids[0], ids[2]])
    }

    @Test func deletingTheReminderBeingEditedEndsEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: session).reminder
        try store.reminders.delete(id: reminder.id, session: session)
        #expect(session.editingID == nil)
        let listed = try store.reminders.list(PageRequest(), session: session)
        #expect(listed.page.items.isEmpty)
        #expect(listed.editingID == nil)
    }

    @Test func deletingAnUnknownReminderIsNotFound() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        try R.addTitled(["A"], store, session)
        #expect(throws: DomainError.notFound(kind: "reminder", id: "rem_missing")) {
            try store.reminders.delete(id: "rem_missing", session: session)
        }
        #expect(try store.reminders.count() == 1)
    }

    // MARK: Move

    @Test func movingToTheFirstPlace() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C", "D"], store, session)
        _ = try store.reminders.move(id: ids[2], to: 0, session: session)
        #expect(try R.titles(store, session) == ["C", "A", "B", "D"])
    }

    @Test func movingToTheLastPlace() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C", "D"], store, session)
        _ = try store.reminders.move(id: ids[0], to: 3, session: session)
        #expect(try R.titles(store, session) == ["B", "C", "D", "A"])
    }

    @Test func movingToTheMiddle() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C", "D", "E"], store, session)
        let moved = try store.reminders.move(id: ids[0], to: 2, session: session)
        #expect(try R.titles(store, session) == ["B", "C", "A", "D", "E"])
        #expect(moved.revision == 2)
        _ = try store.reminders.move(id: ids[4], to: 1, session: session)
        #expect(try R.titles(store, session) == ["B", "E", "C", "A", "D"])
    }

    @Test(arguments: [-1, 3, 100])
    func movingOutOfRangeIsIndexOutOfRange(index: Int) throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C"], store, session)
        #expect(throws: DomainError.validation(reason: .indexOutOfRange, field: "toIndex", limit: 2)) {
            try store.reminders.move(id: ids[0], to: index, session: session)
        }
        #expect(try R.ids(store, session) == ids)
    }

    // MARK: Change log

    @Test func theChangeLogRecordsCreatedUpdatedDeletedAndMoved() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let a = try store.reminders.add(title: "A", session: session).reminder
        _ = try store.reminders.update(id: a.id, ReminderChanges(title: "A2"), session: session)
        let blank = try store.reminders.add(session: session).reminder  // ends A's editing: no event
        _ = try store.reminders.endEditing(session: session)  // cleanup removes the blank one
        let b = try store.reminders.add(title: "B", session: session).reminder
        _ = try store.reminders.move(id: b.id, to: 0, session: session)
        #expect(
            try R.events(store) == [
                "created \(a.id)", "updated \(a.id)", "created \(blank.id)", "deleted \(blank.id)",
                "created \(b.id)", "moved \(b.id)",
            ])
    }
}
