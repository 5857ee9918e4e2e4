import Testing

@testable import Domain

/// Edits that meet merge, in-process: devices (stores) exchange rows through a shared log kept in memory in
/// PostgreSQL's order, as `satchel.push` and `satchel.pull` would. Edits of different words, lines or
/// paragraphs made apart end in one text on every device, without a copy; only edits of the same words keep
/// a copy, named by where and when it was written; every device works out the same.
@Suite struct SyncMergeTests {
    /// The shared log, in memory: each row pushed gets the next position; a row pushed again adds nothing.
    final class Log {
        private(set) var rows: [PulledRow] = []
        private var placed: Int64 = 0

        /// A round of one device: pushes what it has, then pulls and applies everything after its cursor.
        @discardableResult
        func round(_ device: DataStore) throws -> PullSummary {
            try push(device)
            return try pull(device)
        }

        func push(_ device: DataStore) throws {
            let id = try device.sync.deviceID()
            let (pushed, through, _) = try device.sync.pushBatch(limit: 1000)
            for row in pushed where !rows.contains(where: { $0.device == id && $0.deviceSeq == row.deviceSeq }) {
                placed += 1
                rows.append(
                    PulledRow(
                        seq: placed, device: id, account: "alice", own: false, deviceSeq: row.deviceSeq,
                        domain: row.domain, entity: row.entity, op: row.op, body: row.body, base: row.base,
                        fields: row.fields))
            }
            try device.sync.pushed(pushed, through: through)
        }

        /// Takes every row of `entity` before its last, as PostgreSQL does when a deletion wins.
        func deletionWon(_ entity: String) {
            let last = rows.last { $0.entity == entity }!.seq
            rows.removeAll { $0.entity == entity && $0.seq < last }
        }

        /// Changes the body of the last row, as a device that breaks the rules might have written it.
        func tamper(_ change: (String) -> String) {
            rows[rows.count - 1].body = rows[rows.count - 1].body.map(change)
        }

        func pull(_ device: DataStore) throws -> PullSummary {
            let id = try device.sync.deviceID()
            return try device.sync.apply(rows.map { row in
                var row = row
                row.own = row.device == id
                return row
            })
        }
    }

    static func devices(_ names: [String]) throws -> [DataStore] {
        try names.enumerated().map { index, name in
            let store = try DomainTestSupport.openStore()
            store.sync.account = "alice"
            try store.sync.setDeviceName(name)
            return store
        }
    }

    static func notes(_ device: DataStore) throws -> [String] {
        try device.notes.list(PageRequest(limit: 500)).items.map { "\($0.title)|\($0.content)" }.sorted()
    }

    static let paragraphs = """
        Milk, eggs and bread for the weekend.

        Call the plumber about the kitchen sink before Friday.

        Book the flights to Lisbon for the second week of March.
        """

    @Test func editsOfDifferentParagraphsLinesAndWordsMadeApartEndInOneTextWithoutACopy() throws {
        let log = Log()
        let devices = try Self.devices(["laptop", "desktop", "phone"])
        let note = try devices[0].notes.create(NoteDraft(title: "Plans for the week", content: Self.paragraphs))
        for device in devices { try log.round(device) }
        #expect(try devices.map { try Self.notes($0) }.allSatisfy { $0 == (try Self.notes(devices[0])) })
        // Apart (none of them syncs), each edits its own part of the note: a paragraph, a line, a word.
        let edits = [
            ("Milk, eggs and bread for the weekend.", "Milk, eggs, butter and rye bread for the weekend."),
            ("before Friday", "before Thursday noon"),
            ("Lisbon", "Porto"),
        ]
        for (device, (old, new)) in zip(devices, edits) {
            let held = try device.notes.get(id: note.id)
            _ = try device.notes.update(id: note.id, NoteChanges(content: held.content.replacing(old, with: new)))
        }
        _ = try devices[2].notes.update(id: note.id, NoteChanges(title: "Plans for next week"))
        // Back, one after another; then once more, so each has the others' rows.
        var copies: [String] = []
        for _ in 0..<2 { for device in devices { copies += try log.round(device).copies } }
        var expected = Self.paragraphs
        for (old, new) in edits { expected = expected.replacing(old, with: new) }
        for device in devices {
            #expect(try Self.notes(device) == ["Plans for next week|" + expected])
        }
        #expect(copies.isEmpty)
    }

