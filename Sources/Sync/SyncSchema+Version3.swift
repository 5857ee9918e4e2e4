/// Schema version 3, its tables: taken from every role but their owner, a device id made an account's own,
/// rows placed past the log's own sequence removed, each row's size and images kept beside it, the indexes
/// a pull takes per account, the accounts (their lock and quotas) and who wrote each shared entity, and the
/// content of deleted versions removed. The functions that are all a device may call come after them
/// (SyncSchema+Functions.swift, SyncSchema+Push.swift).
extension SyncSchema {
    static let v3Tables: [String] = [
        // Only the functions (SyncSchema+Functions.swift) touch the tables: no grant to PUBLIC, and the
        // owner's functions are not held to the row policies (each filters by `session_user` itself).
        "REVOKE ALL ON satchel.devices, satchel.changes, satchel.images FROM PUBLIC",
        "ALTER TABLE satchel.devices NO FORCE ROW LEVEL SECURITY",
        "ALTER TABLE satchel.changes NO FORCE ROW LEVEL SECURITY",
        "ALTER TABLE satchel.images NO FORCE ROW LEVEL SECURITY",
        "DROP POLICY shared_rules ON satchel.changes",
        "DROP POLICY own_device_writes ON satchel.changes",
        "DROP FUNCTION satchel.author(text, text)",
        "ALTER TABLE satchel.changes ALTER COLUMN account DROP DEFAULT",
        "ALTER TABLE satchel.devices ALTER COLUMN account DROP DEFAULT",
        "ALTER TABLE satchel.images ALTER COLUMN account DROP DEFAULT",
        // A device id is its account's: another account naming the same id makes a device of its own.
        "ALTER TABLE satchel.changes DROP CONSTRAINT changes_device_fkey",
        "ALTER TABLE satchel.changes DROP CONSTRAINT changes_device_device_seq_key",
        "ALTER TABLE satchel.devices DROP CONSTRAINT devices_pkey",
        "ALTER TABLE satchel.devices ADD PRIMARY KEY (account, id)",
        "ALTER TABLE satchel.changes ADD CONSTRAINT changes_device_seq UNIQUE (account, device, device_seq)",
        // How far each device has pulled its own account's rows (what it sent as its cursor): a superseded
        // version every device of the account has pulled is needed by none (see `satchel.push`).
        "ALTER TABLE satchel.devices ADD COLUMN pulled bigint NOT NULL DEFAULT 0",
        // Rows a device placed itself (OVERRIDING SYSTEM VALUE, before version 3) beyond the log's own
        // sequence never were the log's: they go.
        """
        DELETE FROM satchel.changes
        WHERE seq > coalesce(pg_sequence_last_value(pg_get_serial_sequence('satchel.changes', 'seq')), 0)
        """,
        // A row's size (its body's JSON text) and the images it shows, kept beside it.
        "ALTER TABLE satchel.changes ADD COLUMN bytes integer NOT NULL DEFAULT 0",
        "ALTER TABLE satchel.changes ADD COLUMN images text[]",
        """
        UPDATE satchel.changes SET bytes = coalesce(octet_length(body::text), 0),
            images = CASE
                WHEN domain = 'photos' AND jsonb_typeof(body -> 'image') = 'string' THEN ARRAY[body ->> 'image']
                WHEN domain = 'diary' AND jsonb_typeof(body -> 'images') = 'array'
                    THEN ARRAY(SELECT jsonb_array_elements_text(body -> 'images'))
            END
        """,
        "CREATE INDEX changes_account ON satchel.changes (account, seq)",
        "CREATE INDEX changes_shared ON satchel.changes (account, seq) WHERE domain IN ('messages', 'board', 'votes')",
        "CREATE INDEX changes_images ON satchel.changes USING gin (images) WHERE images IS NOT NULL",
        "CREATE INDEX changes_votes ON satchel.changes ((body ->> 'post')) WHERE domain = 'votes'",
        // Every account that has pushed: its row orders its pushes and keeps its quotas.
        """
        CREATE TABLE satchel.accounts (
            name name PRIMARY KEY,
            window_start timestamptz NOT NULL DEFAULT now(),
            window_rows bigint NOT NULL DEFAULT 0,
            window_bytes bigint NOT NULL DEFAULT 0,
            stored_bytes bigint NOT NULL DEFAULT 0)
        """,
        """
        INSERT INTO satchel.accounts(name, stored_bytes)
        SELECT account, sum(bytes) FROM satchel.changes GROUP BY account
        ON CONFLICT (name) DO NOTHING
        """,
        """
        INSERT INTO satchel.accounts(name) SELECT DISTINCT account FROM satchel.images ON CONFLICT (name) DO NOTHING
        """,
        """
        UPDATE satchel.accounts a SET stored_bytes = a.stored_bytes
            + coalesce((SELECT sum(octet_length(data)) FROM satchel.images i WHERE i.account = a.name), 0)
        """,
        // Who wrote each shared message and post (its first row), and whether it is deleted.
        """
        CREATE TABLE satchel.shared_entities (
            domain text NOT NULL,
            entity text NOT NULL,
            author name NOT NULL,
            deleted boolean NOT NULL DEFAULT false,
            PRIMARY KEY (domain, entity))
        """,
        """
        INSERT INTO satchel.shared_entities(domain, entity, author, deleted)
        SELECT DISTINCT ON (domain, entity) domain, entity, account,
            (SELECT c2.op = 'delete' FROM satchel.changes c2 WHERE c2.domain = c.domain AND c2.entity = c.entity
             ORDER BY c2.seq DESC LIMIT 1)
        FROM satchel.changes c WHERE domain IN ('messages', 'board') ORDER BY domain, entity, seq
        """,
        "ALTER TABLE satchel.accounts ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE satchel.shared_entities ENABLE ROW LEVEL SECURITY",
        "REVOKE ALL ON satchel.accounts, satchel.shared_entities FROM PUBLIC",
        // The deleted content of old versions leaves (a bare tombstone stays): before version 3 nothing did.
        """
        DELETE FROM satchel.changes c WHERE c.op = 'put' AND EXISTS (
            SELECT 1 FROM satchel.changes d
            WHERE d.account = c.account AND d.domain = c.domain AND d.entity = c.entity AND d.op = 'delete'
              AND d.seq > c.seq)
        """,
        """
        DELETE FROM satchel.images i WHERE NOT EXISTS (
            SELECT 1 FROM satchel.changes c WHERE c.account = i.account AND c.images @> ARRAY[i.sha256])
        """,
    ]
}
