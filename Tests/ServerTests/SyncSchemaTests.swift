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
            try database.connect(account).execute("INSERT INTO satchel.devices(id) VALUES ($1)", [device])
            devices[account] = device
        }
        return (database, devices)
    }

    static func add(_ connection: PGConnection, device: String, _ domain: String, _ entity: String) throws {
        try connection.execute(
            """
            INSERT INTO satchel.changes(device, device_seq, domain, entity, op, body)
            VALUES ($1, (SELECT count(*) FROM satchel.changes), $2, $3, 'put', '{}')
            """,
            [device, domain, entity])
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
        let forced = try owner.execute(
            "SELECT relname FROM pg_class WHERE relnamespace = 'satchel'::regnamespace AND relkind = 'r' AND relrowsecurity AND relforcerowsecurity ORDER BY 1")
        #expect(forced.map { $0[0] } == ["changes", "devices", "images"])

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
        let seen = { (connection: PGConnection) in
            try connection.execute("SELECT entity FROM satchel.changes ORDER BY entity").map { $0[0] ?? "" }
        }
        #expect(try seen(alice) == ["msg_a", "note_a", "post_b"])
        #expect(try seen(bob) == ["msg_a", "post_b", "post_private_b"])
        #expect(try bob.execute("SELECT count(*) FROM satchel.devices") == [["1"]], "only its own devices")
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
        try bob.execute("SET row_security = off")
        #expect(Self.sqlState { try bob.execute("SELECT * FROM satchel.changes") } == "42501", "refused, not widened")
        try bob.execute("RESET row_security")
        #expect(Self.sqlState { try bob.execute("CREATE VIEW satchel.everything AS SELECT * FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("CREATE VIEW public.everything AS SELECT * FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("UPDATE satchel.changes SET account = current_user") } == "42501")
        #expect(Self.sqlState { try bob.execute("DELETE FROM satchel.changes") } == "42501")
        #expect(Self.sqlState { try bob.execute("TRUNCATE satchel.changes") } == "42501")
        // Writing as Alice, or through her device, is refused by the policy.
        let asAlice =
            "INSERT INTO satchel.changes(account, device, device_seq, domain, entity, op) VALUES ($1, $2, 99, 'notes', 'forged', 'put')"
        #expect(Self.sqlState { try bob.execute(asAlice, [database.roles["alice"]!, devices["alice"]!]) } == "42501")
        #expect(Self.sqlState {
            try Self.add(bob, device: devices["alice"]!, "notes", "through her device")
        } == "42501")
        #expect(try bob.execute("SELECT count(*) FROM satchel.changes WHERE entity = 'secret'") == [["0"]])
        #expect(try alice.execute("SELECT count(*) FROM satchel.changes") == [["1"]])
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
