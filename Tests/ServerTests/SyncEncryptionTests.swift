import Foundation
import Protocol
import Sync
import Testing

/// End-to-end encryption of a person's private apps, between satchel processes and a real PostgreSQL: the
/// devices with the passphrase converge as before, and a superuser holding the whole database learns
/// nothing of what the notes, photos, diary and reminders say.
@Suite(.serialized) struct SyncEncryptionTests {
    typealias Device = SyncNotesTests.Device

    static let passphrase = "correct horse battery staple"

    /// The whole database as its superuser's `pg_dump` writes it.
    static func dump(_ database: TestDatabase) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PostgresCluster.binaries + "/pg_dump")
        process.arguments = ["--dbname", database.cluster.uri("postgres", database.name)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: bytes, as: UTF8.self)
    }

    static func unlock(_ device: Device, _ passphrase: String = passphrase) -> JSONValue? {
        device.call("sync.unlock", ["passphrase": .string(passphrase)])
    }

    @Test func twoDevicesWithThePassphraseConvergeAndASuperusersDumpHoldsNoneOfThePrivateApps() throws {
        let database = try SyncNotesTests.shared(["alice", "bob"])
        let folder = try SyncNotesTests.folder()
        let laptop = try Device("laptop", database, folder: folder)
        #expect(SyncAppsTests.wait(laptop, for: "off") { $0.call("sync.status")?["result"]?["encryption"]?.stringValue ?? "" } == "off")
        #expect(Self.unlock(laptop, "short")?["error"]?["data"] == ["reason": "passphraseTooShort", "field": "passphrase", "limit": 8])
        #expect(laptop.call("sync.status")?["result"]?["encryption"] == "off")
        // The first device with a passphrase turns the account's encryption on.
        #expect(Self.unlock(laptop)?["result"] == ["encryption": "on"])
        #expect(laptop.call("sync.status")?["result"]?["encryption"] == "on")
        // A wrong passphrase on a device already unlocked is refused, and the device stays unlocked.
        #expect(Self.unlock(laptop, "not the passphrase")?["error"]?["data"]?["reason"] == "wrongPassphrase")
        #expect(laptop.call("sync.status")?["result"]?["encryption"] == "on")
        #expect(laptop.call("sync.status")?["result"]?["state"] != "error")
        let beach = try SyncAppsTests.photo(folder, "beach", red: 200)
        _ = laptop.call("notes.create", ["title": "MARKER-TITLE", "content": "MARKER-CONTENT"])
        _ = laptop.call("photos.add", ["image": ["path": .string(beach)], "caption": "MARKER-CAPTION"])
        _ = laptop.call("diary.create", ["text": "MARKER-DIARY"])
        _ = SyncAppsTests.remind(laptop, "MARKER-REMINDER")
        _ = laptop.call("board.create", ["title": "Picnic on Sunday?"])
        laptop.waitPushed()

        // A second device of the account is locked until it is given the passphrase; then it has it all.
        let desktop = try Device("desktop", database, folder: folder)
        #expect(SyncAppsTests.wait(desktop, for: "locked") { $0.call("sync.status")?["result"]?["state"]?.stringValue ?? "" } == "locked")
        #expect(desktop.titles() == [])
        #expect(Self.unlock(desktop, "not the passphrase")?["error"]?["data"]?["reason"] == "wrongPassphrase")
        #expect(desktop.call("sync.status")?["result"]?["encryption"] == "locked")
        #expect(Self.unlock(desktop)?["result"] == ["encryption": "on"])
        #expect(desktop.waitForTitles(["MARKER-TITLE"]) == ["MARKER-TITLE"])
        #expect(SyncAppsTests.wait(desktop, for: 1) { SyncAppsTests.items($0, "photos.list").count } == 1)
        #expect(SyncAppsTests.items(desktop, "photos.list").first?["caption"] == "MARKER-CAPTION")
        #expect(SyncAppsTests.wait(desktop, for: ["MARKER-REMINDER"], SyncAppsTests.reminders) == ["MARKER-REMINDER"])
        #expect(SyncAppsTests.items(desktop, "diary.list").first?["excerpt"] == "MARKER-DIARY")
        // And back the other way, merged as before.
        let note = try #require(SyncAppsTests.items(desktop, "notes.list").first?["id"])
        _ = desktop.call("notes.update", ["id": note, "content": "MARKER-CONTENT and MARKER-EDIT"])
        #expect(SyncAppsTests.wait(laptop, for: "MARKER-CONTENT and MARKER-EDIT") {
            $0.call("notes.get", ["id": note])?["result"]?["content"]?.stringValue ?? ""
        } == "MARKER-CONTENT and MARKER-EDIT")

        // Another account still shares the Board.
        let bob = try Device("bob", database, as: "bob", folder: folder)
        #expect(SyncAppsTests.wait(bob, for: 1) { SyncAppsTests.items($0, "board.list").count } == 1)
        #expect(bob.call("sync.status")?["result"]?["encryption"] == "off")

        laptop.waitPushed()
        desktop.waitPushed()
        let dump = try Self.dump(database)
        #expect(dump.contains("Picnic on Sunday?"), "the shared Board stays readable")
        for marker in ["MARKER-TITLE", "MARKER-CONTENT", "MARKER-CAPTION", "MARKER-DIARY", "MARKER-REMINDER", "MARKER-EDIT"] {
            #expect(!dump.contains(marker), "\(marker) is in the dump")
        }
        // Photo bytes as COPY writes a bytea (`\\x…`, its backslash doubled): a JPEG's would start ffd8ff.
        #expect(dump.contains("COPY satchel.images"))
        #expect(!dump.contains("\\\\xffd8ff"), "a JPEG's bytes are in the dump")
    }

    @Test func aChangedOrMovedCiphertextIsRefusedAndANewPassphraseUnlocksANewDevice() throws {
        let database = try SyncNotesTests.shared(["alice"])
        let folder = try SyncNotesTests.folder()
        let laptop = try Device("laptop", database, folder: folder)
        #expect(Self.unlock(laptop)?["result"] == ["encryption": "on"])
        for title in ["Flipped", "Kept", "Moved onto"] { _ = laptop.call("notes.create", ["title": .string(title)]) }
        laptop.waitPushed()
        // Whoever holds the database changes a byte of one ciphertext and moves another onto a third note.
        let superuser = try PGConnection(database.cluster.uri("postgres", database.name))
        let rows = try superuser.execute("SELECT seq, body ->> 'sealed' FROM satchel.changes WHERE domain = 'notes' ORDER BY seq")
        #expect(rows.count == 3)
        let sealed = rows.map { $0[1] ?? "" }
        #expect(sealed.allSatisfy { !$0.isEmpty })
        let flipped = (sealed[0].first == "A" ? "B" : "A") + sealed[0].dropFirst()
        try superuser.execute(
            "UPDATE satchel.changes SET body = jsonb_set(body, '{sealed}', to_jsonb($1::text)) WHERE seq = $2::bigint",
            [flipped, rows[0][0]])
        try superuser.execute(
            "UPDATE satchel.changes SET body = jsonb_set(body, '{sealed}', to_jsonb($1::text)) WHERE seq = $2::bigint",
            [sealed[1], rows[2][0]])

        // A new passphrase: the key is wrapped anew; the old passphrase no longer unlocks a new device.
        let changed = laptop.call("sync.changePassphrase", ["passphrase": .string(Self.passphrase), "newPassphrase": "a new and longer one"])
        #expect(changed?["result"] == ["changed": true])
        #expect(
            laptop.call("sync.changePassphrase", ["passphrase": "wrong", "newPassphrase": "another new one"])?["error"]?["data"]?["reason"]
                == "wrongPassphrase")
        let tablet = try Device("tablet", database, folder: folder)
        #expect(Self.unlock(tablet)?["error"]?["data"]?["reason"] == "wrongPassphrase")
        #expect(Self.unlock(tablet, "a new and longer one")?["result"] == ["encryption": "on"])
        // What was changed or moved is refused, never shown; the rest arrives.
        #expect(tablet.waitForTitles(["Kept"]) == ["Kept"])
        let skipped = tablet.call("sync.status")?["result"]?["skipped"]?["recent"]?.arrayValue ?? []
        #expect(skipped.filter { $0["reason"]?.stringValue?.hasPrefix("tampered") == true }.count == 2, "\(skipped)")
        // The laptop, unlocked before the change, goes on.
        _ = laptop.call("notes.create", ["title": "After the change"])
        #expect(tablet.waitForTitles(["After the change", "Kept"]) == ["After the change", "Kept"])
    }

    @Test func whatALockedDeviceMakesWaitsAndGoesOnceItIsUnlocked() throws {
        let database = try SyncNotesTests.shared(["alice"])
        let folder = try SyncNotesTests.folder()
        let laptop = try Device("laptop", database, folder: folder)
        #expect(Self.unlock(laptop)?["result"] == ["encryption": "on"])
        // A device that was offline makes a note, then meets the encrypted account without its passphrase.
        let phone = try Device("phone", nil, folder: folder)
        _ = phone.call("notes.create", ["title": "Made offline"])
        phone.server = try SatchelProcess(["--db", phone.path, "--sync", database.uri("alice")])
        #expect(SyncAppsTests.wait(phone, for: "locked") { $0.call("sync.status")?["result"]?["state"]?.stringValue ?? "" } == "locked")
        _ = phone.call("notes.create", ["title": "Made while locked"])
        _ = phone.call("sync.now")
        #expect(phone.call("sync.status")?["result"]?["pending"] == 2, "held back, not lost")
        #expect(laptop.titles() == [])
        #expect(Self.unlock(phone)?["result"] == ["encryption": "on"])
        #expect(laptop.waitForTitles(["Made offline", "Made while locked"]) == ["Made offline", "Made while locked"])
        phone.waitPushed()
        #expect(phone.call("sync.status")?["result"]?["pending"] == 0)
        // And they went sealed.
        #expect(!(try Self.dump(database)).contains("Made offline"))
    }

    @Test func anAccountThatTurnsEncryptionOnLetsGoOfWhatPostgreSQLKeptInPlaintext() throws {
        let database = try SyncNotesTests.shared(["alice"])
        let folder = try SyncNotesTests.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        // A history in plaintext: versions of a note, a photo note, a diary post, a reminder.
        let note = try #require(laptop.call("notes.create", ["title": "PLAIN-TITLE", "content": "PLAIN-ONE"])?["result"]?["id"])
        _ = laptop.call("notes.update", ["id": note, "content": "PLAIN-ONE PLAIN-TWO"])
        let beach = try SyncAppsTests.photo(folder, "beach", red: 120)
        _ = laptop.call("photos.add", ["image": ["path": .string(beach)], "caption": "PLAIN-CAPTION"])
        _ = desktop.call("diary.create", ["text": "PLAIN-DIARY"])
        _ = SyncAppsTests.remind(desktop, "PLAIN-REMINDER")
        laptop.waitPushed()
        desktop.waitPushed()
        #expect(laptop.waitForTitles(["PLAIN-TITLE"]) == ["PLAIN-TITLE"])
        #expect(SyncAppsTests.wait(laptop, for: ["PLAIN-REMINDER"], SyncAppsTests.reminders) == ["PLAIN-REMINDER"])
        #expect(SyncAppsTests.wait(desktop, for: 1) { SyncAppsTests.items($0, "photos.list").count } == 1)
        let markers = ["PLAIN-TITLE", "PLAIN-ONE", "PLAIN-CAPTION", "PLAIN-DIARY", "PLAIN-REMINDER"]
        let before = try Self.dump(database)
        #expect(markers.allSatisfy(before.contains), "the history was there in plaintext")
        #expect(before.contains("\\\\xffd8ff"))

        // The laptop turns encryption on: what the account has goes out again, sealed, and once every
        // device has pulled the plaintext versions (the desktop had), PostgreSQL lets go of them.
        #expect(Self.unlock(laptop)?["result"] == ["encryption": "on"])
        _ = laptop.call("sync.now")
        let deadline = Date().addingTimeInterval(SyncNotesTests.syncDeadline)
        var dump = try Self.dump(database)
        while (markers.contains(where: dump.contains) || dump.contains("\\\\xffd8ff")) && Date() < deadline {
            usleep(200_000)
            _ = laptop.call("sync.now")
            dump = try Self.dump(database)
        }
        for marker in markers { #expect(!dump.contains(marker), "\(marker) is in the dump") }
        #expect(!dump.contains("\\\\xffd8ff"), "the photo's plaintext bytes are in the dump")

        // Nothing changed on the devices; the desktop unlocks and goes on; a new device has it all.
        #expect(Self.unlock(desktop)?["result"] == ["encryption": "on"])
        _ = desktop.call("notes.update", ["id": note, "content": "PLAIN-ONE PLAIN-TWO SEALED-THREE"])
        desktop.waitPushed()
        let tablet = try Device("tablet", database, folder: folder)
        #expect(Self.unlock(tablet)?["result"] == ["encryption": "on"])
        #expect(tablet.waitForTitles(["PLAIN-TITLE"]) == ["PLAIN-TITLE"])
        for device in [laptop, tablet] {
            #expect(SyncAppsTests.wait(device, for: "PLAIN-ONE PLAIN-TWO SEALED-THREE") {
                $0.call("notes.get", ["id": note])?["result"]?["content"]?.stringValue ?? ""
            } == "PLAIN-ONE PLAIN-TWO SEALED-THREE")
        }
        #expect(SyncAppsTests.wait(tablet, for: ["PLAIN-REMINDER"], SyncAppsTests.reminders) == ["PLAIN-REMINDER"])
        #expect(SyncAppsTests.wait(tablet, for: 1) { SyncAppsTests.items($0, "photos.list").count } == 1)
        #expect(SyncAppsTests.items(tablet, "photos.list").first?["caption"] == "PLAIN-CAPTION")
        #expect(SyncAppsTests.items(tablet, "diary.list").first?["excerpt"] == "PLAIN-DIARY")
        // And the photo itself came, sealed and opened.
        let photo = try #require(SyncAppsTests.items(tablet, "photos.list").first?["id"])
        #expect(tablet.call("photos.get", ["id": photo])?["result"]?["image"] != nil)
    }
}