    @Test func theSameWordChangedOnThreeDevicesKeepsEveryVersionUnderTitlesThatTellThemApart() throws {
        let log = Log()
        let devices = try Self.devices(["laptop", "desktop", "phone"])
        let note = try devices[0].notes.create(NoteDraft(title: "Meet at 10"))
        for device in devices { try log.round(device) }
        for (device, hour) in zip(devices, ["11", "12", "9"]) {
            _ = try device.notes.update(id: note.id, NoteChanges(title: "Meet at " + hour))
        }
        for _ in 0..<2 { for device in devices { try log.round(device) } }
        // The last in the log stays in place; the two it overwrote are kept, each saying where it was written.
        let expected = ["Meet at 11 — laptop, 21 May 09:20|", "Meet at 12 — desktop, 21 May 09:20 (2)|", "Meet at 9|"]
        for device in devices { #expect(try Self.notes(device) == expected) }
    }

    @Test func aChangePulledWhileAnEditWaitsHereIsMergedWithIt() throws {
        let log = Log()
        let devices = try Self.devices(["laptop", "desktop"])
        let note = try devices[0].notes.create(NoteDraft(title: "List", content: "eggs\nmilk\nbread"))
        for device in devices { try log.round(device) }
        // The laptop edits; before it pushes, it pulls the desktop's edit of another line.
        _ = try devices[0].notes.update(id: note.id, NoteChanges(content: "eggs\nmilk\nrye bread"))
        _ = try devices[1].notes.update(id: note.id, NoteChanges(content: "six eggs\nmilk\nbread"))
        try log.round(devices[1])
        try log.pull(devices[0])
        #expect(try devices[0].notes.get(id: note.id).content == "eggs\nmilk\nrye bread", "what was typed here stays")
        for _ in 0..<2 { for device in devices { try log.round(device) } }
        for device in devices { #expect(try Self.notes(device) == ["List|six eggs\nmilk\nrye bread"]) }
    }

    /// A winning deletion takes every earlier row of its entity from PostgreSQL, a device's own row among
    /// them though that device has not pulled it back yet: it must not wait for it for ever.
    @Test func aDeviceWhoseOwnRowWentWithAWinningDeletionFollowsTheLogAgain() throws {
        let log = Log()
        let devices = try Self.devices(["laptop", "desktop"])
        let note = try devices[0].notes.create(NoteDraft(title: "List", content: "eggs"))
        for device in devices { try log.round(device) }
        // The laptop pushes an edit and goes before it has pulled it back.
        _ = try devices[0].notes.update(id: note.id, NoteChanges(content: "eggs and milk"))
        try log.push(devices[0])
        // The desktop pulls the edit and deletes the note: the deletion saw every version, so it wins.
        try log.pull(devices[1])
        _ = try devices[1].notes.delete(id: note.id)
        try log.push(devices[1])
        log.deletionWon(note.id)
        try log.pull(devices[0])
        #expect(try Self.notes(devices[0]) == [], "the laptop follows the deletion")
        // The laptop follows the log from then on: a note the desktop makes again with the same words is
        // there, and nothing waits to go out.
        let again = try devices[1].notes.create(NoteDraft(title: "List", content: "eggs and milk"))
        try log.round(devices[1])
        try log.round(devices[0])
        #expect(try Self.notes(devices[0]) == ["List|eggs and milk"] && (try devices[0].notes.get(id: again.id)).id == again.id)
        #expect(try devices[0].sync.pending() == 0)
    }

    @Test func aReminderAndADiaryPostEditedApartMergeToo() throws {
        let log = Log()
        let devices = try Self.devices(["laptop", "phone"])
        let session = ReminderEditingSession(id: "s")
        let reminder = try devices[0].reminders.add(title: "Buy milk and bread", memo: "corner shop\nbefore six", session: session).reminder
        _ = try devices[0].reminders.endEditing(session: session)
        let post = try devices[0].diary.create(text: "A walk by the river.\nCold, but sunny.", images: [])
        for device in devices { try log.round(device) }
        _ = try devices[0].reminders.update(id: reminder.id, ReminderChanges(title: "Buy oat milk and bread"), session: session)
        _ = try devices[1].reminders.update(
            id: reminder.id, ReminderChanges(title: "Buy milk and rye bread", memo: "corner shop\nbefore seven"), session: session)
        _ = try devices[0].diary.update(id: post.id, text: "A long walk by the river.\nCold, but sunny.", images: nil)
        _ = try devices[1].diary.update(id: post.id, text: "A walk by the river.\nCold, but sunny. Tea after.", images: nil)
        for device in devices { _ = try device.reminders.endEditing(session: session) }
        for _ in 0..<2 { for device in devices { try log.round(device) } }
        for device in devices {
            let reminders = try ReminderTestSupport.all(device, session)
            #expect(reminders.map(\.title) == ["Buy oat milk and rye bread"])
            #expect(reminders.map(\.memo) == ["corner shop\nbefore seven"])
            #expect(try device.diary.get(id: post.id).text == "A long walk by the river.\nCold, but sunny. Tea after.")
            #expect(try device.diary.list(PageRequest(limit: 10)).items.count == 1)
        }
    }

    @Test func aDeviceIsNamedWithoutTheSpacesAtItsEndsAndNeverBlank() throws {
        let store = try DomainTestSupport.openStore()
        #expect(try !store.sync.deviceName().isEmpty, "the host's name until one is set")
        try store.sync.setDeviceName("  Anna's laptop \n")
        #expect(try store.sync.deviceName() == "Anna's laptop")
        #expect(throws: DomainError.validation(reason: .emptyName, field: "name")) { try store.sync.setDeviceName(" \u{3000} ") }
        #expect(throws: DomainError.validation(reason: .nameTooLong, field: "name", limit: 64)) {
            try store.sync.setDeviceName(String(repeating: "名", count: 65))
        }
        #expect(try store.sync.deviceName() == "Anna's laptop")
    }

    @Test func aBaseThatDoesNotFitItsTextIsNoBaseAndTheClashKeepsACopy() throws {
        let log = Log()
        let devices = try Self.devices(["laptop", "desktop"])
        let note = try devices[0].notes.create(NoteDraft(title: "List", content: "eggs\nmilk\nbread"))
        for device in devices { try log.round(device) }
        _ = try devices[0].notes.update(id: note.id, NoteChanges(content: "six eggs\nmilk\nbread"))
        _ = try devices[1].notes.update(id: note.id, NoteChanges(content: "eggs\nmilk\nrye bread"))
        try log.round(devices[0])
        try log.push(devices[1])
        // The desktop's row says its text was something that cannot be made of it, and names its device
        // with 500 characters.
        let row = try #require(log.rows.last)
        #expect(row.body?.contains(#""was":{"content":[["#) == true)
        log.tamper { body in
            body.replacing(#/"was":\{"content":\[\[\d+,/#, with: #""was":{"content":[[999999,"#)
                .replacing(#""by":"desktop""#, with: #""by":""# + String(repeating: "d", count: 500) + #"""#)
        }
        for _ in 0..<2 { for device in devices { try log.round(device) } }
        for device in devices {
            let notes = try Self.notes(device)
            #expect(notes.count == 2, "\(notes)")
            #expect(notes.contains("List|eggs\nmilk\nrye bread"))
            #expect(notes.contains("List — laptop, 21 May 09:20|six eggs\nmilk\nbread"))
        }
    }

    /// Three devices edit one note's words at random, going on and offline, pulling without pushing now and
    /// then: over many seeds, every device ends with the same notes, and no word put in appears twice in one.
    @Test(arguments: 0..<40)
    func threeDevicesEditingWordsAtRandomEndTheSame(seed: UInt64) throws {
        var random = DomainTestRandom(seed: seed)
        let log = Log()
        let devices = try Self.devices(["laptop", "desktop", "phone"])
        let lines = (0..<8).map { line in (0..<6).map { "w\(line * 6 + $0)" }.joined(separator: " ") }
        let note = try devices[0].notes.create(NoteDraft(title: "Words", content: lines.joined(separator: "\n")))
        for device in devices { try log.round(device) }
        var online = [true, true, true]
        var fresh = 0
        for _ in 0..<8 {
            let switching = Int.random(in: 0..<3, using: &random)
            online[switching].toggle()
            for (index, device) in devices.enumerated() {
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    guard var words = try? device.notes.get(id: note.id).content.split(separator: " ", omittingEmptySubsequences: false).map(String.init), !words.isEmpty else { continue }
                    let at = Int.random(in: 0..<words.count, using: &random)
                    fresh += 1
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: words[at] = "x\(fresh)"
                    case 1: words.insert("x\(fresh)", at: at)
                    default: if words.count > 1 { words.remove(at: at) }
                    }
                    _ = try device.notes.update(id: note.id, NoteChanges(content: words.joined(separator: " ")))
                }
                guard online[index] else { continue }
                if Int.random(in: 0..<4, using: &random) == 0 { try log.pull(device) } else { try log.round(device) }
            }
        }
        for _ in 0..<3 { for device in devices { try log.round(device) } }
        let states = try devices.map { try Self.notes($0) }
        #expect(states[1] == states[0], "seed \(seed)")
        #expect(states[2] == states[0], "seed \(seed)")
        for state in states[0] {
            let words = state.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "|" })
            for word in words where word.hasPrefix("x") {
                #expect(words.filter { $0 == word }.count == 1, "seed \(seed): \(word) twice")
            }
        }
    }
}
