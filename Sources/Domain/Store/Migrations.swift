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
    ]

    /// The schema version this build writes.
    static var latestVersion: Int { all.count }

    /// Brings `database` up to ``latestVersion``, one transaction per step. A database written by a newer
    /// build is refused rather than misread.
    static func migrate(_ database: Database) throws {
        let current = Int(try database.scalarInteger("PRAGMA user_version") ?? 0)
        guard current <= latestVersion else {
            throw SQLiteError(
                code: 1, message: "the database has schema version \(current); this satchel knows up to \(latestVersion)")
        }
        for version in current..<latestVersion {
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
