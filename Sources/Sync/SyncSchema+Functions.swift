/// Schema version 3: devices write and read only through functions (docs/protocol.md, "Sync: what PostgreSQL
/// accepts"). A device's role is granted no table at all; it calls `SECURITY DEFINER` functions owned by
/// the schema's owner, with a pinned `search_path`, which take the account from `session_user` (the role
/// the device logged in as), give each row its place in the log, and check each before it is stored.
///
/// The log's order without a lock any other role can take: each account's pushes run one at a time under
/// that account's own row in `satchel.accounts` (no device role may lock it: locking a row needs UPDATE),
/// so within one account the log's order is the order of its commits; a device keeps a cursor per account
/// (`{"alice": 120, "bob": 97}`), never one number for everyone. One account can only ever hold back its
/// own pushes.
extension SyncSchema {
    /// The caps a push is held to, unless the schema's owner sets others in `satchel.meta`.
    public enum Caps {
        /// The largest row body (its JSON text), in bytes.
        public static let bodyBytes = 8 << 20
        /// The largest image, in bytes (`satchel.meta` `max_image_bytes`).
        public static let imageBytes = 20 << 20
        /// Rows an account may push in one minute.
        public static let rowsPerMinute = 200_000
        /// Bytes (row bodies and images) an account may push in one minute.
        public static let bytesPerMinute = 512 << 20
        /// Bytes an account may keep in PostgreSQL in all (rows and images).
        public static let bytesInAll = 8 << 30
        /// Rows in one push.
        public static let rowsPerPush = 1000
    }

    /// SQLSTATEs of the functions' refusals: `SY001` a quota is used up (it frees itself within a minute, or
    /// when the account deletes); `SY002` a row or image breaks a rule (the message names it and why).
    public static let quotaExceeded = "SY001"
    public static let refused = "SY002"

