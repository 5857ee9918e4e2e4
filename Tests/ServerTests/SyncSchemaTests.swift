import Foundation
import Sync
import Testing

/// SPEC §14 against a real PostgreSQL 15: `satchel sync-setup` makes the schema, and PostgreSQL itself keeps
/// accounts apart, whatever SQL an account's role runs.
@Suite struct SyncSchemaTests {
    static func cluster() throws -> PostgresCluster { try PostgresCluster.sharedCluster() }

    /// A database with the schema, and a device of each account registered.
    static func prepared(_ accounts: [String]) throws -> (TestDatabase, [String: String]) {
        let database = try cluster().database(accounts: accounts)
        _ = try SyncSchema.setUp(try PGConnection(database.ownerURI))
        var devices: [String: String] = [:]
        for account in accounts {
            let device = UUID().uuidString.lowercased()
            try database.connect(account).execute("SELECT satchel.register($1::uuid)", [device])
            devices[account] = device
        }
        return (database, devices)
    }

    /// Pushes one row through `satchel.push`, as a device does.
    static func add(_ connection: PGConnection, device: String, _ domain: String, _ entity: String) throws {
        let number = Int64.random(in: 1...1 << 40)
        try connection.execute(
            "SELECT satchel.push($1::uuid, jsonb_build_array(jsonb_build_object('device_seq', $2::bigint, 'domain', $3::text, 'entity', $4::text, 'op', 'put', 'body', jsonb_build_object('id', $4::text))))",
            [device, String(number), domain, entity])
    }

    /// The entities of the rows `connection`'s account may pull, in the log's order.
    static func pulled(_ connection: PGConnection) throws -> [String] {
        try connection.execute("SELECT entity FROM satchel.pull('{}', 100000, 1000000000)").map { $0[0] ?? "" }
    }

    static func sqlState(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as PGError {
            return error.sqlState
        } catch {
            return "\(error)"
        }
    }

