import GRDB

/// The versioned schema. Migrations run at start-up, in order, each exactly once.
///
/// SQL stays in the portable subset (INTEGER, TEXT, BLOB, plain constraints) so the PostgreSQL
/// backend can mirror it table for table.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-accounts-and-auth") { db in
            try db.execute(sql: """
                CREATE TABLE accounts (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    email TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    identity_key BLOB NOT NULL,
                    auth_key BLOB NOT NULL,
                    key_envelope BLOB,
                    active INTEGER NOT NULL DEFAULT 0,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE verifications (
                    email TEXT PRIMARY KEY,
                    code_hash BLOB NOT NULL,
                    expires_at INTEGER NOT NULL,
                    failed_attempts INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE devices (
                    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    device_id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    PRIMARY KEY (account_id, device_id)
                );
                CREATE TABLE signed_prekeys (
                    account_id INTEGER NOT NULL,
                    device_id INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    key_id INTEGER NOT NULL,
                    public_key BLOB NOT NULL,
                    signature BLOB NOT NULL,
                    PRIMARY KEY (account_id, device_id, kind),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                );
                CREATE TABLE one_time_prekeys (
                    account_id INTEGER NOT NULL,
                    device_id INTEGER NOT NULL,
                    key_id INTEGER NOT NULL,
                    public_key BLOB NOT NULL,
                    PRIMARY KEY (account_id, device_id, key_id),
                    FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                );
                CREATE TABLE login_nonces (
                    nonce BLOB PRIMARY KEY,
                    account_id INTEGER NOT NULL,
                    device_id INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE TABLE lockouts (
                    subject TEXT PRIMARY KEY,
                    failures INTEGER NOT NULL,
                    locked_until INTEGER NOT NULL
                );
                CREATE TABLE registrations (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at INTEGER NOT NULL
                );
                CREATE INDEX registrations_at ON registrations(at);
                """)
        }
        migrator.registerMigration("v2-conversations-and-messages") { db in
            try db.execute(sql: """
                CREATE TABLE conversations (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    title BLOB,
                    creator_id INTEGER NOT NULL REFERENCES accounts(id),
                    direct_key TEXT UNIQUE,
                    created_at INTEGER NOT NULL,
                    deleted_at INTEGER
                );
                CREATE TABLE members (
                    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    status TEXT NOT NULL,
                    joined_at INTEGER NOT NULL,
                    last_read_at INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (conversation_id, account_id)
                );
                CREATE INDEX members_account ON members(account_id, status);
                CREATE TABLE messages (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    sender_id INTEGER NOT NULL,
                    sender_device INTEGER NOT NULL,
                    client_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    reply_to INTEGER,
                    deleted_at INTEGER,
                    UNIQUE (sender_id, client_id)
                );
                CREATE INDEX messages_conversation ON messages(conversation_id, created_at);
                CREATE TABLE envelopes (
                    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                    account_id INTEGER NOT NULL,
                    device_id INTEGER NOT NULL,
                    ciphertext BLOB NOT NULL,
                    delivered_at INTEGER,
                    PRIMARY KEY (account_id, device_id, message_id)
                );
                """)
        }
        migrator.registerMigration("v3-message-actions") { db in
            try db.execute(sql: """
                ALTER TABLE messages ADD COLUMN pinned_at INTEGER;
                ALTER TABLE messages ADD COLUMN pinned_by INTEGER;
                ALTER TABLE messages ADD COLUMN forwarded_from INTEGER;
                CREATE INDEX messages_deleted ON messages(conversation_id, deleted_at);
                CREATE TABLE reactions (
                    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                    account_id INTEGER NOT NULL,
                    emoji TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (message_id, account_id, emoji)
                );
                """)
        }
        migrator.registerMigration("v4-profiles-and-avatars") { db in
            try db.execute(sql: """
                CREATE TABLE profile_fields (
                    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    field TEXT NOT NULL,
                    value TEXT NOT NULL,
                    visibility TEXT NOT NULL,
                    PRIMARY KEY (account_id, field)
                );
                CREATE TABLE avatars (
                    owner_kind TEXT NOT NULL,
                    owner_id INTEGER NOT NULL,
                    blob BLOB NOT NULL,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (owner_kind, owner_id)
                );
                """)
        }
        migrator.registerMigration("v5-files") { db in
            try db.execute(sql: """
                CREATE TABLE files (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    size INTEGER NOT NULL,
                    sha256 BLOB NOT NULL,
                    received INTEGER NOT NULL DEFAULT 0,
                    complete INTEGER NOT NULL DEFAULT 0,
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX files_owner ON files(owner_id);
                CREATE TABLE file_chunks (
                    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
                    offset INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (file_id, offset)
                );
                """)
        }
        migrator.registerMigration("v6-location") { db in
            try db.execute(sql: """
                CREATE TABLE location_routes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    active INTEGER NOT NULL DEFAULT 1,
                    started_at INTEGER NOT NULL,
                    ended_at INTEGER,
                    waypoint_count INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX location_routes_owner ON location_routes(owner_id, id);
                CREATE TABLE location_waypoints (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    route_id INTEGER NOT NULL REFERENCES location_routes(id) ON DELETE CASCADE,
                    ts INTEGER NOT NULL,
                    data TEXT NOT NULL,
                    received_at INTEGER NOT NULL,
                    UNIQUE (route_id, ts)
                );
                CREATE INDEX location_waypoints_route ON location_waypoints(route_id, id);
                CREATE TABLE location_followers (
                    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    follower_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    since INTEGER NOT NULL,
                    PRIMARY KEY (owner_id, follower_id)
                );
                CREATE INDEX location_followers_follower ON location_followers(follower_id);
                """)
        }
        migrator.registerMigration("v7-pairing") { db in
            // Device ids are never reused: a removed device's id could otherwise meet old sessions.
            try db.execute(sql: """
                ALTER TABLE accounts ADD COLUMN next_device_id INTEGER NOT NULL DEFAULT 2;
                CREATE TABLE pairings (
                    id INTEGER PRIMARY KEY,
                    email TEXT NOT NULL,
                    device_name TEXT NOT NULL,
                    new_device_key BLOB NOT NULL,
                    token_hash BLOB NOT NULL,
                    authorizing_key BLOB,
                    keys_box BLOB,
                    device_id INTEGER,
                    chunk_count INTEGER NOT NULL DEFAULT 0,
                    chunk_bytes INTEGER NOT NULL DEFAULT 0,
                    complete INTEGER NOT NULL DEFAULT 0,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX pairings_email ON pairings(email, expires_at);
                CREATE TABLE pairing_chunks (
                    pairing_id INTEGER NOT NULL REFERENCES pairings(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    is_last INTEGER NOT NULL,
                    PRIMARY KEY (pairing_id, seq)
                );
                """)
        }
        // (v8 is PostgreSQL's cluster state: a SQLite server is one node.)
        migrator.registerMigration("v9-retention-indexes") { db in
            // What the retention sweep (and a message's cascade) looks rows up by: without these each is a full scan.
            try db.execute(sql: """
                CREATE INDEX envelopes_message ON envelopes(message_id);
                CREATE INDEX files_created ON files(created_at);
                CREATE INDEX location_waypoints_received ON location_waypoints(received_at);
                CREATE INDEX login_nonces_expires ON login_nonces(expires_at);
                CREATE INDEX pairings_expires ON pairings(expires_at);
                """)
        }
        // (v10 is PostgreSQL's per-account message clocks: SQLite's one writer orders every message.)
        migrator.registerMigration("v11-deleted-messages-index") { db in
            // Only deleted messages are looked up by deletion time (`get_deleted_since`): indexing every
            // message there made each insert write one more page (one in five of a message's).
            try db.execute(sql: """
                DROP INDEX messages_deleted;
                CREATE INDEX messages_deleted ON messages(conversation_id, deleted_at) WHERE deleted_at IS NOT NULL;
                """)
        }
        migrator.registerMigration("v12-directed-messages") { db in
            // Clients no longer send a self copy (device 0): their own devices get envelopes of their own.
            // The old copies and the delivered tombstones kept beside them go. Messages for one device (retry
            // requests, re-sends) are marked, to leave them out of unread counts and search. Group titles travel
            // end to end only: the opaque copy the server kept, which no client used, goes.
            try db.execute(sql: """
                DELETE FROM envelopes WHERE device_id = 0 OR delivered_at IS NOT NULL;
                ALTER TABLE messages ADD COLUMN directed INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE conversations DROP COLUMN title;
                """)
        }
        migrator.registerMigration("v13-requests-and-blocks") { db in
            // A direct conversation started by someone who is not a contact waits for the other person's
            // answer (members.request: NULL accepted, 'pending', 'declined'); each account's block list.
            try db.execute(sql: """
                ALTER TABLE members ADD COLUMN request TEXT;
                CREATE TABLE blocks (
                    blocker_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    blocked_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (blocker_id, blocked_id)
                );
                CREATE INDEX blocks_blocked ON blocks(blocked_id);
                """)
        }
        migrator.registerMigration("v14-invites") { db in
            // Invite codes (only their hashes) and the invite each pending registration came with.
            try db.execute(sql: """
                CREATE TABLE invites (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    code_hash BLOB NOT NULL UNIQUE,
                    note TEXT NOT NULL,
                    uses_left INTEGER NOT NULL,
                    used INTEGER NOT NULL DEFAULT 0,
                    expires_at INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    revoked_at INTEGER
                );
                CREATE TABLE held_invites (
                    email TEXT PRIMARY KEY,
                    invite_id INTEGER NOT NULL REFERENCES invites(id) ON DELETE CASCADE
                );
                """)
        }
        migrator.registerMigration("v15-account-administration") { db in
            // An operator may disable an account (its logins are refused until enabled again).
            try db.execute(sql: "ALTER TABLE accounts ADD COLUMN disabled_at INTEGER")
        }
        migrator.registerMigration("v16-undelivered-bytes") { db in
            // What each account's messages hold waiting for delivery, so that a send can be refused past the limit
            // without adding anything up: each envelope names its sender, the insert adds its bytes and a trigger
            // takes them off as the envelope goes, whichever statement or cascade deletes it (docs/API.md §11). A
            // table of its own: on the account row, every message and delivery rewrote that wide row (its keys), and
            // the extra pages each group commit wrote raised the latency p50 of 2,500 msg/s from 3 to 20 ms.
            try db.execute(sql: """
                ALTER TABLE envelopes ADD COLUMN sender_id INTEGER NOT NULL DEFAULT 0;
                UPDATE envelopes SET sender_id = (SELECT sender_id FROM messages WHERE messages.id = envelopes.message_id);
                CREATE TABLE undelivered (
                    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
                    bytes INTEGER NOT NULL
                );
                INSERT INTO undelivered (account_id, bytes)
                    SELECT sender_id, SUM(length(ciphertext)) FROM envelopes
                    WHERE sender_id IN (SELECT id FROM accounts) GROUP BY sender_id;
                CREATE TRIGGER envelopes_release AFTER DELETE ON envelopes BEGIN
                    UPDATE undelivered SET bytes = bytes - length(OLD.ciphertext) WHERE account_id = OLD.sender_id;
                END;
                """)
        }
        migrator.registerMigration("v17-deleted-groups-and-registrations") { db in
            // A deleted group's rows go once it is past the retention TTL (docs/OPERATIONS.md §5.1), found by its
            // deletion time; its files are looked up by conversation when it goes (and when a cascade needs them);
            // registrations never confirmed go after a day, found by when they were made.
            // Pictures of groups deleted before this version are dropped: nobody could read them.
            try db.execute(sql: """
                CREATE INDEX conversations_deleted ON conversations(deleted_at) WHERE deleted_at IS NOT NULL;
                CREATE INDEX files_conversation ON files(conversation_id);
                CREATE INDEX accounts_unconfirmed ON accounts(created_at) WHERE active = 0;
                DELETE FROM avatars WHERE owner_kind = 'group'
                    AND owner_id NOT IN (SELECT id FROM conversations WHERE deleted_at IS NULL);
                """)
        }
        migrator.registerMigration("v18-contacts") { db in
            try db.execute(sql: SQLiteContactsSchema.migration)
        }
        migrator.registerMigration("v19-pinned-messages") { db in
            // A conversation's pins found from its pins, not from every message it holds (0.3 s over 1,000,000).
            try db.execute(sql: "CREATE INDEX messages_pinned ON messages(conversation_id, pinned_at) WHERE pinned_at IS NOT NULL")
        }
        migrator.registerMigration("v20-deliveries") { db in
            // Which accounts confirmed a message (the envelope itself goes at once), so a sender who was not
            // connected when it happened still learns it (`get_message_state`). Goes with the message.
            try db.execute(sql: """
                CREATE TABLE deliveries (
                    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                    account_id INTEGER NOT NULL,
                    PRIMARY KEY (message_id, account_id)
                ) WITHOUT ROWID
                """)
        }
        return migrator
    }
}
