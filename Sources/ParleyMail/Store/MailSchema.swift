import GRDB

/// The mail store's tables (docs/MAIL.md §3), version by version.
enum MailSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE account (id INTEGER PRIMARY KEY CHECK (id = 1), settings BLOB NOT NULL);
                CREATE TABLE folders (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    uidvalidity INTEGER NOT NULL,
                    synced_uid INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE messages (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
                    uid INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    flags INTEGER NOT NULL,
                    internal_date INTEGER,
                    summary BLOB NOT NULL,
                    raw BLOB NOT NULL,
                    seen_here INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (folder_id, uid)
                );
                """)
        }
        // Keys learned from Autocrypt and Web Key Directories (docs/MAIL.md §6.3).
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE peers (id TEXT PRIMARY KEY, state BLOB NOT NULL)")
        }
        return migrator
    }
}
