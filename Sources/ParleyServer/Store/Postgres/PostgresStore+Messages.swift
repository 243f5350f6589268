import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    public func insertMessage(_ message: NewMessage, now: Int64, checkingMembers: Bool, maximumUndeliveredBytes: Int64) async throws -> MessageInsertion {
        // Every account the message is for (and the sender): their clocks order it.
        let accounts = Array(Set(message.envelopes.map(\.accountID) + [message.senderID])).sorted()
        let store = PostgresStatements.StoreMessage(
            message: message, accounts: accounts, now: now, checkingMembers: checkingMembers, maximumUndeliveredBytes: maximumUndeliveredBytes)
        // One statement, run in a group transaction with the sends and confirmations that arrive with it, or alone.
        // Alone, a retry racing its own original can miss it (the statement's snapshot predates the lock wait) and hit
        // the (sender_id, client_id) unique key: running it again finds it.
        return try await groupCommit.run(
            accounts: accounts, in: self,
            together: { db, log in try await Self.store(store, accounts: accounts, db, log) },
            alone: { try await self.autocommitted("message", retryOnConflict: true) { db, log in try await Self.store(store, accounts: accounts, db, log) } })
    }

    /// Runs the send's statement (again, once the accounts without a clock row have one) and reads its answer.
    private static func store(
        _ store: PostgresStatements.StoreMessage, accounts: [Int64], _ db: PostgresConnection, _ log: Logger
    ) async throws -> MessageInsertion {
        guard var row = try await db.rows(store, log).first else { throw StoreError.unavailable("message insert returned nothing") }
        if row.0, row.1 == nil, row.7 != true {
            // An account without a clock row (accounts get one when created; this covers one made by an older
            // version): it starts at the old cluster-wide clock, so no account's timestamps go back.
            try await db.run("""
                INSERT INTO account_clocks (account_id, last)
                SELECT id, (SELECT last FROM message_clock) FROM unnest(\(accounts)::BIGINT[]) AS id
                ON CONFLICT (account_id) DO NOTHING
                """, log)
            guard let again = try await db.rows(store, log).first else { throw StoreError.unavailable("message insert returned nothing") }
            row = again
        }
        let (fits, id, timestamp, created, withheld, memberAccounts, memberDevices, noRoom, held) = row
        guard fits else {
            return .refused(memberDevices: zip(memberAccounts, memberDevices).map { account, device in
                (accountID: account, deviceID: device < 0 ? nil : UInt32(truncatingIfNeeded: device))
            })
        }
        if id == nil, noRoom == true { return .overQuota(undeliveredBytes: held ?? 0) }
        guard let id, let timestamp else { throw StoreError.unavailable("message insert returned nothing") }
        return .stored(StoredMessage(id: id, timestamp: timestamp, created: created, withheld: Set(withheld)))
    }

    public func messages(accountID: Int64, deviceID: UInt32, afterTimestamp: Int64, limit: Int, maximumBytes: Int) async throws -> [DeliverableMessage] {
        let page = PostgresStatements.DeliverableMessages(
            accountID: accountID, deviceID: deviceID, afterTimestamp: afterTimestamp, limit: Self.sqlLimit(limit), maximumBytes: Int64(maximumBytes))
        return try await read { db, log in
            try await db.rows(page, log).map { id, conversationID, senderID, senderDevice, timestamp, kind, replyTo, ciphertext in
                DeliverableMessage(
                    id: id, conversationID: conversationID, senderID: senderID, senderDevice: UInt32(truncatingIfNeeded: senderDevice),
                    timestamp: timestamp, kind: kind, replyTo: replyTo, ciphertext: Array(buffer: ciphertext))
            }
        }
    }

    public func undeliveredBytes(senderID: Int64) async throws -> Int64 {
        try await read { db, log in
            // Less what deliveries released since the sender's last message folded them in.
            try await db.scalar(
                """
                SELECT (SELECT undelivered_bytes FROM account_clocks WHERE account_id = \(senderID))
                    - (SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM undelivered_releases WHERE sender_id = \(senderID))
                """, log, as: Int64.self) ?? 0
        }
    }

    public func conversationID(ofMessage messageID: Int64) async throws -> Int64? {
        try await read { db, log in
            try await db.scalar("SELECT conversation_id FROM messages WHERE id = \(messageID)", log, as: Int64.self)
        }
    }

    public func confirmDelivery(accountID: Int64, deviceID: UInt32, messageIDs: [Int64], now: Int64) async throws -> [ConfirmedDelivery] {
        guard !messageIDs.isEmpty else { return [] }
        let confirm = PostgresStatements.ConfirmEnvelopes(accountID: accountID, deviceID: deviceID, messageIDs: messageIDs)
        let deleted = try await groupCommit.run(
            accounts: [], in: self,
            together: { db, log in try await db.rows(confirm, log) },
            alone: { try await self.autocommitted("delivery") { db, log in try await db.rows(confirm, log) } })
        // In the caller's order, each once, like SQLite: only envelopes not yet confirmed count.
        var confirmed = Dictionary(deleted.map { ($0.0, $0) }, uniquingKeysWith: { first, _ in first })
        return messageIDs.compactMap { id in
            confirmed.removeValue(forKey: id).map { ConfirmedDelivery(messageID: $0.0, senderID: $0.1, tellsSender: $0.2) }
        }
    }
}
