import Foundation
import Protocol
import Testing

/// Edits that meet merge, between satchel processes syncing through a real PostgreSQL: three devices edit
/// the same note, diary post and reminder while PostgreSQL is away; once it is back every device holds one
/// text with every edit, and no copy. Only a real clash keeps a copy, under a title that says where and
/// when its version was written.
@Suite(.serialized) struct SyncMergeEndToEndTests {
    typealias Device = SyncNotesTests.Device

    static let plan = """
        Milk, eggs and bread for the weekend.

        Call the plumber about the kitchen sink before Friday.

        Book the flights to Lisbon for the second week of March.
        """

    /// Three devices of one account, everything made on the first pulled by the others.
    static func devices(_ database: TestDatabase, _ folder: String) throws -> [Device] {
        try ["laptop", "desktop", "phone"].map { try Device($0, database, folder: folder) }
    }

    /// Takes every device away from PostgreSQL (syncing still, to a server that is not there).
    static func goOffline(_ devices: [Device]) throws {
        for device in devices {
            device.waitPushed()
            try device.restart(syncing: true, unreachable: true)
        }
    }

    static func field(_ device: Device, _ method: String, _ id: JSONValue, _ name: String) -> String {
        device.call(method, ["id": id])?["result"]?[name]?.stringValue ?? ""
    }

    @Test func threeDevicesEditingDifferentPartsWhileApartEndWithOneTextHoldingEveryEdit() throws {
        let database = try SyncNotesTests.shared(["alice"])
        let folder = try SyncNotesTests.folder()
        let devices = try Self.devices(database, folder)
        let laptop = devices[0]
        let note = laptop.call("notes.create", ["title": "Plans for the week", "content": .string(Self.plan)])?["result"]?["id"] ?? .null
        let post = laptop.call("diary.create", ["text": "A walk by the river.\nCold, but sunny.\nHome by four."])?["result"]?["id"] ?? .null
        let reminder = SyncAppsTests.remind(laptop, "Buy milk and bread")
        _ = laptop.call("reminders.update", ["id": reminder, "memo": "corner shop\nbefore six"])
        _ = laptop.call("reminders.endEditing")
        for device in devices {
            #expect(SyncAppsTests.wait(device, for: "Buy milk and bread") { Self.field($0, "reminders.get", reminder, "title") } == "Buy milk and bread")
            #expect(SyncAppsTests.wait(device, for: 1) { SyncAppsTests.items($0, "diary.list").count } == 1)
        }
        try Self.goOffline(devices)

        // Apart, each edits its own paragraph, line or word of each.
        let noteEdits = [
            ("Milk, eggs and bread", "Milk, eggs, butter and rye bread"), ("before Friday", "before Thursday noon"),
            ("Lisbon", "Porto"),
        ]
        let postEdits = [("A walk", "A long walk"), ("Cold, but sunny.", "Cold, but sunny and still."), ("four", "five")]
        for (index, device) in devices.enumerated() {
            let content = Self.field(device, "notes.get", note, "content").replacing(noteEdits[index].0, with: noteEdits[index].1)
            #expect(device.call("notes.update", ["id": note, "content": .string(content)])?["result"] != nil)
            let text = Self.field(device, "diary.get", post, "text").replacing(postEdits[index].0, with: postEdits[index].1)
            #expect(device.call("diary.update", ["id": post, "text": .string(text)])?["result"] != nil)
        }
        _ = devices[0].call("reminders.update", ["id": reminder, "title": "Buy oat milk and bread"])
        _ = devices[1].call("reminders.update", ["id": reminder, "title": "Buy milk and rye bread"])
        _ = devices[2].call("reminders.update", ["id": reminder, "memo": "corner shop\nbefore seven"])
        for device in devices { _ = device.call("reminders.endEditing") }

        // PostgreSQL is back.
        var expectedContent = Self.plan
        for (old, new) in noteEdits { expectedContent = expectedContent.replacing(old, with: new) }
        var expectedText = "A walk by the river.\nCold, but sunny.\nHome by four."
        for (old, new) in postEdits { expectedText = expectedText.replacing(old, with: new) }
        let read = { (device: Device) -> [String] in
            SyncAppsTests.items(device, "notes.list").map { "\($0["title"]?.stringValue ?? "")|\($0["content"]?.stringValue ?? "")" }
                + SyncAppsTests.items(device, "diary.list").map { Self.field(device, "diary.get", $0["id"] ?? .null, "text") }
                + SyncAppsTests.items(device, "reminders.list").map {
                    "\($0["title"]?.stringValue ?? "")|\(Self.field(device, "reminders.get", $0["id"] ?? .null, "memo"))"
                }
        }
        let states = try SyncNotesTests.settle(devices, online: [false, false, false], read)
        let expected = [
            "Plans for the week|" + expectedContent, expectedText, "Buy oat milk and rye bread|corner shop\nbefore seven",
        ]
        for (index, state) in states.enumerated() { #expect(state == expected, "device \(index)") }
        // No copy: each app holds one item, on every device.
        for device in devices { #expect(device.call("sync.status")?["result"]?["pending"] == 0) }
    }

    @Test func aClashAmongThreeDevicesKeepsEveryVersionUnderTitlesThatTellThemApart() throws {
        let database = try SyncNotesTests.shared(["alice"])
        let folder = try SyncNotesTests.folder()
        let devices = try Self.devices(database, folder)
        let note = devices[0].call("notes.create", ["title": "Meet at 10", "content": "lobby"])?["result"]?["id"] ?? .null
        for device in devices { #expect(device.waitForTitles(["Meet at 10"]) == ["Meet at 10"]) }
        try Self.goOffline(devices)
        for (device, hour) in zip(devices, ["11", "12", "9"]) {
            _ = device.call("notes.update", ["id": note, "title": .string("Meet at " + hour)])
        }
        let states = try SyncNotesTests.settle(devices, online: [false, false, false]) { SyncNotesTests.timeless($0.titles()) }
        // One stays in place (the last to reach PostgreSQL); the two it overwrote are kept, each titled by
        // the device that wrote it and when; every title differs; every device holds the same three.
        for state in states {
            #expect(state == states[0])
            #expect(state.count == 3 && Set(state).count == 3, "\(state)")
            #expect(state.filter { $0.contains(" — ") }.count == 2, "\(state)")
        }
        let inPlace = devices[0].call("notes.get", ["id": note])?["result"]?["title"]?.stringValue ?? ""
        #expect(!inPlace.contains(" — "))
        for hour in ["11", "12", "9"] {
            #expect(states[0].contains { $0.hasPrefix("Meet at \(hour)") }, "the version with \(hour) is kept")
        }
        let device = ["11": "laptop", "12": "desktop", "9": "phone"]
        for title in states[0] where title.contains(" — ") {
            let hour = String(title.dropFirst("Meet at ".count).prefix { $0.isNumber })
            #expect(title.hasPrefix("Meet at \(hour) — \(device[hour]!), TIME"), "\(title)")
        }
    }
}
