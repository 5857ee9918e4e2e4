import Foundation
import Protocol
import Sync
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SPEC §14 end to end: satchels on their own SQLite files sharing one real PostgreSQL 15 database, notes
/// pushed, pulled and merged.
@Suite struct SyncNotesTests {
    /// How long a test waits for a sync to arrive. A wait ends as soon as what it waits for is there; this
    /// is for a loaded machine running the whole suite at once: debug builds decode and scale a
    /// 12-megapixel photo on each device, and a device that lost PostgreSQL tries again after up to 30 s.
    static let syncDeadline: TimeInterval = 60

    /// A database with the schema made by its owner, and the login roles of `accounts`.
    static func shared(_ accounts: [String]) throws -> TestDatabase {
        let database = try SyncSchemaTests.cluster().database(accounts: accounts)
        _ = try SyncSchema.setUp(try PGConnection(database.ownerURI))
        return database
    }

    /// A device: a satchel on `file` (in a folder of its own) syncing as `account`, or not syncing.
    final class Device {
        let path: String
        let uri: String?
        var server: SatchelProcess
        private var nextID = 100
        /// The notifications read so far (`changed`, …).
        var notifications: [JSONValue] = []

        init(_ name: String, _ database: TestDatabase?, as account: String = "alice", folder: String) throws {
            path = folder + "/\(name).sqlite"
            uri = database?.uri(account)
            server = try SatchelProcess(["--db", path] + (uri.map { ["--sync", $0] } ?? []))
            // Named as a person names a device: conflict copies say where their version was written.
            _ = call("sync.setDeviceName", ["name": .string(name)])
        }

        /// The answer to `method`, skipping the notifications that come before it.
        func call(_ method: String, _ params: JSONValue? = nil) -> JSONValue? {
            nextID += 1
            server.send(line: request(nextID, method, params))
            while let message = server.readMessage(timeout: 15) {
                if message["id"] == .integer(Int64(nextID)) { return message }
                if message["method"] != nil { notifications.append(message) }
            }
            return nil
        }

        func titles() -> [String] {
            (call("notes.list", ["limit": 500])?["result"]?["items"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
                .sorted()
        }

        /// Waits (up to ``syncDeadline``) until this device's note titles are `expected`.
        @discardableResult
        func waitForTitles(_ expected: [String], within seconds: Double = SyncNotesTests.syncDeadline) -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            var seen = titles()
            while seen != expected.sorted() && Date() < deadline {
                usleep(50_000)
                seen = titles()
            }
            return seen
        }

        /// Waits until everything made here is in PostgreSQL.
        func waitPushed() {
            let deadline = Date().addingTimeInterval(SyncNotesTests.syncDeadline)
            while Date() < deadline {
                let status = call("sync.status")?["result"]
                if status?["pending"] == 0 && status?["schema"] == "ok" { return }
                usleep(50_000)
            }
        }

        /// Ends the process (`kill -9`, or at the end of its input), and starts it again (with or without
        /// sync) on the same file; `unreachable`: syncing as the same account with a server that is not there
        /// (a device offline).
        func restart(syncing: Bool, killing: Bool = false, unreachable: Bool = false) throws {
            if killing { kill(server.pid, SIGKILL) } else { server.closeInput() }
            _ = server.waitForExit()
            var link = syncing ? uri : nil
            if unreachable, let role = uri?.split(separator: "user=").last {
                link = "postgresql://127.0.0.1:9/offline?connect_timeout=1&user=\(role)"
            }
            server = try SatchelProcess(["--db", path] + (link.map { ["--sync", $0] } ?? []))
        }
    }

