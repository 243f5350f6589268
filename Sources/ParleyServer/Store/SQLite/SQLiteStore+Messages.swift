import Foundation
import GRDB

extension SQLiteStore {
    public func insertMessage(
        _ message: NewMessage, now: Int64, ifMembers accept: @escaping @Sendable ([MemberDevice]) -> Bool
    ) async throws -> MessageInsertion {
        try await groupWrite("message") { db -> MessageInsertion in
            // On the one writer, so no membership change can come between this check and the insert.
            let members = try Self.activeMemberDevices(db, conversationID: message.conversationID)
            guard accept(members) else { return .refused(memberDevices: members) }
            if let existing = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, created_at FROM messages WHERE sender_id = ? AND client_id = ?"),
                arguments: [message.senderID, message.clientMessageID])
            {
                return .stored(StoredMessage(id: existing["id"], timestamp: existing["created_at"], created: false))
            }
            let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(created_at) FROM messages")) ?? 0
            let timestamp = max(now, last + 1)
            try db.cachedStatement(sql: """
                INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind, reply_to)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    message.conversationID, message.senderID, Int64(message.senderDevice), message.clientMessageID,
                    timestamp, message.kind, message.replyTo,
                ])
            let id = db.lastInsertedRowID
            let insertEnvelope = try db.cachedStatement(
                sql: "INSERT INTO envelopes (message_id, account_id, device_id, ciphertext) VALUES (?, ?, ?, ?)")
            for envelope in message.envelopes {
                try insertEnvelope.execute(arguments: [id, envelope.accountID, Int64(envelope.deviceID), Data(envelope.ciphertext)])
            }
            return .stored(StoredMessage(id: id, timestamp: timestamp, created: true))
        }
    }

    public func messages(accountID: Int64, deviceID: UInt32, afterTimestamp: Int64, limit: Int) async throws -> [DeliverableMessage] {
        try await read { db in
            // Driven from this account's envelopes (the primary-key index), not from every message.
            // The device's own envelope wins; the self copy (device 0) stands in when there is none.
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT m.*, e.ciphertext, e.device_id AS envelope_device FROM envelopes e
                    JOIN messages m ON m.id = e.message_id
                    WHERE e.account_id = ?1
                        AND (e.device_id = ?2 OR (e.device_id = 0 AND NOT EXISTS (
                            SELECT 1 FROM envelopes own WHERE own.message_id = e.message_id
                                AND own.account_id = ?1 AND own.device_id = ?2)))
                        AND e.delivered_at IS NULL
                        AND m.created_at > ?3
                    ORDER BY m.created_at LIMIT ?4
                    """),
                arguments: [accountID, Int64(deviceID), afterTimestamp, limit]
            ).map { row in
                DeliverableMessage(
                    id: row["id"], conversationID: row["conversation_id"], senderID: row["sender_id"],
                    senderDevice: UInt32(row["sender_device"] as Int64), timestamp: row["created_at"], kind: row["kind"],
                    replyTo: row["reply_to"], ciphertext: Array(row["ciphertext"] as Data),
                    isSelfCopy: (row["envelope_device"] as Int64) == 0)
            }
        }
    }

    public func conversationID(ofMessage messageID: Int64) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT conversation_id FROM messages WHERE id = ?", arguments: [messageID])
        }
    }

    public func confirmDelivery(accountID: Int64, deviceID: UInt32, messageIDs: [Int64], now: Int64) async throws -> [(Int64, Int64)] {
        try await groupWrite("delivery") { db in
            var confirmed: [(Int64, Int64)] = []
            for id in messageIDs {
                // The row goes, unless the account has a self copy of this message: then it stays as an empty
                // tombstone until the message expires, because without it the self copy would stand in for
                // this device and be delivered a second time (docs/OPERATIONS.md §5).
                try db.execute(
                    sql: """
                        DELETE FROM envelopes
                        WHERE account_id = ?1 AND device_id = ?2 AND message_id = ?3 AND delivered_at IS NULL
                            AND NOT EXISTS (SELECT 1 FROM envelopes z WHERE z.message_id = ?3 AND z.account_id = ?1 AND z.device_id = 0)
                        """,
                    arguments: [accountID, Int64(deviceID), id])
                if db.changesCount == 0 {
                    try db.execute(
                        sql: """
                            UPDATE envelopes SET delivered_at = ?, ciphertext = x''
                            WHERE account_id = ? AND device_id = ? AND message_id = ? AND delivered_at IS NULL
                            """,
                        arguments: [now, accountID, Int64(deviceID), id])
                }
                if db.changesCount > 0, let sender = try Int64.fetchOne(db, sql: "SELECT sender_id FROM messages WHERE id = ?", arguments: [id]) {
                    confirmed.append((id, sender))
                }
            }
            return confirmed
        }
    }
}
