#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The schema, as an ordered list of migrations; `PRAGMA user_version` records how many have run.
enum Migrations {
    /// Each entry upgrades the schema by one version. Append only: never edit a released one.
    static let all: [String] = [
        // 1: change log, images, notes and photo notes.
        """
        CREATE TABLE changes(
            seq INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            domain TEXT NOT NULL,
            kind TEXT NOT NULL,
            entity_id TEXT NOT NULL
        );
        CREATE TABLE images(
            id TEXT PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            mime_type TEXT NOT NULL,
            byte_size INTEGER NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            data BLOB NOT NULL,
            owners INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE notes(
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            hue REAL NOT NULL,
            saturation REAL NOT NULL,
            brightness REAL NOT NULL,
            deadline INTEGER,
            position INTEGER NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            revision INTEGER NOT NULL
        );
        CREATE TABLE photo_notes(
            id TEXT PRIMARY KEY,
            image_id TEXT NOT NULL REFERENCES images(id),
            caption TEXT,
            position INTEGER NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            revision INTEGER NOT NULL
        );
        CREATE INDEX photo_notes_image ON photo_notes(image_id);
        """,
        // 2: reminders, and the editing sessions that may hold one of them.
        """
        CREATE TABLE editing_sessions(
            id TEXT PRIMARY KEY,
            pid INTEGER NOT NULL,
            process_start TEXT NOT NULL,
            started_at INTEGER NOT NULL
        );
        CREATE TABLE reminders(
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            blank INTEGER NOT NULL,
            memo TEXT,
            completed INTEGER NOT NULL DEFAULT 0,
            completed_at INTEGER,
            position INTEGER NOT NULL UNIQUE,
            editing_session TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            revision INTEGER NOT NULL
        );
        CREATE INDEX reminders_editing ON reminders(editing_session) WHERE editing_session IS NOT NULL;
        """,
        // 3: the diary ("Moments"): posts and their ordered images.
        """
        CREATE TABLE diary_posts(
            id TEXT PRIMARY KEY,
            text TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            revision INTEGER NOT NULL
        );
        CREATE INDEX diary_posts_newest ON diary_posts(created_at DESC, id DESC);
        CREATE TABLE diary_post_images(
            post_id TEXT NOT NULL REFERENCES diary_posts(id) ON DELETE CASCADE,
            slot INTEGER NOT NULL,
            image_id TEXT NOT NULL REFERENCES images(id),
            PRIMARY KEY(post_id, slot)
        ) WITHOUT ROWID;
        CREATE INDEX diary_post_images_image ON diary_post_images(image_id);
        """,
        // 4: the chat message list; `position` orders it (sent messages above, loaded history below).
        """
        CREATE TABLE messages(
            id TEXT PRIMARY KEY,
            text TEXT NOT NULL,
            sent_at INTEGER NOT NULL,
            author_name TEXT NOT NULL,
            author_avatar_url TEXT,
            origin TEXT NOT NULL,
            feed_key TEXT UNIQUE,
            position INTEGER NOT NULL UNIQUE
        );
        CREATE TABLE feed_state(
            feed TEXT PRIMARY KEY,
            consumed INTEGER NOT NULL
        );
        CREATE TABLE deleted_feed_keys(feed_key TEXT PRIMARY KEY) WITHOUT ROWID;
        """,
        // 5: the board: posts with their vote counts and derived rankings, per-voter votes, and the frozen
        // orders that keep a paged listing consistent while votes change.
        """
        CREATE TABLE board_posts(
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            title_key TEXT NOT NULL,
            ups INTEGER NOT NULL DEFAULT 0,
            downs INTEGER NOT NULL DEFAULT 0,
            hot REAL NOT NULL,
            best REAL NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            revision INTEGER NOT NULL
        );
        CREATE INDEX board_by_votes ON board_posts(ups - downs DESC, title_key, id);
        CREATE INDEX board_by_title ON board_posts(title_key, id);
        CREATE INDEX board_by_new ON board_posts(created_at DESC, id DESC);
        CREATE INDEX board_by_hot ON board_posts(hot DESC, id);
        CREATE INDEX board_by_best ON board_posts(best DESC, id);
        CREATE TABLE board_votes(
            post_id TEXT NOT NULL REFERENCES board_posts(id) ON DELETE CASCADE,
            voter TEXT NOT NULL,
            direction INTEGER NOT NULL,
            PRIMARY KEY(post_id, voter)
        ) WITHOUT ROWID;
        CREATE TABLE board_snapshots(
            id TEXT PRIMARY KEY,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE board_snapshot_rows(
            snapshot TEXT NOT NULL REFERENCES board_snapshots(id) ON DELETE CASCADE,
            rank INTEGER NOT NULL,
            post_id TEXT NOT NULL,
            PRIMARY KEY(snapshot, rank)
        ) WITHOUT ROWID;
        """,
        // 6: full-text search across every app: a plain table of searchable text per entity, kept current
        // by triggers (so in the same transaction as the data), and a trigram FTS5 index over it. The index
        // is brought up to date from a queue of changed documents once per transaction, just before the
        // commit (see SearchIndex): writing to FTS5 row by row would flush its buffers on every statement.
        """
        CREATE TABLE search_documents(
            id INTEGER PRIMARY KEY,
            domain TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            UNIQUE(domain, entity_id)
        );
        CREATE VIRTUAL TABLE search_index USING fts5(
            title, body, content = 'search_documents', content_rowid = 'id', tokenize = 'trigram'
        );
        CREATE TABLE search_pending(
            seq INTEGER PRIMARY KEY,
            operation TEXT NOT NULL,
            document_id INTEGER NOT NULL,
            title TEXT,
            body TEXT
        );
        CREATE TRIGGER search_documents_insert AFTER INSERT ON search_documents BEGIN
            INSERT INTO search_pending(operation, document_id) VALUES ('insert', new.id);
        END;
        CREATE TRIGGER search_documents_delete AFTER DELETE ON search_documents BEGIN
            INSERT INTO search_pending(operation, document_id, title, body) VALUES ('delete', old.id, old.title, old.body);
        END;
        CREATE TRIGGER search_documents_update AFTER UPDATE ON search_documents BEGIN
            INSERT INTO search_pending(operation, document_id, title, body) VALUES ('delete', old.id, old.title, old.body);
            INSERT INTO search_pending(operation, document_id) VALUES ('insert', new.id);
        END;
        CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
            INSERT INTO search_documents(domain, entity_id, title, body) VALUES ('notes', new.id, new.title, new.content);
        END;
        CREATE TRIGGER notes_search_update AFTER UPDATE OF title, content ON notes BEGIN
            UPDATE search_documents SET title = new.title, body = new.content WHERE domain = 'notes' AND entity_id = new.id;
        END;
        CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
            DELETE FROM search_documents WHERE domain = 'notes' AND entity_id = old.id;
        END;
        CREATE TRIGGER photo_notes_search_insert AFTER INSERT ON photo_notes BEGIN
            INSERT INTO search_documents(domain, entity_id, title, body) VALUES ('photos', new.id, coalesce(new.caption, ''), '');
        END;
        CREATE TRIGGER photo_notes_search_update AFTER UPDATE OF caption ON photo_notes BEGIN
            UPDATE search_documents SET title = coalesce(new.caption, ''), body = '' WHERE domain = 'photos' AND entity_id = new.id;
        END;
        CREATE TRIGGER photo_notes_search_delete AFTER DELETE ON photo_notes BEGIN
            DELETE FROM search_documents WHERE domain = 'photos' AND entity_id = old.id;
        END;
        CREATE TRIGGER diary_posts_search_insert AFTER INSERT ON diary_posts BEGIN
            INSERT INTO search_documents(domain, entity_id, title, body) VALUES ('diary', new.id, '', coalesce(new.text, ''));
        END;
        CREATE TRIGGER diary_posts_search_update AFTER UPDATE OF text ON diary_posts BEGIN
            UPDATE search_documents SET title = '', body = coalesce(new.text, '') WHERE domain = 'diary' AND entity_id = new.id;
        END;
        CREATE TRIGGER diary_posts_search_delete AFTER DELETE ON diary_posts BEGIN
            DELETE FROM search_documents WHERE domain = 'diary' AND entity_id = old.id;
        END;
        CREATE TRIGGER reminders_search_insert AFTER INSERT ON reminders BEGIN
            INSERT INTO search_documents(domain, entity_id, title, body) VALUES ('reminders', new.id, new.title, coalesce(new.memo, ''));
        END;
        CREATE TRIGGER reminders_search_update AFTER UPDATE OF title, memo ON reminders BEGIN
            UPDATE search_documents SET title = new.title, body = coalesce(new.memo, '') WHERE domain = 'reminders' AND entity_id = new.id;
        END;
        CREATE TRIGGER reminders_search_delete AFTER DELETE ON reminders BEGIN
            DELETE FROM search_documents WHERE domain = 'reminders' AND entity_id = old.id;
        END;
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO search_documents(domain, entity_id, title, body) VALUES ('messages', new.id, new.author_name, new.text);
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF author_name, text ON messages BEGIN
            UPDATE search_documents SET title = new.author_name, body = new.text WHERE domain = 'messages' AND entity_id = new.id;
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
            DELETE FROM search_documents WHERE domain = 'messages' AND entity_id = old.id;
        END;
        CREATE TRIGGER board_posts_search_insert AFTER INSERT ON board_posts BEGIN
            INSERT INTO search_documents(domain, entity_id, title, body) VALUES ('board', new.id, new.title, '');
        END;
        CREATE TRIGGER board_posts_search_update AFTER UPDATE OF title ON board_posts BEGIN
            UPDATE search_documents SET title = new.title, body = '' WHERE domain = 'board' AND entity_id = new.id;
        END;
        CREATE TRIGGER board_posts_search_delete AFTER DELETE ON board_posts BEGIN
            DELETE FROM search_documents WHERE domain = 'board' AND entity_id = old.id;
        END;
        INSERT INTO search_documents(domain, entity_id, title, body)
            SELECT 'notes', id, title, content FROM notes;
        INSERT INTO search_documents(domain, entity_id, title, body)
            SELECT 'photos', id, coalesce(caption, ''), '' FROM photo_notes;
        INSERT INTO search_documents(domain, entity_id, title, body)
            SELECT 'diary', id, '', coalesce(text, '') FROM diary_posts;
        INSERT INTO search_documents(domain, entity_id, title, body)
            SELECT 'reminders', id, title, coalesce(memo, '') FROM reminders;
        INSERT INTO search_documents(domain, entity_id, title, body)
            SELECT 'messages', id, author_name, text FROM messages;
        INSERT INTO search_documents(domain, entity_id, title, body)
            SELECT 'board', id, title, '' FROM board_posts;
        DELETE FROM search_pending;
        INSERT INTO search_index(search_index) VALUES ('rebuild');
        """,
        // 7: the search index follows the change log instead of triggers. A write no longer pays for search
        // at all; the index is brought up to the log (SearchIndex.catchUp) before every search and while
        // the server is idle. `indexed_through` is the last change the index holds; version 6 kept the
        // index current in every transaction, so it starts at the newest change (after taking in anything
        // still queued, which version 6 left only if a process died between a write and its commit).
        """
        INSERT INTO search_index(search_index, rowid, title, body)
        SELECT 'delete', p.document_id, p.title, p.body FROM search_pending AS p
        WHERE p.operation = 'delete'
          AND p.seq = (SELECT min(q.seq) FROM search_pending AS q WHERE q.document_id = p.document_id);
        INSERT INTO search_index(rowid, title, body)
        SELECT d.id, d.title, d.body FROM search_documents AS d
        WHERE d.id IN (SELECT document_id FROM search_pending);
        DROP TRIGGER search_documents_insert;
        DROP TRIGGER search_documents_delete;
        DROP TRIGGER search_documents_update;
        DROP TRIGGER notes_search_insert;
        DROP TRIGGER notes_search_update;
        DROP TRIGGER notes_search_delete;
        DROP TRIGGER photo_notes_search_insert;
        DROP TRIGGER photo_notes_search_update;
        DROP TRIGGER photo_notes_search_delete;
        DROP TRIGGER diary_posts_search_insert;
        DROP TRIGGER diary_posts_search_update;
        DROP TRIGGER diary_posts_search_delete;
        DROP TRIGGER reminders_search_insert;
        DROP TRIGGER reminders_search_update;
        DROP TRIGGER reminders_search_delete;
        DROP TRIGGER messages_search_insert;
        DROP TRIGGER messages_search_update;
        DROP TRIGGER messages_search_delete;
        DROP TRIGGER board_posts_search_insert;
        DROP TRIGGER board_posts_search_update;
        DROP TRIGGER board_posts_search_delete;
        DROP TABLE search_pending;
        CREATE TABLE search_state(
            id INTEGER PRIMARY KEY CHECK (id = 1),
            indexed_through INTEGER NOT NULL
        );
        INSERT INTO search_state(id, indexed_through) SELECT 1, coalesce(max(seq), 0) FROM changes;
        """,
        // 8: counts in constant time: each counted table's rows are kept in `row_counts` by triggers, so
        // `server.info`, the free edition's check and index ranges read one row instead of counting.
        // `hot` breaks ties newest first (by id, which follows creation order), as `new` does.
        "CREATE TABLE row_counts(name TEXT PRIMARY KEY, rows INTEGER NOT NULL) WITHOUT ROWID;\n"
            + ["notes", "photo_notes", "images", "reminders", "diary_posts", "messages", "board_posts"].map { table in
                """
                INSERT INTO row_counts(name, rows) SELECT '\(table)', count(*) FROM \(table);
                CREATE TRIGGER \(table)_count_insert AFTER INSERT ON \(table) BEGIN
                    UPDATE row_counts SET rows = rows + 1 WHERE name = '\(table)';
                END;
                CREATE TRIGGER \(table)_count_delete AFTER DELETE ON \(table) BEGIN
                    UPDATE row_counts SET rows = rows - 1 WHERE name = '\(table)';
                END;

                """
            }.joined()
            + """
            DROP INDEX board_by_hot;
            CREATE INDEX board_by_hot ON board_posts(hot DESC, id DESC);
            """,
        // 9: each image's smaller copies for showing it (thumbnail, display), made once and kept; an image
        // stored before them gets them when first asked for.
        """
        CREATE TABLE image_renditions(
            image_id TEXT NOT NULL,
            size TEXT NOT NULL,
            mime_type TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY(image_id, size)
        ) WITHOUT ROWID;
        """,
        // 10: what this database knows of sync (SPEC §14): its device id, made once, and how far it has
        // pushed and pulled; the change log's entries that came from other devices (never pushed back); and
        // per entity, the shared log's version of it (`state`, JSON, none when deleted) and the row that
        // made it (`known`), and this device's last push of it not yet seen back in the log (`awaiting`,
        // its change-log entry).
        """
        CREATE TABLE sync_state(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_skip(seq INTEGER PRIMARY KEY);
        CREATE TABLE sync_entities(
            domain TEXT NOT NULL,
            entity TEXT NOT NULL,
            known INTEGER NOT NULL DEFAULT 0,
            awaiting INTEGER,
            state TEXT,
            PRIMARY KEY(domain, entity)
        ) WITHOUT ROWID;
        """,
        // 11: per synced entity, the row of the shared log that last changed each of its fields (and on which
        // device): what merging a change made apart needs.
        "ALTER TABLE sync_entities ADD COLUMN fields TEXT;",
        // 12: a pull asks, for each row it applies, whether this device has changes of that entity still to
        // push: without this index that read went through every entry not yet pushed (a long push was
        // quadratic).
        "CREATE INDEX changes_entity ON changes(domain, entity_id, seq);",
        // 13: rows of the shared log this device skipped (over the byte cap, of the wrong shape, breaking a
        // rule) and its own changes PostgreSQL refused, with why: `sync.status` shows them.
        """
        CREATE TABLE sync_skipped(
            id INTEGER PRIMARY KEY,
            row INTEGER,
            domain TEXT NOT NULL,
            entity TEXT NOT NULL,
            reason TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        """,
        // 14: the devices of the shared log by a number of this database's own, so that which row last
        // changed each field of an entity is kept in a few bytes (`seq@n`), not a device id per field.
        "CREATE TABLE sync_devices(n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);",
        // 15: a note whose version here is the shared log's (`follows`) keeps no copy of it in sync_entities;
        // the first change made to it here keeps the row as it was (the log's version) in sync_shadow_notes,
        // until the log has the note's next version.
        """
        ALTER TABLE sync_entities ADD COLUMN follows INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE sync_shadow_notes(
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            content TEXT NOT NULL,
            hue REAL NOT NULL,
            saturation REAL NOT NULL,
            brightness REAL NOT NULL,
            deadline INTEGER,
            position INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            revision INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TRIGGER notes_sync_shadow_update BEFORE UPDATE ON notes
        WHEN EXISTS (SELECT 1 FROM sync_entities WHERE domain = 'notes' AND entity = OLD.id AND follows = 1)
        BEGIN
            INSERT OR IGNORE INTO sync_shadow_notes VALUES (OLD.id, OLD.title, OLD.content, OLD.hue, OLD.saturation,
                OLD.brightness, OLD.deadline, OLD.position, OLD.created_at, OLD.updated_at, OLD.revision);
        END;
        CREATE TRIGGER notes_sync_shadow_delete BEFORE DELETE ON notes
        WHEN EXISTS (SELECT 1 FROM sync_entities WHERE domain = 'notes' AND entity = OLD.id AND follows = 1)
        BEGIN
            INSERT OR IGNORE INTO sync_shadow_notes VALUES (OLD.id, OLD.title, OLD.content, OLD.hue, OLD.saturation,
                OLD.brightness, OLD.deadline, OLD.position, OLD.created_at, OLD.updated_at, OLD.revision);
        END;
        """,
        // 16: the name each device of the shared log last gave itself in its rows (a conflict copy says
        // where the version it keeps was written); per entity changed here while the log moved on, the log's
        // version those changes stood on (`stood`, its row): what they are merged against.
        """
        ALTER TABLE sync_devices ADD COLUMN name TEXT;
        ALTER TABLE sync_entities ADD COLUMN stood INTEGER;
        ALTER TABLE sync_entities ADD COLUMN stood_state TEXT;
        """,
        // 17: change-log entries of the private apps a device locked out of its account's encryption held
        // back (they go once it is unlocked).
        "CREATE TABLE sync_held(seq INTEGER PRIMARY KEY);",
    ]