    /// `texts` with the time a conflict copy's label tells ("27 Nov 19:20") written as `TIME`.
    static func timeless(_ texts: [String]) -> [String] {
        texts.map { $0.replacing(/\d{1,2} [A-Z][a-z]{2} \d{2}:\d{2}/, with: "TIME") }
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "satchel-sync-notes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aNoteMadeOnOneDeviceReachesTheOtherAndSoDoItsEditAndItsDeletion() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        #expect(desktop.call("changes.subscribe", ["domains": ["notes"]])?["result"] != nil)
        let made = laptop.call("notes.create", ["title": "Groceries", "content": "milk \"2 l\" \\ 🥛\nbread"])?["result"]
        let id = try #require(made?["id"]?.stringValue)
        #expect(desktop.waitForTitles(["Groceries"]) == ["Groceries"])
        // Live: a subscriber hears of it as of any change. (Its notification follows the answers of the
        // chunk that saw the change: one more answer reads it.)
        _ = desktop.call("ping")
        #expect(desktop.notifications.contains { $0["method"] == "changed" && $0["params"]?["id"] == .string(id) })
        let copy = desktop.call("notes.get", ["id": .string(id)])?["result"]
        #expect(copy?["content"] == made?["content"] && copy?["revision"] == made?["revision"])
        #expect(copy?["color"] == made?["color"] && copy?["createdAt"] == made?["createdAt"])
        // The desktop's change goes back the other way.
        #expect(desktop.call("notes.update", ["id": .string(id), "title": "Groceries for Sunday"])?["result"] != nil)
        #expect(laptop.waitForTitles(["Groceries for Sunday"]) == ["Groceries for Sunday"])
        #expect(laptop.call("notes.delete", ["id": .string(id)])?["result"]?["deleted"] == true)
        #expect(desktop.waitForTitles([]) == [])
        laptop.waitPushed()
        desktop.waitPushed()
        let status = laptop.call("sync.status")?["result"]
        #expect(status?["pending"] == 0 && status?["connected"] == true)
        #expect(status?["lastError"] == .null)
    }

