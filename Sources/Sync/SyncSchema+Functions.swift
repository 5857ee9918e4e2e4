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

    /// Version 3: the tables made safe to share (SyncSchema+Version3.swift), then the functions devices call.
    static var v3: [String] { v3Tables + v3Functions + v3Push + v3Reads }

    /// What the functions share: caps and quotas, ids and images by their rules, an account's lock and
    /// what it lets go, a device's registration, and photo bytes.
    static let v3Functions: [String] = [
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
        // What rows of an account took leaves it: `freed` bytes of rows, and the photos of `gone` that no row
        // of the account shows any more (their bytes too), off its stored bytes.
        """
        CREATE FUNCTION satchel.let_go(me name, freed bigint, gone text[]) RETURNS void LANGUAGE plpgsql
        SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            released bigint := freed;
        BEGIN
            WITH unshown AS (
                DELETE FROM satchel.images m WHERE m.account = me AND m.sha256 = ANY(gone)
                    AND NOT EXISTS (SELECT 1 FROM satchel.changes c WHERE c.account = me AND c.images @> ARRAY[m.sha256])
                RETURNING octet_length(m.data) AS size)
            SELECT released + coalesce(sum(unshown.size), 0) INTO released FROM unshown;
            IF released > 0 THEN
                UPDATE satchel.accounts SET stored_bytes = greatest(0, stored_bytes - released) WHERE name = me;
            END IF;
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
    ]

    /// Reading the log: where a cursor stands, a pull and its progress; and who may call what.
    static let v3Reads: [String] = [
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
            satchel.hold_account(name), satchel.row_fault(jsonb, name, bigint), satchel.positions(jsonb),
            satchel.let_go(name, bigint, text[]) FROM PUBLIC
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
