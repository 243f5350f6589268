import Foundation
import PostgresNIO

extension PostgresStore {
    public func insertMessage(
        _ message: NewMessage, now: Int64, ifMembers accept: @escaping @Sendable ([MemberDevice]) -> Bool
    ) async throws -> MessageInsertion {
        // Every account the message is for (and the sender): their clocks order it.
        let accounts = Array(Set(message.envelopes.map(\.accountID) + [message.senderID])).sorted()
        let envelopeAccounts = message.envelopes.map(\.accountID)
        let devices = message.envelopes.map { Int64($0.deviceID) }
        let ciphertexts = message.envelopes.map { ByteBuffer(bytes: $0.ciphertext) }
        // A retry racing its own original can miss it (the statement's snapshot predates the lock wait)
        // and hit the (sender_id, client_id) unique key: the retry of the transaction then finds it.
        return try await transaction("message", retryOnConflict: true) { db, log -> MessageInsertion in
            // The member rows stay share-locked until the commit: a removal waits for this insert, or this
            // insert sees the removal.
            let members = try await Self.activeMemberDevices(db, conversationID: message.conversationID, log, lockingMembers: true)
            guard accept(members) else { return .refused(memberDevices: members) }
            // A new clock row starts at the old cluster-wide clock, so no account's timestamps go back.
            try await db.run("""
                INSERT INTO account_clocks (account_id, last)
                SELECT id, (SELECT last FROM message_clock) FROM unnest(\(accounts)::BIGINT[]) AS id
                ON CONFLICT (account_id) DO NOTHING
                """, log)
            // One statement, one round trip: lock the clock rows of exactly these accounts, in id order (so
            // two inserts never deadlock) — inserts for the same account run one after another, so each
            // account's timestamps commit in increasing order and a device's `get_messages` cursor never
            // skips one; messages between other people do not wait — then, unless this is a retry of a
            // stored message, stamp, insert the message and all its envelopes.
            guard let row = try await db.row("""
                WITH locked AS (
                    SELECT account_id, last FROM account_clocks WHERE account_id = ANY(\(accounts)) ORDER BY account_id FOR UPDATE
                ), existing AS (
                    SELECT id, created_at FROM messages WHERE sender_id = \(message.senderID) AND client_id = \(message.clientMessageID)
                ), stamp AS (
                    SELECT GREATEST(\(now), MAX(last) + 1) AS ts FROM locked HAVING NOT EXISTS (SELECT 1 FROM existing)
                ), bump AS (
                    UPDATE account_clocks SET last = stamp.ts FROM stamp WHERE account_clocks.account_id = ANY(\(accounts))
                ), inserted AS (
                    INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind, reply_to, directed)
                    SELECT \(message.conversationID), \(message.senderID), \(Int64(message.senderDevice)), \(message.clientMessageID),
                        stamp.ts, \(message.kind), \(message.replyTo), \(message.directed) FROM stamp
                    RETURNING id, created_at
                ), withheld AS (
                    -- Nothing reaches whoever blocked the sender or declined this conversation (docs/API.md §5.1).
                    SELECT blocker_id AS account_id FROM blocks WHERE blocked_id = \(message.senderID)
                    UNION SELECT account_id FROM members WHERE conversation_id = \(message.conversationID) AND request = 'declined'
                ), sealed AS (
                    INSERT INTO envelopes (message_id, account_id, device_id, ciphertext)
                    SELECT inserted.id, e.account_id, e.device_id, e.ciphertext FROM inserted,
                        unnest(\(envelopeAccounts)::BIGINT[], \(devices)::BIGINT[], \(ciphertexts)::BYTEA[]) AS e(account_id, device_id, ciphertext)
                    WHERE e.account_id NOT IN (SELECT account_id FROM withheld)
                ), answered AS (
                    -- Writing in a conversation answers its request; a message for one device (a retry) does not.
                    UPDATE members SET request = NULL FROM inserted
                    WHERE members.conversation_id = \(message.conversationID) AND members.account_id = \(message.senderID)
                        AND members.request IS NOT NULL AND NOT \(message.directed)
                )
                SELECT id, created_at, TRUE AS created, ARRAY(SELECT account_id FROM withheld) AS withheld FROM inserted
                UNION ALL SELECT id, created_at, FALSE AS created, ARRAY[]::BIGINT[] AS withheld FROM existing
                """, log)
            else { throw StoreError.unavailable("message insert returned nothing") }
            return .stored(StoredMessage(
                id: try row.get("id"), timestamp: try row.get("created_at"), created: try row.get("created"),
                withheld: Set(try row.get("withheld", as: [Int64].self))))
        }
    }

    public func messages(accountID: Int64, deviceID: UInt32, afterTimestamp: Int64, limit: Int) async throws -> [DeliverableMessage] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT m.*, e.ciphertext FROM envelopes e
                JOIN messages m ON m.id = e.message_id
                WHERE e.account_id = \(accountID) AND e.device_id = \(Int64(deviceID))
                    AND m.created_at > \(afterTimestamp)
                ORDER BY m.created_at LIMIT \(Self.sqlLimit(limit))
                """, log
            ).map { row in
                DeliverableMessage(
                    id: try row.get("id"), conversationID: try row.get("conversation_id"), senderID: try row.get("sender_id"),
                    senderDevice: UInt32(truncatingIfNeeded: try row.get("sender_device", as: Int64.self)),
                    timestamp: try row.get("created_at"), kind: try row.get("kind"), replyTo: try row.get("reply_to"),
                    ciphertext: try row.bytes("ciphertext"))
            }
        }
    }

    public func conversationID(ofMessage messageID: Int64) async throws -> Int64? {
        try await read { db, log in
            try await db.scalar("SELECT conversation_id FROM messages WHERE id = \(messageID)", log, as: Int64.self)
        }
    }

    public func confirmDelivery(accountID: Int64, deviceID: UInt32, messageIDs: [Int64], now: Int64) async throws -> [(Int64, Int64)] {
        try await transaction("delivery") { db, log in
            var confirmed: [(Int64, Int64)] = []
            // One statement (or two) per id, in the caller's order, like SQLite; only rows not yet delivered count.
            for id in messageIDs {
                let row = try await db.row(
                    """
                    DELETE FROM envelopes e USING messages m
                    WHERE m.id = e.message_id AND e.account_id = \(accountID) AND e.device_id = \(Int64(deviceID))
                        AND e.message_id = \(id)
                    RETURNING e.message_id, m.sender_id
                    """, log)
                if let row {
                    confirmed.append((try row.get("message_id", as: Int64.self), try row.get("sender_id", as: Int64.self)))
                }
            }
            return confirmed
        }
    }
}
