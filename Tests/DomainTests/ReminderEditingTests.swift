import Foundation
import Testing

@testable import Domain

#if canImport(Glibc)
    import Glibc
#endif

/// Reminders' editing lifecycle (SPEC §8): the keyboard, Return, per-connection editing, the end of a
/// session however it happens (end of input, kill -9), process identity, and restarts.
@Suite struct ReminderEditingTests {
    typealias Support = DomainTestSupport
    typealias R = ReminderTestSupport

    // MARK: Keyboard dismissed (endEditing)

    @Test(arguments: ["", "   ", "\t\n", "\u{3000}", " \u{3000}\t\r\n"])
    func dismissingTheKeyboardWithAnEmptyTitleRemovesTheReminder(title: String) throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let kept = try R.addTitled(["Keep"], store, session)
        let reminder = try store.reminders.add(title: "typing", session: session).reminder
        _ = try store.reminders.update(id: reminder.id, ReminderChanges(title: title), session: session)
        let (ended, removedID) = try store.reminders.endEditing(session: session)
        #expect(ended == nil)
        #expect(removedID == reminder.id)
        #expect(session.editingID == nil)
        #expect(try R.ids(store, session) == kept)
        #expect(try R.events(store).last == "deleted \(reminder.id)")
    }

    @Test func dismissingTheKeyboardWithATitleKeepsTheReminderNoLongerEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: session).reminder
        let (ended, removedID) = try store.reminders.endEditing(session: session)
        let kept = try #require(ended)
        #expect(removedID == nil)
        #expect(kept.id == reminder.id)
        #expect(kept.title == "Milk")
        #expect(!kept.editing)
        #expect(session.editingID == nil)
        let listed = try store.reminders.list(PageRequest(), session: session)
        #expect(listed.page.items == [kept])
        #expect(listed.editingID == nil)
    }

    @Test func dismissingTheKeyboardWithNothingInEditingReturnsNothing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A"], store, session)
        let (ended, removedID) = try store.reminders.endEditing(session: session)
        #expect(ended == nil)
        #expect(removedID == nil)
        #expect(try R.ids(store, session) == ids)
    }

    // MARK: beginEditing

    @Test func beginningToEditAnotherReminderEndsTheCurrentSessionWithCleanup() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A"], store, session)
        let blank = try store.reminders.add(session: session).reminder
        let (reminder, removedIDs) = try store.reminders.beginEditing(id: ids[0], session: session)
        #expect(removedIDs == [blank.id])
        #expect(reminder.id == ids[0])
        #expect(reminder.editing)
        #expect(session.editingID == ids[0])
        let listed = try store.reminders.list(PageRequest(), session: session)
        #expect(listed.page.items.map(\.id) == ids)
        #expect(listed.page.items.map(\.editing) == [true])
        #expect(listed.editingID == ids[0])
    }

    @Test func beginningToEditAnotherReminderReleasesATitledOne() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B"], store, session)
        _ = try store.reminders.beginEditing(id: ids[0], session: session)
        let (reminder, removedIDs) = try store.reminders.beginEditing(id: ids[1], session: session)
        #expect(removedIDs.isEmpty)
        #expect(reminder.editing)
        #expect(try R.all(store, session).map(\.editing) == [false, true])
        #expect(try R.editingSessionColumn(of: ids[0], in: store) == nil)
    }

    @Test func beginningToEditTheReminderAlreadyEditedIsANoOp() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let blank = try store.reminders.add(session: session).reminder
        let eventsBefore = try R.events(store)
        let (reminder, removedIDs) = try store.reminders.beginEditing(id: blank.id, session: session)
        #expect(removedIDs.isEmpty)
        #expect(reminder == blank)
        #expect(session.editingID == blank.id)
        #expect(try store.reminders.list(PageRequest(), session: session).page.items == [blank])
        #expect(try R.events(store) == eventsBefore)
    }

    @Test func beginningToEditAnUnknownReminderIsNotFoundAndKeepsTheCurrentOne() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let blank = try store.reminders.add(session: session).reminder
        #expect(throws: DomainError.notFound(kind: "reminder", id: "rem_missing")) {
            try store.reminders.beginEditing(id: "rem_missing", session: session)
        }
        #expect(session.editingID == blank.id)
        #expect(try store.reminders.list(PageRequest(), session: session).page.items == [blank])
    }

    // MARK: Return (submit)

    @Test func returnWithATitleCreatesABlankReminderRightAfterItAndMovesEditingThere() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: session).reminder
        let (created, removedID) = try store.reminders.submit(id: reminder.id, session: session)
        let new = try #require(created)
        #expect(removedID == nil)
        #expect(new.title == "")
        #expect(new.editing && new.memoVisible)
        #expect(session.editingID == new.id)
        let items = try R.all(store, session)
        #expect(items.map(\.id) == [reminder.id, new.id])
        #expect(items.map(\.editing) == [false, true])
    }

    @Test func returnInTheMiddleOfTheListInsertsRightAfterTheSubmittedReminder() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A", "B", "C"], store, session)
        _ = try store.reminders.beginEditing(id: ids[1], session: session)
        let new = try #require(try store.reminders.submit(id: ids[1], session: session).created)
        #expect(try R.ids(store, session) == [ids[0], ids[1], new.id, ids[2]])
        #expect(try R.all(store, session).map(\.editing) == [false, false, true, false])
        // Return again on the new one, once it has a title: the next blank one goes right after it.
        _ = try store.reminders.update(id: new.id, ReminderChanges(title: "B2"), session: session)
        let next = try #require(try store.reminders.submit(id: new.id, session: session).created)
        #expect(try R.ids(store, session) == [ids[0], ids[1], new.id, next.id, ids[2]])
    }

    @Test func returnWithAnEmptyTitleRemovesTheReminderAndAddsNothing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let ids = try R.addTitled(["A"], store, session)
        let blank = try store.reminders.add(session: session).reminder
        let (created, removedID) = try store.reminders.submit(id: blank.id, session: session)
        #expect(created == nil)
        #expect(removedID == blank.id)
        #expect(session.editingID == nil)
        #expect(try R.ids(store, session) == ids)
        #expect(try store.reminders.count() == 1)
    }

    @Test func returnOnABlankReminderAnotherSessionEditsIsEmptyTitle() throws {
        let store = try Support.openStore()
        let editor = store.makeEditingSession()
        let other = store.makeEditingSession()
        let blank = try store.reminders.add(session: editor).reminder
        #expect(throws: DomainError.validation(reason: .emptyTitle, field: "title")) {
            try store.reminders.submit(id: blank.id, session: other)
        }
        #expect(try R.ids(store, editor) == [blank.id])
        #expect(editor.editingID == blank.id)
    }

    // MARK: Sessions (connections)

    @Test func editingIsPerSession() throws {
        let store = try Support.openStore()
        let a = store.makeEditingSession()
        let b = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: a).reminder
        let seenByB = try store.reminders.list(PageRequest(), session: b)
        #expect(seenByB.editingID == nil)
        #expect(seenByB.page.items.map(\.id) == [reminder.id])
        #expect(seenByB.page.items.map(\.editing) == [false])
        #expect(seenByB.page.items.map(\.memoVisible) == [false])
        let seenByA = try store.reminders.list(PageRequest(), session: a)
        #expect(seenByA.editingID == reminder.id)
        #expect(seenByA.page.items.map(\.editing) == [true])
        // B's own keyboard has nothing to dismiss, and leaves A's reminder alone.
        let (ended, removedID) = try store.reminders.endEditing(session: b)
        #expect(ended == nil && removedID == nil)
        #expect(try R.all(store, a).map(\.editing) == [true])
    }

    // `editingId` names only a reminder this connection still edits (fixed in b016424; it used to name the
    // deleted reminder).
    @Test func theListReportsNoEditingIDOnceAnotherSessionDeletedTheReminderBeingEdited() throws {
        let store = try Support.openStore()
        let a = store.makeEditingSession()
        let b = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: a).reminder
        try store.reminders.delete(id: reminder.id, session: b)
        let seenByA = try store.reminders.list(PageRequest(), session: a)
        #expect(seenByA.page.items.isEmpty)
        #expect(seenByA.editingID == nil)
    }

    // After a takeover, `editingId` agrees with the items' `editing` (fixed in b016424).
    @Test func theListsEditingIDAgreesWithTheItemShownAsEditingAfterATakeover() throws {
        let store = try Support.openStore()
        let a = store.makeEditingSession()
        let b = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: a).reminder
        _ = try store.reminders.beginEditing(id: reminder.id, session: b)
        let seenByA = try store.reminders.list(PageRequest(), session: a)
        #expect(seenByA.page.items.map(\.editing) == [false])
        #expect(seenByA.editingID == nil)
        #expect(try store.reminders.list(PageRequest(), session: b).editingID == reminder.id)
    }

    @Test func aBlankReminderAnotherLiveSessionEditsIsNotRemovedByListing() throws {
        let store = try Support.openStore()
        let a = store.makeEditingSession()
        let b = store.makeEditingSession()
        let blank = try store.reminders.add(session: a).reminder
        #expect(try R.ids(store, b) == [blank.id])
        #expect(try R.ids(store, a) == [blank.id])
        #expect(a.editingID == blank.id)
    }

    @Test func endingTheSessionRemovesABlankReminderInEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let other = store.makeEditingSession()
        let ids = try R.addTitled(["Keep"], store, session)
        let blank = try store.reminders.add(session: session).reminder
        try store.reminders.endSession(session)
        #expect(session.editingID == nil)
        #expect(!(try R.isStored(blank.id, in: store)))
        #expect(!(try R.hasSessionRow(session.id, in: store)))
        #expect(try R.ids(store, other) == ids)
    }

    @Test func endingTheSessionReleasesATitledReminderInEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: session).reminder
        try store.reminders.endSession(session)
        #expect(try R.isStored(reminder.id, in: store))
        #expect(try R.editingSessionColumn(of: reminder.id, in: store) == nil)
        #expect(!(try R.hasSessionRow(session.id, in: store)))
    }

    @Test func endingTheSessionForgetsItsRecordEvenWithNothingInEditing() throws {
        let store = try Support.openStore()
        let session = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: session).reminder
        try store.reminders.delete(id: reminder.id, session: session)  // editing ends, the record stays
        try store.reminders.endSession(session)
        #expect(!(try R.hasSessionRow(session.id, in: store)))
    }

    // MARK: Abandoned sessions (kill -9)

    @Test func aReminderWhoseTitleWasErasedByAKilledProcessIsRemovedOnList() throws {
        let store = try Support.openStore()
        let crashed = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: crashed).reminder
        _ = try store.reminders.update(id: reminder.id, ReminderChanges(title: " "), session: crashed)
        try R.recordSession(crashed.id, in: store)
        #expect(try R.ids(store, store.makeEditingSession()).isEmpty)
        #expect(!(try R.isStored(reminder.id, in: store)))
    }

    @Test func aReminderRetitledByAKilledProcessIsKept() throws {
        let store = try Support.openStore()
        let crashed = store.makeEditingSession()
        let reminder = try store.reminders.add(session: crashed).reminder
        _ = try store.reminders.update(id: reminder.id, ReminderChanges(title: "Milk"), session: crashed)
        try R.recordSession(crashed.id, in: store)
        #expect(try R.titles(store, store.makeEditingSession()) == ["Milk"])
    }

    @Test func aBlankReminderLeftByAKilledProcessIsRemovedWhenAnotherSessionLists() throws {
        let store = try Support.openStore()
        let crashed = store.makeEditingSession()
        let survivor = store.makeEditingSession()
        let ids = try R.addTitled(["Keep"], store, crashed)
        let blank = try store.reminders.add(session: crashed).reminder
        // The process owning `crashed` dies without ending anything: its row now names a dead process.
        try R.recordSession(crashed.id, in: store)
        #expect(try R.ids(store, survivor) == ids)
        #expect(!(try R.isStored(blank.id, in: store)))
        #expect(!(try R.hasSessionRow(crashed.id, in: store)))
        #expect(try R.events(store).last == "deleted \(blank.id)")
    }

    @Test func aBlankReminderHeldByADeadSessionRowIsRemovedOnList() throws {
        let store = try Support.openStore()
        let creator = store.makeEditingSession()
        let blank = try store.reminders.add(session: creator).reminder
        try R.recordSession("session_ghost", in: store, pid: R.deadPID, start: "1")
        try R.hold(blank.id, by: "session_ghost", in: store)
        let viewer = store.makeEditingSession()
        #expect(try store.reminders.list(PageRequest(), session: viewer).page.items.isEmpty)
        #expect(try R.events(store) == ["created \(blank.id)", "deleted \(blank.id)"])
    }

    @Test func aBlankReminderOfAKilledAndReapedChildProcessIsRemoved() throws {
        let store = try Support.openStore()
        let child = try R.spawn("/bin/sleep", ["30"])
        let start = try #require(R.startTime(of: child))
        kill(child, SIGKILL)
        R.reap(child)
        let blank = try store.reminders.add(session: store.makeEditingSession()).reminder
        try R.recordSession("session_child", in: store, pid: child, start: start)
        try R.hold(blank.id, by: "session_child", in: store)
        #expect(try R.ids(store, store.makeEditingSession()).isEmpty)
        #expect(!(try R.isStored(blank.id, in: store)))
    }

    @Test func aTitledReminderHeldByAKilledProcessIsKeptAndReleased() throws {
        let store = try Support.openStore()
        let crashed = store.makeEditingSession()
        let survivor = store.makeEditingSession()
        let reminder = try store.reminders.add(title: "Milk", session: crashed).reminder
        try R.recordSession(crashed.id, in: store)
        let items = try R.all(store, survivor)
        #expect(items.map(\.id) == [reminder.id])
        #expect(items.map(\.editing) == [false])
        #expect(try R.editingSessionColumn(of: reminder.id, in: store) == nil)
        #expect(!(try R.hasSessionRow(crashed.id, in: store)))
        #expect(try R.events(store) == ["created \(reminder.id)"])
    }

    @Test func aSessionOfTheCurrentProcessIsNotSwept() throws {
        let store = try Support.openStore()
        let blank = try store.reminders.add(session: store.makeEditingSession()).reminder
        let me = ProcessIdentity.current
        try R.recordSession("session_live", in: store, pid: me.pid, start: me.start)
        try R.hold(blank.id, by: "session_live", in: store)
        #expect(try R.ids(store, store.makeEditingSession()) == [blank.id])
        #expect(try R.editingSessionColumn(of: blank.id, in: store) == "session_live")
        #expect(try R.hasSessionRow("session_live", in: store))
    }

    @Test func aSessionNamingTheCurrentPidWithAnotherStartTimeIsSwept() throws {
        // The pid was reused: the process that wrote the row is gone even though the pid is alive.
        let store = try Support.openStore()
        let blank = try store.reminders.add(session: store.makeEditingSession()).reminder
        try R.recordSession("session_old", in: store, pid: getpid(), start: "1")
        try R.hold(blank.id, by: "session_old", in: store)
        #expect(try R.ids(store, store.makeEditingSession()).isEmpty)
    }

    // MARK: ProcessIdentity

    @Test func theCurrentProcessIsAlive() {
        let me = ProcessIdentity.current
        #expect(me.pid == getpid())
        #expect(!me.start.isEmpty)
        #expect(me.start == R.startTime(of: getpid()))
        #expect(me.isAlive)
    }

    @Test func aPidThatDoesNotExistIsNotAlive() {
        #expect(!ProcessIdentity(pid: R.deadPID, start: "1").isAlive)
        #expect(!ProcessIdentity(pid: R.deadPID, start: "").isAlive)
    }

    @Test func aRunningChildIsAliveAndOnceKilledAndReapedIsNot() throws {
        let child = try R.spawn("/bin/sleep", ["30"])
        let start = try #require(R.startTime(of: child))
        let identity = ProcessIdentity(pid: child, start: start)
        #expect(identity.isAlive)
        #expect(!ProcessIdentity(pid: child, start: start + "0").isAlive)  // same pid, another process
        kill(child, SIGKILL)
        R.reap(child)
        #expect(!identity.isAlive)
        #expect(!ProcessIdentity(pid: child, start: "").isAlive)
    }

    @Test func aReapedChildIsNotAlive() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let pid = process.processIdentifier
        process.waitUntilExit()
        #expect(!ProcessIdentity(pid: pid, start: "").isAlive)
        #expect(!ProcessIdentity(pid: pid, start: "1").isAlive)
    }

    @Test func aZombieIsNotAlive() throws {
        let child = try R.spawn("/bin/true")
        defer { R.reap(child) }
        try #require(R.waitUntil(child, isIn: "Z"), "the child never became a zombie")
        let start = try #require(R.startTime(of: child))
        #expect(!ProcessIdentity(pid: child, start: start).isAlive)
        #expect(!ProcessIdentity(pid: child, start: "").isAlive)
    }

    // MARK: Restarts

    @Test func remindersComeBackInTheSameOrderWithTheirCompletionAfterReopening() throws {
        try Support.withTemporaryDirectory { directory in
            let path = directory + "/satchel.sqlite"
            let clock = ManualClock(milliseconds: 1_700_000_000_000)
            let before: [Reminder]
            do {
                let store = try Support.openStore(path: path, clock: clock)
                let session = store.makeEditingSession()
                let ids = try R.addTitled(["A", "B", "C"], store, session)
                _ = try store.reminders.update(id: ids[1], ReminderChanges(memo: "memo"), session: session)
                _ = try store.reminders.move(id: ids[2], to: 0, session: session)
                clock.advance(by: 1_000)
                _ = try store.reminders.setCompleted(id: ids[0], true, session: session)
                try store.reminders.endSession(session)
                before = try R.all(store, store.makeEditingSession())
            }
            #expect(before.map(\.title) == ["C", "A", "B"])
            let store = try Support.openStore(path: path, clock: clock)
            let after = try R.all(store, store.makeEditingSession())
            #expect(after == before)
            #expect(after.map(\.completed) == [false, true, false])
            #expect(after[1].completedAt == 1_700_000_001_000)
            #expect(after[2].memo == "memo")
        }
    }

    @Test func aBlankReminderLeftByAKilledProcessIsGoneAfterReopening() throws {
        try Support.withTemporaryDirectory { directory in
            let path = directory + "/satchel.sqlite"
            let blankID: String
            let keptIDs: [String]
            do {
                let store = try Support.openStore(path: path)
                let session = store.makeEditingSession()
                keptIDs = try R.addTitled(["Keep"], store, session)
                blankID = try store.reminders.add(session: session).reminder.id
                // kill -9: no endSession, and the row names a process that no longer runs.
                try R.recordSession(session.id, in: store)
            }
            let store = try Support.openStore(path: path)
            #expect(try R.ids(store, store.makeEditingSession()) == keptIDs)
            #expect(!(try R.isStored(blankID, in: store)))
            #expect(try R.events(store).last == "deleted \(blankID)")
        }
    }
}
