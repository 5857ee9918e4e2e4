/// Schema version 3: a push, the one way a device writes the log, and the rules each of its rows is held to.
extension SyncSchema {
    static let v3Push: [String] = [
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
                PERFORM satchel.let_go(me, freed, gone);
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
                    PERFORM satchel.let_go(me, freed, gone);
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
    ]
}
