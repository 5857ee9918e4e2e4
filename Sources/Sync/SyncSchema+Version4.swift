/// Schema version 4: end-to-end encryption of an account's private apps (docs/protocol.md, "What the server
/// can see"). An account's key is kept here only wrapped by a key its person's passphrase gives
/// (`satchel.keys`); once an account has one, PostgreSQL takes none of its private rows unsealed, and its
/// photos are kept as sealed bytes under keyed names, unchecked (it cannot read them).
extension SyncSchema {
    /// The least Argon2id cost a wrapped key is accepted with: 3 passes over 64 MiB.
    public static let leastPasses = 3
    public static let leastMemory = 64 << 20

    /// The end of PostgreSQL's refusal of an unsealed private row of an encrypted account.
    static let encryptedRefusal = "the account is encrypted: a private row carries its id and its sealed body only"

    static let v4: [String] = [
        // An account's key, wrapped (XChaCha20-Poly1305 under a key derived from the passphrase with
        // Argon2id, `passes` over `memory` bytes, `salt`); `check`: a known text sealed under the key itself,
        // so a device can tell the key it keeps is still the account's.
        """
        CREATE TABLE satchel.keys (
            account name PRIMARY KEY,
            salt bytea NOT NULL CHECK (octet_length(salt) = 16),
            passes integer NOT NULL CHECK (passes >= \(leastPasses)),
            memory bigint NOT NULL CHECK (memory >= \(leastMemory)),
            wrapped bytea NOT NULL CHECK (octet_length(wrapped) = 72),
            check_sealed bytea NOT NULL CHECK (octet_length(check_sealed) BETWEEN 40 AND 200),
            changed_at timestamptz NOT NULL DEFAULT now())
        """,
        // Row-level security on, with no policy: no role but the schema's owner (whose functions these are)
        // reads or writes a row.
        "ALTER TABLE satchel.keys ENABLE ROW LEVEL SECURITY",
        "REVOKE ALL ON satchel.keys FROM PUBLIC",
        // The calling account's wrapped key (no row: its private apps are not encrypted).
        """
        CREATE FUNCTION satchel.account_key()
        RETURNS TABLE(salt bytea, passes integer, memory bigint, wrapped bytea, check_sealed bytea)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$ SELECT k.salt, k.passes, k.memory, k.wrapped, k.check_sealed FROM satchel.keys k
              WHERE k.account = session_user $$
        """,
        // Keeps the calling account's wrapped key: the first (`replacing` null: the account turns
        // encryption on), or the same key wrapped anew (a new passphrase) in place of the wrapping the device
        // read (`replacing`), so two changes at once cannot both win.
        """
        CREATE FUNCTION satchel.set_account_key(salt bytea, passes integer, memory bigint, wrapped bytea,
                                                check_sealed bytea, replacing bytea) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            me name := session_user;
        BEGIN
            IF salt IS NULL OR octet_length(salt) <> 16 OR wrapped IS NULL OR octet_length(wrapped) <> 72
                OR check_sealed IS NULL OR octet_length(check_sealed) NOT BETWEEN 40 AND 200 THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002',
                    MESSAGE = 'a wrapped key is 72 bytes, with a salt of 16 and a sealed check';
            END IF;
            IF passes IS NULL OR passes < \(leastPasses) OR memory IS NULL OR memory < \(leastMemory) THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002',
                    MESSAGE = 'a key is wrapped with at least \(leastPasses) passes of Argon2id over \(leastMemory >> 20) MiB';
            END IF;
            PERFORM satchel.hold_account(me);
            IF replacing IS NULL THEN
                INSERT INTO satchel.keys(account, salt, passes, memory, wrapped, check_sealed)
                VALUES (me, salt, passes, memory, wrapped, check_sealed)
                ON CONFLICT (account) DO NOTHING;
                IF NOT FOUND THEN
                    RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'the account is encrypted already';
                END IF;
            ELSE
                UPDATE satchel.keys k SET salt = set_account_key.salt, passes = set_account_key.passes,
                    memory = set_account_key.memory, wrapped = set_account_key.wrapped,
                    check_sealed = set_account_key.check_sealed, changed_at = now()
                WHERE k.account = me AND k.wrapped = replacing;
                IF NOT FOUND THEN
                    RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'the passphrase was changed meanwhile';
                END IF;
            END IF;
        END $$
        """,
        // A push's rows are held to one more rule: an encrypted account's private rows carry their id and
        // their sealed body, nothing else.
        "ALTER FUNCTION satchel.row_fault(jsonb, name, bigint) RENAME TO row_shape_fault",
        """
        CREATE FUNCTION satchel.row_fault(v jsonb, me name, cap bigint) RETURNS text LANGUAGE sql STABLE
        SET search_path = pg_catalog, pg_temp
        AS $$ SELECT coalesce(satchel.row_shape_fault(v, me, cap), CASE
            WHEN v ->> 'domain' IN ('notes', 'photos', 'diary', 'reminders') AND v ->> 'op' = 'put'
                AND EXISTS (SELECT 1 FROM satchel.keys k WHERE k.account = me)
                AND NOT (jsonb_typeof(v -> 'body' -> 'sealed') = 'string'
                    AND (SELECT count(*) FROM jsonb_object_keys(v -> 'body')) = 2
                    AND coalesce(jsonb_typeof(v -> 'fields'), 'null') = 'null')
                THEN '\(encryptedRefusal)'
        END) $$
        """,
        // Photo bytes: an encrypted account's are sealed, named by a keyed hash, and only their size is
        // checked (PostgreSQL cannot read them).
        """
        CREATE OR REPLACE FUNCTION satchel.put_image(sha256 text, data bytea) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            me name := session_user;
            cap bigint := satchel.setting('max_image_bytes', \(Caps.imageBytes));
            sealed boolean := EXISTS (SELECT 1 FROM satchel.keys k WHERE k.account = session_user);
            -- Sealed bytes are a little larger than the photo: a nonce, a tag and padding to 64 KiB.
            room bigint := cap + (CASE WHEN sealed THEN 65536 + 40 ELSE 0 END);
        BEGIN
            IF sha256 IS NULL OR sha256 !~ '^[0-9a-f]{64}$' THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = 'an image is named by its SHA-256, 64 hex digits';
            END IF;
            IF data IS NULL OR octet_length(data) > room THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('image %s: over the cap of %s bytes', sha256, cap);
            END IF;
            IF NOT sealed AND encode(pg_catalog.sha256(data), 'hex') <> sha256 THEN
                RAISE EXCEPTION USING ERRCODE = 'SY002', MESSAGE = format('image %s: its bytes have another SHA-256', sha256);
            END IF;
            IF NOT sealed AND NOT satchel.is_image(data) THEN
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
        // Lets go of the calling account's plaintext private versions (written before it was encrypted)
        // that a later sealed version of the same entity superseded, as a push lets go of superseded
        // versions: once every device of the account has pulled them and every later row stood on them.
        // Answers how many plaintext versions are left.
        """
        CREATE FUNCTION satchel.forget_plaintext() RETURNS bigint
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $$
        DECLARE
            me name := session_user;
            freed bigint;
            gone text[];
            left_over bigint;
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM satchel.keys k WHERE k.account = me) THEN
                RETURN 0;
            END IF;
            PERFORM satchel.hold_account(me);
            WITH candidates AS (
                SELECT c.domain, c.entity, max(c.seq) AS through
                FROM satchel.changes c
                WHERE c.account = me AND c.op = 'put' AND c.domain IN ('notes', 'photos', 'diary', 'reminders')
                  AND NOT (c.body ? 'sealed')
                  AND c.seq <= (SELECT min(dv.pulled) FROM satchel.devices dv WHERE dv.account = me)
                  AND EXISTS (SELECT 1 FROM satchel.changes n
                      WHERE n.account = me AND n.domain = c.domain AND n.entity = c.entity AND n.op = 'put'
                        AND n.seq > c.seq AND n.body ? 'sealed')
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
            PERFORM satchel.let_go(me, freed, gone);
            SELECT count(*) INTO left_over FROM satchel.changes c
            WHERE c.account = me AND c.op = 'put' AND c.domain IN ('notes', 'photos', 'diary', 'reminders')
              AND NOT (c.body ? 'sealed');
            RETURN left_over;
        END $$
        """,
        """
        REVOKE ALL ON FUNCTION satchel.row_fault(jsonb, name, bigint), satchel.row_shape_fault(jsonb, name, bigint)
        FROM PUBLIC
        """,
        """
        GRANT EXECUTE ON FUNCTION satchel.account_key(), satchel.set_account_key(bytea, integer, bigint, bytea, bytea, bytea),
            satchel.forget_plaintext() TO PUBLIC
        """,
    ]
}