    /// The schema version this build writes: `all.count`, kept as a number so that opening a database that
    /// is already current does not build every migration's text (a test checks the two agree).
    static let latestVersion = 17

    /// A new database as the migrations leave it, at ``SchemaTemplate/version``: the bytes a new database
    /// starts from. Running the migrations costs SQLite a parse and a schema reload for each statement
    /// (~16 M instructions, most of starting on a new database); copying their result costs one read of the
    /// schema. Migrations after the template's version (one not yet recorded) still run after it.
    static var template: (() -> [UInt8])? {
        guard SchemaTemplate.version > 0 else { return nil }
        return { image() }
    }

    private static func image() -> [UInt8] {
        var image = [UInt8](repeating: 0, count: SchemaTemplate.size)
        for (offset, base64) in SchemaTemplate.segments {
            guard let bytes = Data(base64Encoded: base64) else { preconditionFailure("SchemaTemplate.swift is damaged") }
            image.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        }
        return image
    }

    /// Brings `database` up to `target` (``latestVersion`` unless a test asks for an older schema), one
    /// transaction per step. A database written by a newer build is refused rather than misread.
    static func migrate(_ database: Database, to target: Int = latestVersion) throws {
        let current = Int(try database.scalarInteger("PRAGMA user_version") ?? 0)
        guard current <= latestVersion else {
            throw SQLiteError(
                code: 1, message: "the database has schema version \(current); this satchel knows up to \(latestVersion)")
        }
        for version in current..<max(current, target) {
            try database.transaction {
                // Another process may have migrated while this one waited for the write lock.
                let now = Int(try database.scalarInteger("PRAGMA user_version") ?? 0)
                guard now == version else { return }
                try database.execute(all[version])
                try database.execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }
}
