import Foundation
import GRDB

extension SQLiteStore {
    public func insertMessage(_ message: NewMessage, now: Int64, checkingMembers: Bool, maximumUndeliveredBytes: Int64) async throws -> MessageInsertion {
        try await groupWrite("message") { db -> MessageInsertion in
            // On the one writer, so no membership change can come between this check and the insert.
            let conversation = try Self.sendingView(db, conversationID: message.conversationID)
            let members = conversation.devices
            guard !checkingMembers || message.fits(members) else { return .refused(memberDevices: members) }
            if let existing = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, created_at FROM messages WHERE sender_id = ? AND client_id = ?"),
                arguments: [message.senderID, message.clientMessageID])
            {
                return .stored(StoredMessage(id: existing[0], timestamp: existing[1], created: false))
            }
            let withheld = try Self.blockers(db, of: message.senderID).union(conversation.declined)
            let sealed = message.envelopes.filter { !withheld.contains($0.accountID) }
            let bytes = sealed.reduce(Int64(0)) { $0 + Int64($1.ciphertext.count) }
            let held = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT bytes FROM undelivered WHERE account_id = ?"), arguments: [message.senderID]) ?? 0
            guard held <= maximumUndeliveredBytes - bytes else { return .overQuota(undeliveredBytes: held) }
            let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(created_at) FROM messages")) ?? 0
            let timestamp = max(now, last + 1)
            try db.cachedStatement(sql: """
                INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind, reply_to, directed)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    message.conversationID, message.senderID, Int64(message.senderDevice), message.clientMessageID,
                    timestamp, message.kind, message.replyTo, message.directed,
                ])
            let id = db.lastInsertedRowID
            let insertEnvelope = try db.cachedStatement(
                sql: "INSERT INTO envelopes (message_id, account_id, device_id, ciphertext, sender_id) VALUES (?, ?, ?, ?, ?)")
            for envelope in sealed {
                try insertEnvelope.execute(
                    arguments: [id, envelope.accountID, Int64(envelope.deviceID), Data(envelope.ciphertext), message.senderID])
            }
            // Lowered by the `envelopes_release` trigger as each envelope is deleted (SQLiteMigrations, v16).
            if bytes > 0 {
                try db.cachedStatement(sql: """
                    INSERT INTO undelivered (account_id, bytes) VALUES (?1, ?2)
                    ON CONFLICT (account_id) DO UPDATE SET bytes = bytes + ?2
                    """).execute(arguments: [message.senderID, bytes])
            }
            if !message.directed, conversation.withRequest.contains(message.senderID) {
                // Writing in a conversation answers its request: the person chose to reply (docs/API.md §5.1).
                try db.cachedStatement(sql: "UPDATE members SET request = NULL WHERE conversation_id = ? AND account_id = ?")
                    .execute(arguments: [message.conversationID, message.senderID])
            }
            return .stored(StoredMessage(id: id, timestamp: timestamp, created: true, withheld: withheld))
        }
    }

    public func undeliveredBytes(senderID: Int64) async throws -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT bytes FROM undelivered WHERE account_id = ?", arguments: [senderID]) ?? 0
        }
    }

    public func messages(accountID: Int64, deviceID: UInt32, afterTimestamp: Int64, limit: Int, maximumBytes: Int) async throws -> [DeliverableMessage] {
        try await read { db in
            // Driven from this device's envelopes (the primary-key index), not from every message; read row by row,
            // so the rows after the byte budget are never loaded.
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT m.*, e.ciphertext FROM envelopes e
                    JOIN messages m ON m.id = e.message_id
                    WHERE e.account_id = ?1 AND e.device_id = ?2 AND m.created_at > ?3
                    ORDER BY m.created_at LIMIT ?4
                    """),
                arguments: [accountID, Int64(deviceID), afterTimestamp, limit])
            var page: [DeliverableMessage] = []
            var bytes = 0
            while bytes <= maximumBytes, let row = try rows.next() {
                let ciphertext = Array(row["ciphertext"] as Data)
                bytes += ciphertext.count
                page.append(DeliverableMessage(
                    id: row["id"], conversationID: row["conversation_id"], senderID: row["sender_id"],
                    senderDevice: UInt32(row["sender_device"] as Int64), timestamp: row["created_at"], kind: row["kind"],
                    replyTo: row["reply_to"], ciphertext: ciphertext))
            }
            return page
        }
    }

    public func conversationID(ofMessage messageID: Int64) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT conversation_id FROM messages WHERE id = ?", arguments: [messageID])
        }
    }

    public func confirmDelivery(accountID: Int64, deviceID: UInt32, messageIDs: [Int64], now: Int64) async throws -> [ConfirmedDelivery] {
        try await groupWrite("delivery") { db in
            var confirmed: [ConfirmedDelivery] = []
            // Prepared once per connection: with the `envelopes_release` trigger compiled into it, preparing the
            // DELETE for every id was most of a delivery's cost on the writer.
            let delete = try db.cachedStatement(sql: "DELETE FROM envelopes WHERE account_id = ? AND device_id = ? AND message_id = ?")
            let sender = try db.cachedStatement(sql: "SELECT sender_id FROM messages WHERE id = ?")
            let noted = try db.cachedStatement(sql: "INSERT OR IGNORE INTO deliveries (message_id, account_id) VALUES (?, ?)")
            let blocked = try db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2)
                    OR EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?2 AND blocked_id = ?1)
                """)
            for id in messageIDs {
                // The row goes at once (with `secure_delete`, SQLite overwrites it).
                try delete.execute(arguments: [accountID, Int64(deviceID), id])
                guard db.changesCount > 0, let senderID = try Int64.fetchOne(sender, arguments: [id]) else { continue }
                guard senderID != accountID else {
                    confirmed.append(ConfirmedDelivery(messageID: id, senderID: senderID, tellsSender: false))
                    continue
                }
                // What the sender learns later if it is not connected now (its own copies need no tick).
                try noted.execute(arguments: [id, accountID])
                let across = try Bool.fetchOne(blocked, arguments: [accountID, senderID]) ?? false
                confirmed.append(ConfirmedDelivery(messageID: id, senderID: senderID, tellsSender: !across))
            }
            return confirmed
        }
    }

    /// What sending a message needs to know of a conversation that is not deleted, in one read: every device of
    /// every active member, the active members who declined its request (nothing reaches them), and those with a
    /// request still open (a reply of theirs answers it).
    struct SendingView {
        var devices: [MemberDevice] = []
        var declined: Set<Int64> = []
        var withRequest: Set<Int64> = []
    }

    static func sendingView(_ db: Database, conversationID: Int64) throws -> SendingView {
        let statement = try db.cachedStatement(sql: """
            SELECT m.account_id, m.request, d.device_id FROM members m
            JOIN conversations c ON c.id = m.conversation_id AND c.deleted_at IS NULL
            LEFT JOIN devices d ON d.account_id = m.account_id
            WHERE m.conversation_id = ? AND m.status = 'active'
            """)
        var view = SendingView()
        for row in try Row.fetchAll(statement, arguments: [conversationID]) {
            // By position: a lookup by name lowercases the name on every row (the message path, PERFORMANCE.md).
            let account: Int64 = row[0]
            view.devices.append((account, (row[2] as Int64?).map { UInt32($0) }))
            switch row[1] as String? {
            case nil: break
            case "declined": view.declined.insert(account); view.withRequest.insert(account)
            default: view.withRequest.insert(account)
            }
        }
        return view
    }

    /// The accounts that blocked `sender`: nothing `sender` sends reaches them.
    static func blockers(_ db: Database, of sender: Int64) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT blocker_id FROM blocks WHERE blocked_id = ?"), arguments: [sender]))
    }
}