    static let v3: [String] = [
        // Only the functions below touch the tables: no grant to PUBLIC, and the owner's functions are not
        // held to the row policies (each filters by `session_user` itself).
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
        // A cap or quota the schema's owner set, else the default.
        """
        CREATE FUNCTION satchel.setting(key text, fallback bigint) RETURNS bigint LANGUAGE sql STABLE
        SET search_path = pg_catalog, pg_temp
        AS $$ SELECT coalesce((SELECT value::bigint FROM satchel.meta m WHERE m.key = setting.key), fallback) $$
        """,
        // An entity id: 1 to 128 bytes, no "/", no white space nor control characters.
        """
        CREATE FUNCTION satchel.valid_id(id text) RETURNS boolean LANGUAGE sql IMMUTABLE
        SET search_path = pg_catalog, pg_temp
        AS $$ SELECT id IS NOT NULL AND octet_length(id) BETWEEN 1 AND 128 AND id !~ '[/[:space:][:cntrl:]]' $$
        """,
        // What an image's first bytes say it is (JPEG, PNG, GIF, WebP, HEIF): nothing else is kept.
        """
        CREATE FUNCTION satchel.is_image(data bytea) RETURNS boolean LANGUAGE sql IMMUTABLE
        SET search_path = pg_catalog, pg_temp
        AS $$ SELECT substring(data FROM 1 FOR 3) = '\\xffd8ff'::bytea
            OR substring(data FROM 1 FOR 8) = '\\x89504e470d0a1a0a'::bytea
            OR substring(data FROM 1 FOR 6) IN ('GIF87a'::bytea, 'GIF89a'::bytea)
            OR (substring(data FROM 1 FOR 4) = 'RIFF'::bytea AND substring(data FROM 9 FOR 4) = 'WEBP'::bytea)
            OR (substring(data FROM 5 FOR 4) = 'ftyp'::bytea
                AND substring(data FROM 9 FOR 4) IN ('heic'::bytea, 'heix'::bytea, 'heim'::bytea, 'heis'::bytea,
                    'hevc'::bytea, 'hevx'::bytea, 'hevm'::bytea, 'hevs'::bytea, 'mif1'::bytea, 'msf1'::bytea,
                    'mif2'::bytea)) $$
        """,
        // Takes `more_rows` rows and `more_bytes` bytes of the calling account's quotas (its row is held,
        // locked, by the caller), or refuses with SY001.
        """
        CREATE FUNCTION satchel.spend(me name, more_rows bigint, more_bytes bigint) RETURNS void
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            a record;
        BEGIN
            SELECT * INTO a FROM satchel.accounts WHERE name = me;
            IF a.window_start < now() - interval '1 minute' THEN
                a.window_start := now(); a.window_rows := 0; a.window_bytes := 0;
            END IF;
            IF a.window_rows + more_rows > satchel.setting('quota_rows_per_minute', \(Caps.rowsPerMinute)) THEN
                RAISE EXCEPTION USING ERRCODE = 'SY001', MESSAGE = format(
                    'quota exceeded: %s rows a minute (it frees itself within a minute)',
                    satchel.setting('quota_rows_per_minute', \(Caps.rowsPerMinute)));
            END IF;
            IF a.window_bytes + more_bytes > satchel.setting('quota_bytes_per_minute', \(Caps.bytesPerMinute)) THEN
                RAISE EXCEPTION USING ERRCODE = 'SY001', MESSAGE = format(
                    'quota exceeded: %s bytes a minute (it frees itself within a minute)',
                    satchel.setting('quota_bytes_per_minute', \(Caps.bytesPerMinute)));
            END IF;
            IF a.stored_bytes + more_bytes > satchel.setting('quota_bytes_in_all', \(Caps.bytesInAll)) THEN
                RAISE EXCEPTION USING ERRCODE = 'SY001', MESSAGE = format(
                    'quota exceeded: %s bytes in all (delete something, or ask for more)',
                    satchel.setting('quota_bytes_in_all', \(Caps.bytesInAll)));
            END IF;
            UPDATE satchel.accounts SET window_start = a.window_start, window_rows = a.window_rows + more_rows,
                window_bytes = a.window_bytes + more_bytes, stored_bytes = a.stored_bytes + more_bytes
            WHERE name = me;
        END $$
        """,
        // The calling account's row, made when first needed, locked until the caller's transaction ends.
        """
        CREATE FUNCTION satchel.hold_account(me name) RETURNS void LANGUAGE plpgsql
        SET search_path = pg_catalog, pg_temp
        AS $$
        BEGIN
            INSERT INTO satchel.accounts(name) VALUES (me) ON CONFLICT (name) DO NOTHING;
            PERFORM 1 FROM satchel.accounts WHERE name = me FOR UPDATE;
        END $$
        """,
        // A device of the calling account (made once; its name a person may set).
        """
        CREATE FUNCTION satchel.register(device uuid, device_name text DEFAULT '') RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        BEGIN
            IF device IS NULL OR octet_length(coalesce(device_name, '')) > 200 THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'a device needs an id, and a name of at most 200 bytes';
            END IF;
            INSERT INTO satchel.devices(account, id, name) VALUES (session_user, device, coalesce(device_name, ''))
            ON CONFLICT (account, id) DO NOTHING;
        END $$
        """,
        // Image bytes, each content once per account: the bytes must be the content their name says, an
        // image by its header, within the cap.
        """
        CREATE FUNCTION satchel.put_image(sha256 text, data bytea) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            me name := session_user;
            cap bigint := satchel.setting('max_image_bytes', \(Caps.imageBytes));
        BEGIN
            IF sha256 IS NULL OR sha256 !~ '^[0-9a-f]{64}$' THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'an image is named by its SHA-256, 64 hex digits';
            END IF;
            IF data IS NULL OR octet_length(data) > cap THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('image %s: over the cap of %s bytes', sha256, cap);
            END IF;
            IF encode(pg_catalog.sha256(data), 'hex') <> sha256 THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('image %s: its bytes have another SHA-256', sha256);
            END IF;
            IF NOT satchel.is_image(data) THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('image %s: not a JPEG, PNG, GIF, WebP or HEIF image', sha256);
            END IF;
            PERFORM satchel.hold_account(me);
            IF EXISTS (SELECT 1 FROM satchel.images i WHERE i.account = me AND i.sha256 = put_image.sha256) THEN
                RETURN;
            END IF;
            PERFORM satchel.spend(me, 0, octet_length(data));
            INSERT INTO satchel.images(account, sha256, data) VALUES (me, put_image.sha256, data);
        END $$
        """,
        // Which of these images the calling account has in PostgreSQL.
        """
        CREATE FUNCTION satchel.images_present(wanted text[]) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$ SELECT i.sha256 FROM satchel.images i WHERE i.account = session_user AND i.sha256 = ANY(wanted) $$
        """,
        // The calling account's images by content (at most 16 at once).
        """
        CREATE FUNCTION satchel.get_images(wanted text[]) RETURNS TABLE(sha256 text, data bytea)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$ SELECT i.sha256, i.data FROM satchel.images i
              WHERE i.account = session_user AND i.sha256 = ANY(wanted[1:16]) $$
        """,
        // Why a row of a push is refused (`NULL`: it is not), by what the row says alone: its shape, its
        // domain and operation, its id, its size, its fields and images, a vote's entity and direction.
        """
        CREATE FUNCTION satchel.row_fault(v jsonb, me name, cap bigint) RETURNS text LANGUAGE sql IMMUTABLE
        SET search_path = pg_catalog, pg_temp
        AS $$ SELECT CASE
            WHEN jsonb_typeof(v) IS DISTINCT FROM 'object' OR coalesce(v ->> 'device_seq', '') !~ '^-?[1-9][0-9]{0,17}$'
                THEN 'not an object with a device_seq'
            WHEN coalesce(v ->> 'domain', '') NOT IN ('notes', 'photos', 'diary', 'reminders', 'messages', 'board', 'votes')
                THEN 'no such domain'
            WHEN coalesce(v ->> 'op', '') NOT IN ('put', 'delete') THEN 'op is put or delete'
            WHEN v ->> 'op' = 'put' AND jsonb_typeof(v -> 'body') IS DISTINCT FROM 'object'
                THEN 'a put carries an object body'
            WHEN v ->> 'op' = 'delete' AND coalesce(jsonb_typeof(v -> 'body'), 'null') <> 'null'
                THEN 'a delete carries no body'
            WHEN coalesce(octet_length((v -> 'body')::text), 0) > cap
                THEN format('a body of %s bytes, over the cap of %s', octet_length((v -> 'body')::text), cap)
            WHEN coalesce(jsonb_typeof(v -> 'base'), 'null') NOT IN ('null', 'number')
                OR (jsonb_typeof(v -> 'base') = 'number' AND (v ->> 'base') !~ '^[1-9][0-9]{0,17}$')
                THEN 'base is a log position'
            WHEN coalesce(jsonb_typeof(v -> 'fields'), 'null') NOT IN ('null', 'array')
                OR (jsonb_typeof(v -> 'fields') = 'array' AND (jsonb_array_length(v -> 'fields') > 32
                    OR EXISTS (SELECT 1 FROM jsonb_array_elements(v -> 'fields') f
                               WHERE jsonb_typeof(f) <> 'string' OR f #>> '{}' !~ '^[a-z][A-Za-z]{0,31}$')))
                THEN 'fields are at most 32 field names'
            WHEN coalesce(jsonb_typeof(v -> 'images'), 'null') NOT IN ('null', 'array')
                OR (jsonb_typeof(v -> 'images') = 'array' AND (jsonb_array_length(v -> 'images') > 32
                    OR EXISTS (SELECT 1 FROM jsonb_array_elements(v -> 'images') h
                               WHERE jsonb_typeof(h) <> 'string' OR h #>> '{}' !~ '^[0-9a-f]{64}$')))
                THEN 'images are at most 32 SHA-256 names'
            WHEN jsonb_typeof(v -> 'images') = 'array' AND jsonb_array_length(v -> 'images') > 0
                AND (v ->> 'op' = 'delete' OR v ->> 'domain' NOT IN ('photos', 'diary'))
                THEN 'only a photo note or diary post shows images'
            WHEN v ->> 'domain' = 'votes' AND v ->> 'op' <> 'put' THEN 'a vote is withdrawn (none), never deleted'
            WHEN v ->> 'domain' = 'votes' AND (NOT satchel.valid_id(v -> 'body' ->> 'post')
                    OR (v ->> 'entity') IS DISTINCT FROM (v -> 'body' ->> 'post') || '/' || me)
                THEN format('a vote is its account''s own, on one post: <post>/%s', me)
            WHEN v ->> 'domain' = 'votes' AND coalesce(v -> 'body' ->> 'direction', '') NOT IN ('up', 'down', 'none')
                THEN 'a vote is up, down or none'
            WHEN v ->> 'domain' <> 'votes' AND NOT satchel.valid_id(v ->> 'entity')
                THEN 'an id is 1 to 128 bytes, without "/", spaces or control characters'
            WHEN v ->> 'domain' <> 'votes' AND v ->> 'op' = 'put' AND (v -> 'body' ->> 'id') IS DISTINCT FROM v ->> 'entity'
                THEN 'its body is of another entity'
        END $$
        """,
        // A push: rows of one device of the calling account (a JSON array of at most 1000 objects). Every row
        // is checked first, and a row breaking a rule refuses the whole push (SY002: "row N: why"); then the
        // private apps' rows go in at once, the shared ones (and every deletion) one by one, each kept to its
        // rules: authorship, votes on posts that exist. Each row is given its place in the log here; a row
        // already pushed (same device and device_seq) adds nothing. A deletion that wins (it had seen every
        // other device's version) takes every earlier version's content, and the photo bytes no row of the
        // account shows any more.
        """
        CREATE FUNCTION satchel.push(device uuid, rows jsonb) RETURNS integer
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            me name := session_user;
            cap bigint := satchel.setting('max_body_bytes', \(Caps.bodyBytes));
            bad record;
            r record;
            found_author name;
            was_deleted boolean;
            placed bigint;
            freed bigint;
            gone text[];
            added integer := 0;
            spent bigint := 0;
            fresh bigint[];
        BEGIN
            IF device IS NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'a push names its device';
            END IF;
            IF jsonb_typeof(rows) IS DISTINCT FROM 'array' OR jsonb_array_length(rows) > \(Caps.rowsPerPush) THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'a push is a JSON array of at most \(Caps.rowsPerPush) rows';
            END IF;
            SELECT x.ordinality - 1 AS i, satchel.row_fault(x.value, me, cap) AS why INTO bad
            FROM jsonb_array_elements(rows) WITH ORDINALITY AS x
            WHERE satchel.row_fault(x.value, me, cap) IS NOT NULL ORDER BY x.ordinality LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('row %s: %s', bad.i, bad.why);
            END IF;
            SELECT x.ordinality - 1 AS i INTO bad
            FROM jsonb_array_elements(rows) WITH ORDINALITY AS x
            WHERE jsonb_typeof(x.value -> 'images') = 'array' AND EXISTS (
                SELECT 1 FROM jsonb_array_elements_text(x.value -> 'images') h WHERE NOT EXISTS (
                    SELECT 1 FROM satchel.images m WHERE m.account = me AND m.sha256 = h))
            ORDER BY x.ordinality LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('row %s: shows an image not uploaded', bad.i);
            END IF;
            PERFORM satchel.hold_account(me);
            INSERT INTO satchel.devices(account, id) VALUES (me, device) ON CONFLICT (account, id) DO NOTHING;
            -- The usual rows, the private apps' versions, in at once (unless this device pushed them before).
            WITH usual AS (
                INSERT INTO satchel.changes(account, device, device_seq, domain, entity, op, body, base, fields, bytes, images)
                SELECT me, device, (x.value ->> 'device_seq')::bigint, x.value ->> 'domain', x.value ->> 'entity', 'put',
                    x.value -> 'body', (x.value ->> 'base')::bigint,
                    CASE WHEN jsonb_typeof(x.value -> 'fields') = 'array'
                         THEN ARRAY(SELECT jsonb_array_elements_text(x.value -> 'fields')) END,
                    octet_length((x.value -> 'body')::text),
                    CASE WHEN jsonb_typeof(x.value -> 'images') = 'array' AND jsonb_array_length(x.value -> 'images') > 0
                         THEN ARRAY(SELECT jsonb_array_elements_text(x.value -> 'images')) END
                FROM jsonb_array_elements(rows) WITH ORDINALITY AS x
                WHERE x.value ->> 'domain' IN ('notes', 'photos', 'diary', 'reminders') AND x.value ->> 'op' = 'put'
                ORDER BY abs((x.value ->> 'device_seq')::bigint), (x.value ->> 'device_seq')::bigint DESC
                ON CONFLICT ON CONSTRAINT changes_device_seq DO NOTHING
                RETURNING seq, base, bytes)
            SELECT count(*), coalesce(sum(usual.bytes), 0),
                coalesce(array_agg(usual.seq) FILTER (WHERE usual.base IS NOT NULL), '{}')  -- edits: what can supersede
            INTO added, spent, fresh
            FROM usual;
            -- The versions these supersede go once every device of the account has pulled them (a device
            -- that merged them needs them no more) and every later row of the entity stood on them (its
            -- `base`): then a device that comes later, starting from the first row left, works out what the
            -- others did (docs/protocol.md, "Deleting deletes"). Until then they stay, for a device that was
            -- away to merge with.
            IF cardinality(fresh) > 0 THEN
                WITH candidates AS (
                    SELECT c.domain, c.entity, max(c.seq) AS through
                    FROM satchel.changes c JOIN satchel.changes n
                        ON n.account = me AND n.domain = c.domain AND n.entity = c.entity AND n.seq = ANY(fresh)
                    WHERE c.account = me AND c.op = 'put' AND c.seq < n.seq
                      AND c.seq <= (SELECT min(dv.pulled) FROM satchel.devices dv WHERE dv.account = me)
                    GROUP BY c.domain, c.entity),
                settled AS (
                    SELECT k.* FROM candidates k WHERE NOT EXISTS (
                        SELECT 1 FROM satchel.changes later
                        WHERE later.account = me AND later.domain = k.domain AND later.entity = k.entity
                          AND later.seq > k.through AND coalesce(later.base, 0) < k.through)),
                superseded AS (
                    DELETE FROM satchel.changes c USING settled k
                    WHERE c.account = me AND c.domain = k.domain AND c.entity = k.entity AND c.op = 'put'
                      AND c.seq <= k.through
                    RETURNING c.bytes, c.images)
                SELECT coalesce(sum(superseded.bytes), 0), coalesce(array_agg(DISTINCT h) FILTER (WHERE h IS NOT NULL), '{}')
                INTO freed, gone
                FROM superseded LEFT JOIN LATERAL unnest(superseded.images) h ON true;
                IF freed > 0 THEN
                    WITH unshown AS (
                        DELETE FROM satchel.images m WHERE m.account = me AND m.sha256 = ANY(gone)
                            AND NOT EXISTS (SELECT 1 FROM satchel.changes c WHERE c.account = me AND c.images @> ARRAY[m.sha256])
                        RETURNING octet_length(m.data) AS size)
                    SELECT freed + coalesce(sum(unshown.size), 0) INTO freed FROM unshown;
                    UPDATE satchel.accounts SET stored_bytes = greatest(0, stored_bytes - freed) WHERE name = me;
                END IF;
            END IF;
            -- The rest one by one, in the order of the device's log (a post before a vote on it).
            FOR r IN
                SELECT x.ordinality - 1 AS i, (x.value ->> 'device_seq')::bigint AS dseq, x.value ->> 'domain' AS d,
                    x.value ->> 'entity' AS e, x.value ->> 'op' AS o, nullif(x.value -> 'body', 'null'::jsonb) AS b,
                    (x.value ->> 'base')::bigint AS row_base,
                    CASE WHEN jsonb_typeof(x.value -> 'fields') = 'array'
                         THEN ARRAY(SELECT jsonb_array_elements_text(x.value -> 'fields')) END AS row_fields,
                    CASE WHEN jsonb_typeof(x.value -> 'images') = 'array' AND jsonb_array_length(x.value -> 'images') > 0
                         THEN ARRAY(SELECT jsonb_array_elements_text(x.value -> 'images')) END AS shown,
                    coalesce(octet_length(nullif(x.value -> 'body', 'null'::jsonb)::text), 0) AS size
                FROM jsonb_array_elements(rows) WITH ORDINALITY AS x
                WHERE NOT (x.value ->> 'domain' IN ('notes', 'photos', 'diary', 'reminders') AND x.value ->> 'op' = 'put')
                ORDER BY abs((x.value ->> 'device_seq')::bigint), (x.value ->> 'device_seq')::bigint DESC
            LOOP
                CONTINUE WHEN EXISTS (SELECT 1 FROM satchel.changes c
                    WHERE c.account = me AND c.device = push.device AND c.device_seq = r.dseq);
                IF r.d = 'votes' THEN
                    SELECT s.deleted INTO was_deleted FROM satchel.shared_entities s
                    WHERE s.domain = 'board' AND s.entity = r.b ->> 'post';
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('row %s: a vote on a post that does not exist', r.i);
                    END IF;
                    CONTINUE WHEN was_deleted;  -- the post went meanwhile: so do its votes
                ELSIF r.d IN ('messages', 'board') THEN
                    INSERT INTO satchel.shared_entities(domain, entity, author) VALUES (r.d, r.e, me)
                    ON CONFLICT (domain, entity) DO NOTHING;
                    SELECT s.author INTO found_author FROM satchel.shared_entities s WHERE s.domain = r.d AND s.entity = r.e;
                    IF found_author <> me THEN
                        RAISE EXCEPTION USING ERRCODE = 'SY002',
                            MESSAGE = format('row %s: only its author changes or deletes a shared %s', r.i, r.d);
                    END IF;
                    UPDATE satchel.shared_entities s SET deleted = (r.o = 'delete') WHERE s.domain = r.d AND s.entity = r.e;
                END IF;
                INSERT INTO satchel.changes(account, device, device_seq, domain, entity, op, body, base, fields, bytes, images)
                VALUES (me, device, r.dseq, r.d, r.e, r.o, r.b, r.row_base, r.row_fields, r.size, r.shown)
                RETURNING seq INTO placed;
                added := added + 1;
                spent := spent + r.size;
                -- A deletion that had not seen another device's later version loses to it on every device
                -- (docs/protocol.md): then the content stays, for the devices that have not pulled it yet.
                IF r.o = 'delete' AND NOT EXISTS (SELECT 1 FROM satchel.changes c
                        WHERE c.account = me AND c.domain = r.d AND c.entity = r.e AND c.op = 'put'
                          AND c.seq > coalesce(r.row_base, 0) AND c.seq < placed AND c.device <> push.device) THEN
                    WITH earlier AS (
                        DELETE FROM satchel.changes c
                        WHERE c.account = me AND c.domain = r.d AND c.entity = r.e AND c.seq < placed
                        RETURNING c.bytes, c.images)
                    SELECT coalesce(sum(earlier.bytes), 0), coalesce(array_agg(DISTINCT h) FILTER (WHERE h IS NOT NULL), '{}')
                    INTO freed, gone
                    FROM earlier LEFT JOIN LATERAL unnest(earlier.images) h ON true;
                    IF r.d = 'board' THEN
                        DELETE FROM satchel.changes c WHERE c.domain = 'votes' AND c.body ->> 'post' = r.e;
                    END IF;
                    WITH unshown AS (
                        DELETE FROM satchel.images m WHERE m.account = me AND m.sha256 = ANY(gone)
                            AND NOT EXISTS (SELECT 1 FROM satchel.changes c WHERE c.account = me AND c.images @> ARRAY[m.sha256])
                        RETURNING octet_length(m.data) AS size)
                    SELECT freed + coalesce(sum(unshown.size), 0) INTO freed FROM unshown;
                    UPDATE satchel.accounts SET stored_bytes = greatest(0, stored_bytes - freed) WHERE name = me;
                END IF;
            END LOOP;
            IF added > 0 THEN
                -- The quotas, once for the whole push (over them, the push is undone whole).
                PERFORM satchel.spend(me, added, spent);
                PERFORM pg_notify('satchel_changes', '');
            END IF;
            RETURN added;
        END $$
        """,
        // Where a cursor (`{"<account>": <last row pulled>}`) stands for every account: the key "" gives the
        // position for accounts not named, as a device that synced before version 3 knows it, unless it is
        // past the log's own end (a row placed there by hand: then from the start).
        """
        CREATE FUNCTION satchel.positions(since jsonb) RETURNS TABLE(name name, after bigint) LANGUAGE sql STABLE
        SET search_path = pg_catalog, pg_temp
        AS $$
            SELECT a.name, coalesce((since ->> a.name::text)::bigint,
                CASE WHEN (since ->> '')::bigint
                          <= coalesce(pg_sequence_last_value(pg_get_serial_sequence('satchel.changes', 'seq')), 0)
                     THEN (since ->> '')::bigint END,
                0)
            FROM satchel.accounts a
        $$
        """,
        // A pull: the rows after `since` (`{"<account>": <last row pulled>}`; the key "" gives the position
        // for accounts not named, as a device that synced before version 3 knows it) that the calling
        // account may read: its own, and every account's shared ones, in the log's order, at most `max_rows`
        // of them and, past the first, `max_bytes` of bodies. A body over the cap comes without its text (a
        // device skips it). Each account's rows are found through an index of its own: what other accounts
        // keep in their private apps costs a pull nothing.
        """
        CREATE FUNCTION satchel.pull(since jsonb, max_rows integer, max_bytes bigint)
        RETURNS TABLE(seq bigint, account name, device uuid, device_seq bigint, domain text, entity text, op text,
                      body text, base bigint, fields text[], bytes integer)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
            WITH positions AS (SELECT * FROM satchel.positions(since)),
            candidates AS (
                (SELECT own.seq, own.bytes FROM positions p CROSS JOIN LATERAL (
                    SELECT c.seq, c.bytes FROM satchel.changes c WHERE c.account = p.name AND c.seq > p.after
                    ORDER BY c.seq LIMIT max_rows) own
                 WHERE p.name = session_user)
                UNION ALL
                (SELECT shared.seq, shared.bytes FROM positions p CROSS JOIN LATERAL (
                    SELECT c.seq, c.bytes FROM satchel.changes c
                    WHERE c.account = p.name AND c.seq > p.after AND c.domain IN ('messages', 'board', 'votes')
                    ORDER BY c.seq LIMIT max_rows) shared
                 WHERE p.name <> session_user)
                ORDER BY 1 LIMIT max_rows),
            taken AS (
                SELECT k.seq, sum(least(k.bytes, satchel.setting('max_body_bytes', \(Caps.bodyBytes))))
                    OVER (ORDER BY k.seq) - least(k.bytes, satchel.setting('max_body_bytes', \(Caps.bodyBytes))) AS before
                FROM candidates k)
            SELECT c.seq, c.account, c.device, c.device_seq, c.domain, c.entity, c.op,
                CASE WHEN c.bytes <= satchel.setting('max_body_bytes', \(Caps.bodyBytes)) THEN c.body::text END,
                c.base, c.fields, c.bytes
            FROM taken t JOIN satchel.changes c ON c.seq = t.seq
            WHERE t.before = 0 OR t.before < max_bytes
            ORDER BY c.seq
        $$
        """,
        // A pull, telling PostgreSQL first how far this device has pulled its own account's rows.
        """
        CREATE FUNCTION satchel.pull_as(puller uuid, since jsonb, max_rows integer, max_bytes bigint)
        RETURNS TABLE(seq bigint, account name, device uuid, device_seq bigint, domain text, entity text, op text,
                      body text, base bigint, fields text[], bytes integer)
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        BEGIN
            UPDATE satchel.devices d SET pulled = greatest(d.pulled, coalesce((since ->> session_user::text)::bigint, 0))
            WHERE d.account = session_user AND d.id = pull_as.puller;
            RETURN QUERY SELECT * FROM satchel.pull(since, max_rows, max_bytes);
        END $$
        """,
        // How many rows after `since` the calling account may read (for a pull's progress).
        """
        CREATE FUNCTION satchel.pending_rows(since jsonb) RETURNS bigint
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
            WITH positions AS (SELECT * FROM satchel.positions(since))
            SELECT (SELECT count(*) FROM positions p JOIN satchel.changes c ON c.account = p.name AND c.seq > p.after
                    WHERE p.name = session_user)
                 + (SELECT count(*) FROM positions p JOIN satchel.changes c ON c.account = p.name AND c.seq > p.after
                    AND c.domain IN ('messages', 'board', 'votes') WHERE p.name <> session_user)
        $$
        """,
        """
        REVOKE ALL ON FUNCTION satchel.setting(text, bigint), satchel.spend(name, bigint, bigint),
            satchel.hold_account(name), satchel.row_fault(jsonb, name, bigint), satchel.positions(jsonb) FROM PUBLIC
        """,
        """
        GRANT EXECUTE ON FUNCTION satchel.register(uuid, text), satchel.put_image(text, bytea),
            satchel.images_present(text[]), satchel.get_images(text[]), satchel.push(uuid, jsonb),
            satchel.pull(jsonb, integer, bigint), satchel.pull_as(uuid, jsonb, integer, bigint),
            satchel.pending_rows(jsonb), satchel.valid_id(text),
            satchel.is_image(bytea), satchel.is_shared(text) TO PUBLIC
        """,
    ]
}
