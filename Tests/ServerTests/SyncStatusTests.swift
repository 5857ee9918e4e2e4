import Foundation
import Protocol
import Sync
import Testing

/// SPEC §14: `--sync URL` and `sync.status`, against a real PostgreSQL 15.
@Suite struct SyncStatusTests {
    /// `sync.status`, asked until `condition` holds (the link works on a thread of its own) or 10 s pass.
    static func status(_ server: SatchelProcess, until condition: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date().addingTimeInterval(10)
        var id = 1000
        while true {
            id += 1
            let status = server.call(request(id, "sync.status"))?["result"]
            if let status, condition(status) { return status }
            if Date() > deadline { return status }
            usleep(50_000)
        }
    }

    @Test func withoutSyncTheStatusSaysItIsOff() throws {
        let server = try SatchelProcess(["--memory"])
        let status = server.call(request(1, "sync.status"))?["result"]
        #expect(status?["enabled"] == false && status?["connected"] == false && status?["pending"] == 0)
        #expect(status?["schema"] == "off" && status?["device"] == .null)
    }

    @Test func aDeviceSaysWhenTheSchemaIsMissingAndRunsNoDDL() throws {
        let database = try SyncSchemaTests.cluster().database(accounts: ["alice"])
        let server = try SatchelProcess(["--memory", "--sync", database.uri("alice")])
        let status = Self.status(server) { $0["schema"] == "missing" }
        #expect(status?["connected"] == true)
        #expect(status?["lastError"]?.stringValue?.contains("run `satchel sync-setup URL`") == true)
        #expect(try SyncSchema.installedVersion(try PGConnection(database.ownerURI)) == 0, "no schema made by a device")
        // Local work goes on.
        #expect(server.call(request(1, "notes.create", ["title": "offline"]))?["result"]?["title"] == "offline")
        #expect(server.call(request(2, "sync.status"))?["result"]?["pending"] == 1)
    }

    @Test func aDeviceConnectsAsItsAccountWithADeviceIdMadeOnce() throws {
        let (database, _) = try SyncSchemaTests.prepared(["alice"])
        let folder = NSTemporaryDirectory() + "satchel-sync-\(UUID().uuidString)"
        let path = folder + "/device.sqlite"
        let server = try SatchelProcess(["--db", path, "--sync", database.uri("alice")])
        let status = Self.status(server) { $0["connected"] == true && $0["schema"] == "ok" }
        #expect(status?["account"]?.stringValue == database.roles["alice"])
        #expect(status?["lastError"] == .null && status?["lastSuccess"]?.stringValue != nil)
        #expect(status?["server"]?.stringValue == "\(database.roles["alice"]!)@\(database.cluster.folder)/\(database.name)")
        let device = try #require(status?["device"]?.stringValue)
        let registered = try PGConnection(database.ownerURI).execute(
            "SELECT id::text FROM satchel.devices WHERE id = $1 AND account = $2", [device, database.roles["alice"]])
        #expect(registered.count == 1)
        server.closeInput()
        #expect(server.waitForExit() == 0)
        let again = try SatchelProcess(["--db", path, "--sync", database.uri("alice")])
        #expect(again.call(request(1, "sync.status"))?["result"]?["device"]?.stringValue == device, "the same device")
    }