    @Test func editsMadeApartKeepTheLaterInPlaceAndTheOtherAsAConflictCopyOnEveryDevice() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        let id = try #require(laptop.call("notes.create", ["title": "Plan"])?["result"]?["id"]?.stringValue)
        desktop.waitForTitles(["Plan"])
        desktop.waitPushed()
        // The desktop goes offline; both change the note.
        try desktop.restart(syncing: false)
        #expect(laptop.call("notes.update", ["id": .string(id), "title": "Plan from the laptop"])?["result"] != nil)
        laptop.waitPushed()
        #expect(desktop.call("notes.update", ["id": .string(id), "title": "Plan from the desktop"])?["result"] != nil)
        // Back online: its version came later and stays in place; the laptop's is kept beside it.
        try desktop.restart(syncing: true)
        // The copy says where and when its version was written.
        let expected = ["Plan from the desktop", "Plan from the laptop — laptop, TIME"]
        #expect(SyncAppsTests.wait(desktop, for: expected) { Self.timeless($0.titles()) } == expected)
        #expect(SyncAppsTests.wait(laptop, for: expected) { Self.timeless($0.titles()) } == expected)
        // The same copy on both (same id), and nothing more comes of it.
        let ids = { (device: Device) in
            (device.call("notes.list")?["result"]?["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        }
        laptop.waitPushed()
        desktop.waitPushed()
        #expect(ids(laptop) == ids(desktop))
        #expect(ids(laptop).count == 2)
    }

    @Test func aConflictCopyReachesTheDevicesThatNeverSawTheClash() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        let phone = try Device("phone", database, folder: folder)
        let id = try #require(laptop.call("notes.create", ["title": "Plan"])?["result"]?["id"]?.stringValue)
        for device in [desktop, phone] { device.waitForTitles(["Plan"]) }
        // The phone is away while the laptop and the desktop change the note apart: a clash, and a copy.
        try phone.restart(syncing: false)
        try desktop.restart(syncing: false)
        _ = laptop.call("notes.update", ["id": .string(id), "title": "Plan from the laptop"])
        laptop.waitPushed()
        _ = desktop.call("notes.update", ["id": .string(id), "title": "Plan from the desktop"])
        try desktop.restart(syncing: true)
        let both = ["Plan from the desktop", "Plan from the laptop — laptop, TIME"]
        #expect(SyncAppsTests.wait(laptop, for: both) { Self.timeless($0.titles()) } == both)
        // The note itself is deleted: PostgreSQL lets go of its versions, the clash with them.
        _ = laptop.call("notes.delete", ["id": .string(id)])
        let copy = ["Plan from the laptop — laptop, TIME"]
        #expect(SyncAppsTests.wait(desktop, for: copy) { Self.timeless($0.titles()) } == copy)
        laptop.waitPushed()
        desktop.waitPushed()
        // The phone, back, and a device that comes now have the copy all the same.
        try phone.restart(syncing: true)
        #expect(SyncAppsTests.wait(phone, for: copy) { Self.timeless($0.titles()) } == copy)
        let tablet = try Device("tablet", database, folder: folder)
        #expect(SyncAppsTests.wait(tablet, for: copy) { Self.timeless($0.titles()) } == copy)
        let ids = { (device: Device) in
            (device.call("notes.list")?["result"]?["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        }
        #expect(Set([laptop, desktop, phone, tablet].map(ids)).count == 1, "the same copy everywhere")
    }

    @Test func aDeletionThatHadNotSeenAnEditLosesToItOnEveryDevice() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        let id = try #require(laptop.call("notes.create", ["title": "Keep me"])?["result"]?["id"]?.stringValue)
        desktop.waitForTitles(["Keep me"])
        desktop.waitPushed()
        try desktop.restart(syncing: false)
        #expect(laptop.call("notes.delete", ["id": .string(id)])?["result"]?["deleted"] == true)
        laptop.waitPushed()
        #expect(desktop.call("notes.update", ["id": .string(id), "content": "an edit made offline"])?["result"] != nil)
        try desktop.restart(syncing: true)
        #expect(laptop.waitForTitles(["Keep me"]) == ["Keep me"])
        #expect(desktop.waitForTitles(["Keep me"]) == ["Keep me"])
        #expect(laptop.call("notes.get", ["id": .string(id)])?["result"]?["content"] == "an edit made offline")
    }

    @Test func anotherAccountNeverSeesTheseNotes() throws {
        let database = try Self.shared(["alice", "bob"])
        let folder = try Self.folder()
        let alices = try Device("alice", database, as: "alice", folder: folder)
        let bobs = try Device("bob", database, as: "bob", folder: folder)
        #expect(alices.call("notes.create", ["title": "Alice's secret"])?["result"] != nil)
        alices.waitPushed()
        #expect(bobs.call("notes.create", ["title": "Bob's list"])?["result"] != nil)
        bobs.waitPushed()
        _ = bobs.call("sync.now")
        #expect(bobs.titles() == ["Bob's list"])
        _ = alices.call("sync.now")
        #expect(alices.titles() == ["Alice's secret"])
        // And PostgreSQL itself shows Bob's role none of Alice's rows.
        let seen = try database.connect("bob").execute("SELECT DISTINCT account::text FROM satchel.pull('{}', 100000, 1000000000)")
        #expect(seen == [[database.roles["bob"]]])
    }

    @Test func syncNowPushesAndPullsEverythingAndSaysWhatItDid() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        // Made offline, then synced on demand.
        let laptop = try Device("laptop", nil, folder: folder)
        for index in 0..<30 { _ = laptop.call("notes.create", ["title": .string("note \(index)")]) }
        #expect(laptop.call("sync.now")?["error"]?["data"]?["reason"] == "syncOff")
        laptop.server.closeInput()
        _ = laptop.server.waitForExit()
        // At once after start: the round need not wait for the link to register the device.
        let online = try Device("laptop", database, folder: folder)
        let done = online.call("sync.now", ["_meta": ["progressToken": 7]])?["result"]
        #expect(done?["pending"] == 0)
        // Asked for, progress is reported as it goes.
        #expect(online.notifications.contains {
            $0["method"] == "notifications/progress" && $0["params"]?["progressToken"] == 7
        })
        let pushed = try database.connect("alice").execute("SELECT count(*) FROM satchel.pull('{}', 100000, 1000000000)")
        #expect(pushed == [["30"]])
        // A new device: sync.now brings what its own first round has not yet brought.
        let desktop = try Device("desktop", database, folder: folder)
        let pulled = desktop.call("sync.now")?["result"]
        #expect((pulled?["pulled"]?.integerValue ?? -1) <= 30 && pulled?["pending"] == 0)
        #expect(desktop.titles().count == 30)
    }