    @Test func setUpCreatesTheSchemaOnceAndTwoRunsAtOnceEndWithOne() throws {
        let database = try Self.cluster().database(accounts: [])
        let owner = try PGConnection(database.ownerURI)
        #expect(try SyncSchema.installedVersion(owner) == 0)
        #expect(try SyncSchema.setUp(owner) == .created(version: SyncSchema.version))
        #expect(try SyncSchema.setUp(owner) == .upToDate(version: SyncSchema.version))
        #expect(try SyncSchema.installedVersion(owner) == SyncSchema.version)
        #expect(try owner.execute("SELECT tableowner FROM pg_tables WHERE schemaname = 'satchel' GROUP BY 1") == [[database.owner]])
        // Row-level security stays on every table, and no table is granted to anyone but its owner: devices
        // go through the functions, each `SECURITY DEFINER` with its search_path pinned.
        let secured = try owner.execute(
            "SELECT relname FROM pg_class WHERE relnamespace = 'satchel'::regnamespace AND relkind = 'r' AND relrowsecurity ORDER BY 1")
        #expect(secured.map { $0[0] } == ["accounts", "changes", "devices", "images", "keys", "meta", "shared_entities"])
        let granted = try owner.execute(
            """
            SELECT DISTINCT table_name::text FROM information_schema.role_table_grants
            WHERE table_schema = 'satchel' AND grantee <> $1 AND privilege_type <> 'SELECT' OR (grantee <> $1 AND table_name <> 'meta')
            """, [database.owner])
        #expect(granted.isEmpty, "\(granted)")
        let definers = try owner.execute(
            """
            SELECT p.proname::text FROM pg_proc p WHERE p.pronamespace = 'satchel'::regnamespace AND p.prosecdef
            AND NOT coalesce(p.proconfig @> ARRAY['search_path=pg_catalog, pg_temp'], false) ORDER BY 1
            """)
        #expect(definers.isEmpty, "every SECURITY DEFINER function pins its search_path: \(definers)")

        let fresh = try Self.cluster().database(accounts: [])
        let outcomes = [Result<SyncSchema.Outcome, PGError>?](repeating: nil, count: 2)
        let results = LockedBox(outcomes)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let outcome = Result { () throws(PGError) in try SyncSchema.setUp(try PGConnection(fresh.ownerURI)) }
            results.update { $0[index] = outcome }
        }
        let both = results.value.compactMap { try? $0?.get() }
        #expect(both.count == 2)
        #expect(both.filter { $0 == .created(version: SyncSchema.version) }.count == 1)
        #expect(both.filter { $0 == .upToDate(version: SyncSchema.version) }.count == 1)
    }

    @Test func anAccountReadsItsOwnPrivateRowsAndEveryonesSharedOnes() throws {
        let (database, devices) = try Self.prepared(["alice", "bob"])
        let alice = try database.connect("alice")
        let bob = try database.connect("bob")
        try Self.add(alice, device: devices["alice"]!, "notes", "note_a")
        try Self.add(alice, device: devices["alice"]!, "messages", "msg_a")
        try Self.add(bob, device: devices["bob"]!, "board", "post_b")
        try Self.add(bob, device: devices["bob"]!, "diary", "post_private_b")
        #expect(try Self.pulled(alice).sorted() == ["msg_a", "note_a", "post_b"])
        #expect(try Self.pulled(bob).sorted() == ["msg_a", "post_b", "post_private_b"])
        // No table is read but through the functions.
        #expect(Self.sqlState { try bob.execute("SELECT count(*) FROM satchel.devices") } == "42501")
        #expect(Self.sqlState { try bob.execute("SELECT count(*) FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("SELECT count(*) FROM satchel.images") } == "42501")
    }

    @Test func noAccountCanSwitchRowLevelSecurityOffNorWriteAsAnother() throws {
        let (database, devices) = try Self.prepared(["alice", "bob"])
        let alice = try database.connect("alice")
        try Self.add(alice, device: devices["alice"]!, "notes", "secret")
        // Bob's device connected first or not: his role owns nothing here.
        let bob = try database.connect("bob")
        #expect(Self.sqlState { try bob.execute("ALTER TABLE satchel.changes DISABLE ROW LEVEL SECURITY") } == "42501")
        #expect(Self.sqlState { try bob.execute("ALTER TABLE satchel.changes NO FORCE ROW LEVEL SECURITY") } == "42501")
        #expect(Self.sqlState { try bob.execute("DROP POLICY own_or_shared ON satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("CREATE VIEW satchel.everything AS SELECT * FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("CREATE VIEW public.everything AS SELECT * FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("UPDATE satchel.changes SET account = current_user") } == "42501")
        #expect(Self.sqlState { try bob.execute("DELETE FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("TRUNCATE satchel.changes") } == "42501")
        for table in ["accounts", "changes", "devices"] {
            #expect(Self.sqlState { try bob.transaction { () throws(PGError) in _ = try bob.execute("LOCK TABLE satchel.\(table)") } } == "42501")
        }
        #expect(Self.sqlState { try bob.execute("SELECT satchel.spend(current_user, -1000000, -1000000)") } == "42501")
        // Writing as Alice is refused (no table grant); through her device's id, it makes a device of
        // Bob's own: the row is Bob's.
        let asAlice =
            "INSERT INTO satchel.changes(account, device, device_seq, domain, entity, op) VALUES ($1, $2, 99, 'notes', 'forged', 'put')"
        #expect(Self.sqlState { try bob.execute(asAlice, [database.roles["alice"]!, devices["alice"]!]) } == "42501")
        try Self.add(bob, device: devices["alice"]!, "notes", "through_her_device")
        #expect(try Self.pulled(alice) == ["secret"])
        #expect(try Self.pulled(bob) == ["through_her_device"])
    }

    @Test func aVersion2DatabaseMovesToVersion3KeepingItsDataAndLosingWhatBrokeIt() throws {
        let database = try Self.cluster().database(accounts: ["alice", "bob"])
        let owner = try PGConnection(database.ownerURI)
        #expect(try SyncSchema.setUp(owner, upTo: 2) == .created(version: 2))
        // Devices of version 2 wrote the tables themselves: Alice a note and a post; later the same note
        // deleted; Bob a vote, and a row far ahead in the log that stopped every device's pulls.
        let alice = try database.connect("alice")
        let bob = try database.connect("bob")
        let (aliceDevice, bobDevice) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        try alice.execute("INSERT INTO satchel.devices(id) VALUES ($1)", [aliceDevice])
        try bob.execute("INSERT INTO satchel.devices(id) VALUES ($1)", [bobDevice])
        let insert = "INSERT INTO satchel.changes(device, device_seq, domain, entity, op, body) VALUES ($1, $2, $3, $4, $5, $6::jsonb)"
        try alice.execute(insert, [aliceDevice, "1", "notes", "note_a", "put", #"{"id":"note_a","title":"Old secret"}"#])
        try alice.execute(insert, [aliceDevice, "2", "board", "bp_1", "put", #"{"id":"bp_1","title":"Lunch?"}"#])
        try alice.execute(insert, [aliceDevice, "3", "notes", "note_b", "put", #"{"id":"note_b","title":"Kept"}"#])
        try alice.execute(insert, [aliceDevice, "4", "notes", "note_a", "delete", nil])
        try bob.execute(insert, [bobDevice, "1", "votes", "bp_1/\(database.roles["bob"]!)", "put", #"{"post":"bp_1","direction":"up"}"#])
        try bob.execute(
            "INSERT INTO satchel.changes(seq, device, device_seq, domain, entity, op, body) OVERRIDING SYSTEM VALUE VALUES (9000000000000000000, $1, 2, 'board', 'bp_x', 'put', '{}')",
            [bobDevice])
        // Migrated; a device of version 2 still running can no longer write the tables (below: 42501).
        #expect(try SyncSchema.setUp(owner, upTo: 3) == .migrated(from: 2, to: 3))
        #expect(try SyncSchema.setUp(owner, upTo: 3) == .upToDate(version: 3))
        let kept = try owner.execute("SELECT entity, op, body IS NULL FROM satchel.changes ORDER BY seq").map { $0.compactMap { $0 } }
        #expect(kept == [["bp_1", "put", "f"], ["note_b", "put", "f"], ["note_a", "delete", "t"], ["bp_1/\(database.roles["bob"]!)", "put", "f"]])
        // Each account pulls what it may, as before; the devices go on through the functions.
        #expect(try Self.pulled(alice) == ["bp_1", "note_b", "note_a", "bp_1/\(database.roles["bob"]!)"])
        // A device of version 2 had one position for every account (the key ""): taken as it is, unless it
        // is past the log's end (where the row that stopped every device put it): then from the start.
        let from = { (since: String) in
            try alice.execute("SELECT entity FROM satchel.pull($1::jsonb, 100, 1000000)", [since]).compactMap { $0[0] }
        }
        #expect(try from(#"{"": 2}"#) == ["note_b", "note_a", "bp_1/\(database.roles["bob"]!)"])
        #expect(try from(#"{"": 9000000000000000000}"#).count == 4)
        #expect(try Self.pulled(bob) == ["bp_1", "bp_1/\(database.roles["bob"]!)"])
        #expect(Self.sqlState { try alice.execute(insert, [aliceDevice, "5", "notes", "n", "put", "{}"]) } == "42501")
        try Self.add(alice, device: aliceDevice, "notes", "note_c")
        #expect(try Self.pulled(alice).last == "note_c")
        // Bob's post stays his, his vote his.
        let refusedDelete = Self.sqlState {
            try bob.execute(
                "SELECT satchel.push($1::uuid, '[{\"device_seq\": 9, \"domain\": \"board\", \"entity\": \"bp_1\", \"op\": \"delete\"}]')",
                [bobDevice])
        }
        #expect(refusedDelete == SyncSchema.refused)
    }

    @Test func devicesRunNoDDLAndTheCommandSaysWhatItDid() throws {
        let database = try Self.cluster().database(accounts: ["alice"])
        // A device role cannot make the schema itself: the database's owner does.
        #expect(throws: PGError.self) { try SyncSchema.setUp(try database.connect("alice")) }
        let first = try SatchelProcess(["sync-setup", database.ownerURI])
        #expect(first.readLine()?.contains("created the sync schema (version \(SyncSchema.version))") == true)
        #expect(first.waitForExit() == 0)
        let again = try SatchelProcess(["sync-setup", database.ownerURI])
        #expect(again.readLine()?.contains("up to date") == true)
        #expect(again.waitForExit() == 0)
        let unreachable = try SatchelProcess(["sync-setup", "postgresql://someone:hunter2@127.0.0.1:9/nowhere?connect_timeout=2"])
        #expect(unreachable.waitForExit() == 1)
        let said = unreachable.standardError()
        #expect(said.contains("satchel sync-setup: someone@127.0.0.1/nowhere"))
        #expect(!said.contains("hunter2"), "a password never appears")
        let wrong = try SatchelProcess(["sync-setup", "postgresql://%zz"])
        #expect(wrong.waitForExit() == 2)
    }
}

/// A value shared between threads behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
