import GRDB

/// The client database schema, one migration per version.
enum ClientMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Sealed values by namespace: account keys, sessions, prekeys, sender keys, identities,
            // conversations, contacts, cursors.
            try db.execute(sql: """
                CREATE TABLE records (
                    namespace TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
                    PRIMARY KEY (namespace, key)) WITHOUT ROWID
                """)
            // The decrypted history, sealed; ids and timestamps are the server's (it knows them).
            try db.execute(sql: """
                CREATE TABLE messages (
                    message_id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL,
                    timestamp INTEGER NOT NULL, body BLOB NOT NULL)
                """)
            try db.execute(sql: "CREATE INDEX messages_by_conversation ON messages (conversation_id, timestamp)")
            // Blind search index: HMAC of each word under a MainKey subkey, never the word.
            try db.execute(sql: """
                CREATE TABLE search_terms (term BLOB NOT NULL, message_id INTEGER NOT NULL,
                    PRIMARY KEY (term, message_id)) WITHOUT ROWID
                """)
            // Messages accepted for sending but not yet acknowledged by the server.
            try db.execute(sql: """
                CREATE TABLE outbox (client_message_id TEXT PRIMARY KEY, created INTEGER NOT NULL, body BLOB NOT NULL)
                """)
        }
        return migrator
    }
}
