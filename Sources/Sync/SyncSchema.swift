/// The PostgreSQL side of sync (SPEC §14): the schema `satchel`, made and migrated by `satchel sync-setup`,
/// run once by a role that owns it and syncs nothing itself (the database's owner, say). Devices never run
/// DDL: they read ``SyncSchema/version`` and say in words when it is missing, older or newer.
///
/// Every role that may connect to the database may sync, as its own account. Since version 3 a device's
/// role is granted no table: it pushes, pulls and moves photo bytes only through the functions of
/// SyncSchema+Functions.swift, which check every row and keep each account to its own private rows, while
/// every account reads the shared ones (Board and Messages). A device's role owns nothing here, so no SQL
/// it runs can change that. A superuser, a role with `BYPASSRLS` or the schema's owner could read every
/// account: a device refuses to sync as one (``SyncService``).
public enum SyncSchema {
    /// The version this satchel reads and writes.
    public static let version = 4

    /// Domains every account of the database shares.
    public static let sharedDomains = ["messages", "board", "votes"]

    /// Each version's statements, in order; version N is `migrations[N - 1]`.
    static let migrations: [[String]] = [
        [
            "CREATE SCHEMA IF NOT EXISTS satchel",
            "REVOKE ALL ON SCHEMA satchel FROM PUBLIC",
            "GRANT USAGE ON SCHEMA satchel TO PUBLIC",
            "CREATE TABLE satchel.meta (key text PRIMARY KEY, value text NOT NULL)",
            // A device: made once per local database, belonging to the account that made it.
            """
            CREATE TABLE satchel.devices (
                id uuid PRIMARY KEY,
                account name NOT NULL DEFAULT current_user,
                name text NOT NULL DEFAULT '',
                created_at timestamptz NOT NULL DEFAULT now())
            """,
            // The log every device pushes to and pulls from, in `seq` order: each row is one entity's state
            // (`put`) or its deletion, by one account's device. `device_seq` is the change's place in its
            // device's own log: a push that is repeated (its answer was lost) adds nothing twice. `base` is
            // the row of the same entity the device had seen when it pushed (none: it had seen none).
            """
            CREATE TABLE satchel.changes (
                seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                account name NOT NULL DEFAULT current_user,
                device uuid NOT NULL REFERENCES satchel.devices(id),
                device_seq bigint NOT NULL,
                domain text NOT NULL
                    CHECK (domain IN ('notes', 'photos', 'images', 'diary', 'reminders', 'messages', 'board', 'votes')),
                entity text NOT NULL,
                op text NOT NULL CHECK (op IN ('put', 'delete')),
                body jsonb,
                base bigint,
                at timestamptz NOT NULL DEFAULT now(),
                UNIQUE (device, device_seq))
            """,
            "CREATE INDEX changes_entity ON satchel.changes (domain, entity)",
            // Image bytes, each content once per account.
            """
            CREATE TABLE satchel.images (
                account name NOT NULL DEFAULT current_user,
                sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
                data bytea NOT NULL,
                PRIMARY KEY (account, sha256))
            """,
            """
            CREATE FUNCTION satchel.is_shared(domain text) RETURNS boolean LANGUAGE sql IMMUTABLE
            AS $$ SELECT domain IN ('messages', 'board', 'votes') $$
            """,
            // The schema's version: everyone reads it, only its owner (not forced) writes it.
            "ALTER TABLE satchel.meta ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY everyone_reads ON satchel.meta FOR SELECT USING (true)",
            "ALTER TABLE satchel.devices ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE satchel.devices FORCE ROW LEVEL SECURITY",
            "CREATE POLICY own_devices ON satchel.devices USING (account = current_user) WITH CHECK (account = current_user)",
            "ALTER TABLE satchel.changes ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE satchel.changes FORCE ROW LEVEL SECURITY",
            """
            CREATE POLICY own_or_shared ON satchel.changes FOR SELECT
            USING (account = current_user OR satchel.is_shared(domain))
            """,
            """
            CREATE POLICY own_device_writes ON satchel.changes FOR INSERT
            WITH CHECK (account = current_user
                AND device IN (SELECT id FROM satchel.devices WHERE account = current_user))
            """,
            "ALTER TABLE satchel.images ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE satchel.images FORCE ROW LEVEL SECURITY",
            "CREATE POLICY own_images ON satchel.images USING (account = current_user) WITH CHECK (account = current_user)",
            // Devices read and append; nobody but the owner changes or removes what is there.
            "REVOKE ALL ON satchel.meta, satchel.devices, satchel.changes, satchel.images FROM PUBLIC",
            "GRANT SELECT ON satchel.meta TO PUBLIC",
            "GRANT SELECT, INSERT ON satchel.devices, satchel.changes, satchel.images TO PUBLIC",
        ],
        [
            // The fields a row changed since its `base` (merging takes those; none: every field).
            "ALTER TABLE satchel.changes ADD COLUMN fields text[]",
            // Who wrote a shared entity: the account of its first row.
            """
            CREATE FUNCTION satchel.author(d text, e text) RETURNS name LANGUAGE sql STABLE
            AS $$ SELECT account FROM satchel.changes WHERE domain = d AND entity = e ORDER BY seq LIMIT 1 $$
            """,
            // The shared domains' rules, on top of writing as oneself: a message or a board post is changed
            // and deleted by its author alone; a vote is the writer's own (`<post>/<account>`), one per
            // account and post, and is withdrawn ("none"), never deleted.
            """
            CREATE POLICY shared_rules ON satchel.changes AS RESTRICTIVE FOR INSERT WITH CHECK (
                CASE domain
                    WHEN 'votes' THEN op = 'put' AND entity = (body ->> 'post') || '/' || current_user
                        AND body ->> 'direction' IN ('up', 'down', 'none')
                    WHEN 'messages' THEN coalesce(satchel.author(domain, entity), current_user) = current_user
                    WHEN 'board' THEN coalesce(satchel.author(domain, entity), current_user) = current_user
                    ELSE true
                END)
            """,
        ],
        v3,
        v4,
    ]

    /// What `satchel sync-setup` did.
    public enum Outcome: Equatable, Sendable {
        case created(version: Int)
        case migrated(from: Int, to: Int)
        case upToDate(version: Int)
    }

    /// Creates or migrates the schema over `connection`, in one transaction under an advisory lock, so two
    /// runs at once end with one schema (the second finds it up to date).
    /// (`upTo`: an earlier version, for the tests of migrations.)
    public static func setUp(_ connection: PGConnection, upTo target: Int = version) throws(PGError) -> Outcome {
        try connection.transaction { () throws(PGError) -> Outcome in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('satchel sync-setup'))")
            let found = try installedVersion(connection)
            if found > version {
                throw PGError(
                    kind: .statement, sqlState: nil,
                    message: "the schema is at version \(found), newer than this satchel's \(version): use a newer satchel")
            }
            if found >= target { return .upToDate(version: found) }
            for statements in migrations[found..<target] {
                for statement in statements { try connection.execute(statement) }
            }
            try connection.execute(
                "INSERT INTO satchel.meta(key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = $1",
                [String(target)])
            return found == 0 ? .created(version: target) : .migrated(from: found, to: target)
        }
    }

    /// The schema's version in this database: 0 when there is none.
    public static func installedVersion(_ connection: PGConnection) throws(PGError) -> Int {
        let exists = try connection.execute("SELECT to_regclass('satchel.meta') IS NOT NULL")
        guard exists.first?.first == "t" else { return 0 }
        let rows = try connection.execute("SELECT value FROM satchel.meta WHERE key = 'schema_version'")
        return rows.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
    }
}