    @Test func anUnreachableServerIsSaidInWordsWithoutThePasswordAndNothingWaits() throws {
        let server = try SatchelProcess([
            "--memory", "--sync", "postgresql://alice:hunter2@127.0.0.1:9/shared?connect_timeout=2",
        ])
        let status = Self.status(server) { $0["lastError"] != .null }
        #expect(status?["connected"] == false && status?["enabled"] == true)
        let said = status?["lastError"]?.stringValue ?? ""
        #expect(said.contains("alice@127.0.0.1/shared"), "\(said)")
        #expect(!said.contains("hunter2"))
        #expect(!server.standardError().contains("hunter2"))
        let started = Date()
        #expect(server.call(request(1, "notes.create", ["title": "still here"]))?["result"]?["title"] == "still here")
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func aURLLibpqCannotReadIsAUsageError() throws {
        let server = try SatchelProcess(["--memory", "--sync", "postgresql://%zz"])
        #expect(server.waitForExit() == 2)
        #expect(server.standardError().contains("--sync must be a PostgreSQL connection URI"))
        // libpq quotes the part it could not read, here the password: it is never printed back.
        for arguments in [["--memory", "--sync", "postgresql://anna:100%sure@db.example/satchel"], ["sync-setup", "postgresql://anna:100%sure@db.example/satchel"]] {
            let refused = try SatchelProcess(arguments)
            #expect(refused.waitForExit() == 2)
            let said = refused.standardError()
            #expect(said.contains("invalid percent-encoded token") && !said.contains("sure"), "\(said)")
        }
    }

    @Test func aDeviceOlderThanTheSchemaSaysToUpgradeAndSendsNothing() throws {
        let (database, _) = try SyncSchemaTests.prepared(["alice"])
        // The schema as a newer satchel's `sync-setup` would leave it.
        try PGConnection(database.ownerURI).execute(
            "UPDATE satchel.meta SET value = $1 WHERE key = 'schema_version'", [String(SyncSchema.version + 1)])
        let server = try SatchelProcess(["--memory", "--sync", database.uri("alice")])
        let status = Self.status(server) { $0["state"] == "error" }
        #expect(status?["reason"] == "schemaNewer" && status?["schema"] == "newer", "\(String(describing: status))")
        #expect(status?["lastError"]?.stringValue?.contains("use a newer satchel") == true)
        #expect(server.call(request(1, "notes.create", ["title": "kept here"]))?["result"] != nil)
        let now = server.call(request(2, "sync.now"))?["error"]
        #expect(now?["data"]?["reason"] == "syncSchema", "\(String(describing: now))")
        let rows = try PGConnection(database.ownerURI).execute("SELECT count(*) FROM satchel.changes")
        #expect(rows == [["0"]], "nothing pushed into a schema it does not know")
    }

    @Test func theStateSaysInWordsWhatWillNotFixItselfAndWhatWill() throws {
        let (database, _) = try SyncSchemaTests.prepared(["alice"])
        // Offline: nothing listens there; tried again by itself.
        let away = try SatchelProcess(["--memory", "--sync", "postgresql://alice@127.0.0.1:9/shared?connect_timeout=2"])
        let offline = Self.status(away) { $0["lastError"] != .null }
        #expect(offline?["state"] == "offline" && offline?["reason"] == .null, "\(String(describing: offline))")
        // A database that is not there, a role that may not log in: errors with their reasons.
        let missing = try SatchelProcess(["--memory", "--sync", database.cluster.uri(database.roles["alice"]!, "no_such_database")])
        let missingStatus = Self.status(missing) { $0["state"] == "error" }
        #expect(missingStatus?["reason"] == "databaseMissing", "\(String(describing: missingStatus))")
        let stranger = try SatchelProcess(["--memory", "--sync", database.cluster.uri("nobody_at_all", database.name)])
        let strangerStatus = Self.status(stranger) { $0["state"] == "error" }
        #expect(strangerStatus?["reason"] == "authenticationFailed", "\(String(describing: strangerStatus))")
        // The schema's owner and a superuser could read every account: no device syncs as either.
        for uri in [database.ownerURI, database.cluster.uri("postgres", database.name)] {
            let unsafe = try SatchelProcess(["--memory", "--sync", uri])
            let status = Self.status(unsafe) { $0["state"] == "error" }
            #expect(status?["reason"] == "unsafeRole", "\(String(describing: status))")
            #expect(status?["lastError"]?.stringValue?.contains("never syncs as one") == true)
            let now = unsafe.call(request(1, "sync.now"))?["error"]
            #expect(now?["data"]?["reason"] == "syncRefused", "\(String(describing: now))")
        }
        // A good device: synced, nothing skipped.
        let fine = try SatchelProcess(["--memory", "--sync", database.uri("alice")])
        let synced = Self.status(fine) { $0["state"] == "synced" }
        #expect(synced?["reason"] == .null && synced?["progress"] == .null && synced?["skipped"]?["count"] == 0)
    }
}