    @Test func aNewDevicePullsAWholeAccountInRoundsReportingProgressUpToItsTotal() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        // 2,500 notes, in batches of 500: three rounds of pulling for a new device.
        for start in stride(from: 0, to: 2500, by: 500) {
            let batch = (start..<start + 500).map { request($0 + 1000, "notes.create", ["title": .string("note \($0)")]) }
            laptop.server.send(line: "[" + batch.joined(separator: ",") + "]")
            #expect(laptop.server.readLine(timeout: 30)?.hasPrefix("[") == true)
        }
        #expect(laptop.call("sync.now")?["result"]?["pending"] == 0)
        let desktop = try Device("desktop", database, folder: folder)
        let done = try #require(desktop.call("sync.now", ["_meta": ["progressToken": "first"]])?["result"])
        #expect(desktop.call("server.info")?["result"]?["counts"]?["notes"] == 2500)
        let reports = desktop.notifications.filter { $0["method"] == "notifications/progress" }.compactMap { $0["params"] }
        if (done["pulled"]?.integerValue ?? 0) > 0 {  // (the device's own first round may have been first)
            let last = try #require(reports.last)
            #expect(last["progress"] != nil && last["progress"] == last["total"], "\(reports)")
            let values = reports.compactMap { $0["progress"]?.integerValue }
            #expect(values == values.sorted() && values.count == Set(values).count, "progress only grows: \(values)")
            #expect((last["total"]?.integerValue ?? 0) >= (done["pulled"]?.integerValue ?? 0))
        }
    }

    @Test func aRoundThatFailedIsTriedAgainByAnIdleDevice() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let desktop = try Device("desktop", database, folder: folder)
        _ = desktop.call("notes.create", ["title": "first"])
        desktop.waitPushed()
        // PostgreSQL ends the connection the desktop's rounds use (not its link's, which listens): its next
        // round fails, and nothing else (no input, no other device's push) happens on the desktop after it.
        let admin = try PGConnection(database.cluster.uri("postgres", database.name))
        let rounds = """
            SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND usename = $1
            AND query NOT IN ('LISTEN satchel_changes', 'SELECT 1')
            """
        let ended = try admin.execute("SELECT pg_terminate_backend(pid) FROM (\(rounds)) AS r", [database.roles["alice"]])
        #expect(ended.count == 1)
        let deadline = Date().addingTimeInterval(10)
        while try !admin.execute(rounds, [database.roles["alice"]]).isEmpty && Date() < deadline { usleep(20_000) }
        let laptop = try Device("laptop", database, folder: folder)
        #expect(laptop.waitForTitles(["first"]) == ["first"])
        _ = desktop.call("notes.create", ["title": "second"])
        #expect(laptop.waitForTitles(["first", "second"]) == ["first", "second"])
    }

    @Test func changesQueueWhilePostgreSQLIsDownAndGoOutWhenItIsBack() throws {
        let cluster = try PostgresCluster()  // its own: this test stops it
        defer { try? cluster.stop() }
        let database = try cluster.database(accounts: ["alice"])
        _ = try SyncSchema.setUp(try PGConnection(database.ownerURI))
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        _ = laptop.call("notes.create", ["title": "before"])
        desktop.waitForTitles(["before"])
        try cluster.stop()
        let started = Date()
        for title in ["during 1", "during 2"] { _ = laptop.call("notes.create", ["title": .string(title)]) }
        _ = desktop.call("notes.create", ["title": "during 3"])
        #expect(Date().timeIntervalSince(started) < 2, "local work goes on at its own speed")
        let offline = SyncStatusTests.status(laptop.server) { $0["connected"] == false }
        #expect(offline?["pending"] == 2)
        #expect(offline?["lastError"]?.stringValue?.isEmpty == false)
        #expect(laptop.call("sync.now")?["error"]?["data"]?["reason"] == "syncUnreachable")
        try cluster.start()
        let all = ["before", "during 1", "during 2", "during 3"]
        #expect(laptop.waitForTitles(all) == all)
        #expect(desktop.waitForTitles(all) == all)
        laptop.waitPushed()
        desktop.waitPushed()
        #expect(laptop.call("sync.status")?["result"]?["pending"] == 0)
        // No wake-up is lost: both links are back (each tries every second), so the next note goes to the
        // other device as soon as it is made, not when something else happens to carry it along. (The
        // link used to wait up to 30 s between tries while its rounds were already through.)
        _ = laptop.call("notes.create", ["title": "after"])
        let after = (all + ["after"]).sorted()
        #expect(desktop.waitForTitles(after, within: 10) == after)
        #expect(SyncStatusTests.status(desktop.server) { $0["state"] == "synced" }?["state"] == "synced")
    }

    /// What the log keeps of a note: its rows, as its owner sees them (op and title), in order.
    static func logged(_ database: TestDatabase, _ id: String) throws -> [String] {
        try PGConnection(database.ownerURI).execute(
            "SELECT op || coalesce(' ' || (body ->> 'title'), '') FROM satchel.changes WHERE entity = $1 ORDER BY seq", [id]
        ).compactMap { $0[0] }
    }

    @Test func aSupersededVersionLeavesPostgreSQLOnceEveryDeviceOfTheAccountHasIt() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        let desktop = try Device("desktop", database, folder: folder)
        let phone = try Device("phone", database, folder: folder)
        let id = try #require(laptop.call("notes.create", ["title": "v1"])?["result"]?["id"]?.stringValue)
        for device in [desktop, phone] { #expect(device.waitForTitles(["v1"]) == ["v1"]) }
        // The phone goes away: what it has not pulled stays in PostgreSQL for it to merge with.
        try phone.restart(syncing: false)
        for title in ["v2", "v3", "v4"] {
            _ = laptop.call("notes.update", ["id": .string(id), "title": .string(title)])
            #expect(desktop.waitForTitles([title]) == [title])
            laptop.waitPushed()
            _ = laptop.call("sync.now")
        }
        // v1, which the phone has too, went with v2; v2 and v3 wait for the phone.
        let kept = try Self.logged(database, id)
        #expect(kept == ["put v2", "put v3", "put v4"], "\(kept)")
        // Back, it pulls them; the next version takes every one before it.
        try phone.restart(syncing: true)
        #expect(phone.waitForTitles(["v4"]) == ["v4"])
        _ = phone.call("sync.now")
        _ = laptop.call("notes.update", ["id": .string(id), "title": "v5"])
        laptop.waitPushed()
        let left = try Self.logged(database, id)
        #expect(left == ["put v5"], "\(left)")
        // A device that comes later starts from what is left, and ends where the others are; the others
        // go on merging with it.
        let tablet = try Device("tablet", database, folder: folder)
        #expect(tablet.waitForTitles(["v5"]) == ["v5"])
        _ = tablet.call("notes.update", ["id": .string(id), "content": "from the tablet"])
        for device in [laptop, desktop, phone] {
            #expect(SyncAppsTests.wait(device, for: "from the tablet") {
                $0.call("notes.get", ["id": .string(id)])?["result"]?["content"]?.stringValue ?? ""
            } == "from the tablet")
            #expect(device.titles() == ["v5"])
        }
    }

    @Test func aKillDuringSyncLosesNothingAndDuplicatesNothing() throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let laptop = try Device("laptop", nil, folder: folder)
        let batch = "[" + (0..<1000).map { request($0 + 1, "notes.create", ["title": .string("note \($0)")]) }.joined(separator: ",") + "]"
        for _ in 0..<2 { laptop.server.send(line: batch); _ = laptop.server.readLine(timeout: 30) }
        let online = try Device("laptop", database, folder: folder)
        usleep(30_000)  // mid-push or mid-pull, or between: whichever, nothing may be lost or doubled
        try online.restart(syncing: true, killing: true)
        #expect(online.call("sync.now")?["result"]?["pending"] == 0)
        let rows = try database.connect("alice").execute(
            "SELECT count(*), count(DISTINCT device_seq) FROM satchel.pull('{}', 100000, 1000000000)")
        #expect(rows == [["2000", "2000"]])
        let desktop = try Device("desktop", database, folder: folder)
        #expect(desktop.call("sync.now")?["result"]?["pending"] == 0)  // what its own rounds left, if anything
        #expect(desktop.call("server.info")?["result"]?["counts"]?["notes"] == 2000)
        #expect(online.call("server.info")?["result"]?["counts"]?["notes"] == 2000)
    }

    @Test func aRowThatBreaksARuleIsSkippedWithItsReasonLoggedAndTheRestApplied() throws {
        let database = try Self.shared(["alice"])
        // Another "device" of Alice's pushes rows by hand: a title past the limit, a body that is no note,
        // and a good note after them (PostgreSQL checks ids, shapes and sizes; the model's rules are the
        // device's).
        let other = try database.connect("alice")
        let device = UUID().uuidString.lowercased()
        let note = { (id: String, title: String) in
            #"{"id":"\#(id)","title":"\#(title)","content":"","color":{"hue":0,"saturation":0,"brightness":1},"createdAt":"2026-11-26T00:00:00.000Z","updatedAt":"2026-11-26T00:00:00.000Z","revision":1}"#
        }
        let rows: [(String, String)] = [
            ("note_long", note("note_long", String(repeating: "x", count: 501))),
            ("note_odd", #"{"id": "note_odd", "what": "not a note"}"#),
            ("note_good", note("note_good", "Fine")),
        ]
        for (index, (entity, body)) in rows.enumerated() {
            try Self.push(other, device: device, seq: index + 1, "notes", entity, body)
        }
        // And a photo note whose photo never reached PostgreSQL.
        let photo =
            #"{"id":"photo_lost","image":"\#(String(repeating: "ab", count: 32))","caption":"Lost","createdAt":"2026-11-26T00:00:00.000Z","updatedAt":"2026-11-26T00:00:00.000Z","revision":1}"#
        try Self.push(other, device: device, seq: 9, "photos", "photo_lost", photo)
        let folder = try Self.folder()
        let laptop = try Device("laptop", database, folder: folder)
        #expect(laptop.call("sync.now")?["result"]?["pending"] == 0)
        #expect(laptop.titles() == ["Fine"])
        let logged = laptop.server.standardError()
        #expect(logged.contains("note_long") && logged.contains("note_odd"), "\(logged)")
        #expect(logged.contains("photo_lost): an image it shows is not in PostgreSQL"), "\(logged)")
        #expect(!logged.contains("note_good"))
        #expect(laptop.call("photos.list")?["result"]?["items"] == [])
        let skipped = laptop.call("sync.status")?["result"]?["skipped"]
        #expect(skipped?["count"] == 3, "\(String(describing: skipped))")
        #expect(skipped?["recent"]?.arrayValue?.first?["entity"] == "photo_lost")
    }

    /// Pushes one row through `satchel.push`, as a device would.
    static func push(_ connection: PGConnection, device: String, seq: Int, _ domain: String, _ entity: String, _ body: String) throws {
        try connection.execute(
            """
            SELECT satchel.push($1::uuid, jsonb_build_array(jsonb_build_object(
                'device_seq', $2::bigint, 'domain', $3::text, 'entity', $4::text, 'op', 'put', 'body', $5::jsonb)))
            """, [device, String(seq), domain, entity, body])
    }

    /// Every note a device has, as (id, title, content), sorted: what must end equal on every device.
    static func contents(_ device: Device) -> [String] {
        (device.call("notes.list", ["limit": 500])?["result"]?["items"]?.arrayValue ?? []).map {
            "\($0["id"]?.stringValue ?? "")|\($0["title"]?.stringValue ?? "")|\($0["content"]?.stringValue ?? "")"
        }.sorted()
    }

    /// Brings the devices that are not `online` back, then has every device push and pull until nothing
    /// moves; answers what `read` says of each.
    static func settle(_ devices: [Device], online: [Bool], _ read: (Device) -> [String]) throws -> [[String]] {
        for (index, device) in devices.enumerated() where !online[index] { try device.restart(syncing: true) }
        var states: [[String]] = []
        var failures: [String] = []
        // Rounds until they agree and nothing waits to go out: on a busy machine a round can fail (a link
        // still connecting, PostgreSQL slow to answer) after the states already agree — a conflict copy that
        // every device made alike, not yet pushed by one — and the next round carries it. A minute is the
        // most they are given.
        let deadline = Date().addingTimeInterval(60)
        repeat {
            failures = devices.compactMap { device in
                device.call("sync.now")?["error"].map { "\(device.path): \($0)" }
            }
            states = devices.map(read)
        } while !(states.allSatisfy({ $0 == states[0] }) && failures.isEmpty
            && devices.allSatisfy({ $0.call("sync.status")?["result"]?["pending"] == 0 }))
            && Date() < deadline
        #expect(failures.isEmpty, "the last round failed: \(failures)")
        return states
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func threeDevicesEditingAtRandomWhileGoingOnAndOfflineEndTheSame(seed: UInt64) throws {
        let database = try Self.shared(["alice"])
        let folder = try Self.folder()
        let devices = try ["laptop", "desktop", "phone"].map { try Device($0, database, folder: folder) }
        var online = [true, true, true]
        var random = SeededRandom(seed: seed)
        var made = 0
        for _ in 0..<6 {
            // One device may change whether it syncs (going offline keeps what it has: the file stays).
            let switching = Int(random.next() % 3)
            online[switching].toggle()
            try devices[switching].restart(syncing: online[switching])
            for (index, device) in devices.enumerated() {
                for _ in 0..<3 {
                    let ids = Self.contents(device).map { String($0.split(separator: "|")[0]) }
                    switch (random.next() % 4, ids.isEmpty) {
                    case (0, _), (_, true):
                        made += 1
                        _ = device.call("notes.create", ["title": .string("made \(made) on \(index)")])
                    case (1, false):
                        _ = device.call("notes.delete", ["id": .string(ids[Int(random.next() % UInt64(ids.count))])])
                    case (2, false):
                        let id = ids[Int(random.next() % UInt64(ids.count))]
                        _ = device.call("notes.update", ["id": .string(id), "title": .string("title \(random.next() % 1000) on \(index)")])
                    default:
                        // A word of the content changed or put in: edits apart of other words merge.
                        let id = ids[Int(random.next() % UInt64(ids.count))]
                        let content = device.call("notes.get", ["id": .string(id)])?["result"]?["content"]?.stringValue ?? ""
                        var words = content.split(separator: " ").map(String.init)
                        let word = "w\(random.next() % 1000)on\(index)"
                        if words.isEmpty || random.next() % 2 == 0 {
                            words.insert(word, at: Int(random.next() % UInt64(words.count + 1)))
                        } else {
                            words[Int(random.next() % UInt64(words.count))] = word
                        }
                        _ = device.call("notes.update", ["id": .string(id), "content": .string(words.joined(separator: " "))])
                    }
                }
            }
            usleep(100_000)
        }
        let states = try Self.settle(devices, online: online, Self.contents)
        #expect(states[1] == states[0], "desktop and laptop differ (seed \(seed))")
        #expect(states[2] == states[0], "phone and laptop differ (seed \(seed))")
        #expect(!states[0].isEmpty)
        for device in devices { #expect(device.call("sync.status")?["result"]?["pending"] == 0) }
        // A device that comes now starts from what PostgreSQL kept (superseded versions every device had
        // are gone) and ends the same as the others.
        let tablet = try Device("tablet", database, folder: folder)
        let joined = try Self.settle([tablet] + devices, online: [true, true, true, true], Self.contents)
        #expect(joined.allSatisfy { $0 == joined[0] }, "the tablet differs (seed \(seed))")
        #expect(joined[1] == states[0], "a device changed when the tablet came (seed \(seed))")
    }
}

/// A small generator with a seed, so a failing run can be run again as it was (SplitMix64).
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
