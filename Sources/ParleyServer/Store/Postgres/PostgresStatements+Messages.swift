import PostgresNIO

/// The statements every message runs, each one round trip and its own transaction, prepared once per pooled
/// connection: PostgreSQL parses them once and plans them cheaply (0.16 ms for the send, which it still plans per
/// call), where unnamed statements were parsed and fully planned for each message (about 1.3 ms of the database's
/// CPU per message) in a transaction of five round trips (docs/PERFORMANCE.md). Each names its parameters' types,
/// so that a NULL in the first use cannot leave one unknown.
enum PostgresStatements {

    /// Stores one message with all its envelopes in one statement (one round trip, its own transaction), or finds
    /// the stored one a retry repeats, or refuses a message that does not fit the conversation's member devices.
    ///
    /// The membership check is the SQL twin of `NewMessage.fits` (the store conformance tests hold both to each
    /// case): the sender is an active member, and the envelopes are for a member's device (a message for one
    /// device) or for exactly every device of every active member less the sending device. The member rows stay
    /// share-locked until the commit: a removal waits for this insert, or this insert sees the removal.
    ///
    /// Then it locks the clock rows of exactly the message's accounts, in id order (two inserts never deadlock):
    /// inserts for the same account run one after another, so each account's timestamps commit in increasing order
    /// and a device's `get_messages` cursor never skips one; messages between other people do not wait.
    ///
    /// A new message is stored only if its stored envelopes (not those of whom it is withheld from) keep the
    /// sender's undelivered ciphertext within `$14`: the sender's locked clock row less what deliveries released
    /// since (`undelivered_releases`, which a trigger fills as envelopes are deleted, PostgresMigrations v17). The
    /// statement folds those releases into the clock row, under its lock, whether or not it stores the message, in
    /// the same update that moves the clocks and adds the new message's bytes.
    ///
    /// One row always: whether the message fits; the message's id and timestamp (NULL when an account has no clock
    /// row yet: the caller adds it and runs this again, or when the sender has no room); whether it was stored now;
    /// whom it is withheld from; when it does not fit, the member devices (-1 for a member without devices); whether
    /// the sender lacks room for it (NULL without a clock row); and the sender's undelivered bytes before it.
    struct StoreMessage: PostgresPreparedStatement {
        static let name = "parley_store_message_v3"
        static let sql = """
            WITH member_devices AS (
                SELECT m.account_id, d.device_id FROM members m
                JOIN conversations c ON c.id = m.conversation_id AND c.deleted_at IS NULL
                LEFT JOIN devices d ON d.account_id = m.account_id
                WHERE m.conversation_id = $5 AND m.status = 'active'
                FOR SHARE OF m
            ), given AS (
                SELECT DISTINCT account_id, device_id FROM unnest($10::BIGINT[], $11::BIGINT[]) AS g(account_id, device_id)
            ), required AS (
                SELECT account_id, device_id FROM member_devices
                WHERE device_id IS NOT NULL AND NOT (account_id = $2 AND device_id = $6)
            ), fits AS (
                SELECT NOT $13 OR (
                    EXISTS (SELECT 1 FROM member_devices WHERE account_id = $2)
                    AND CASE WHEN $9
                        THEN NOT EXISTS (SELECT account_id, device_id FROM given EXCEPT SELECT account_id, device_id FROM member_devices)
                        ELSE NOT EXISTS (SELECT * FROM required EXCEPT SELECT * FROM given)
                            AND NOT EXISTS (SELECT * FROM given EXCEPT SELECT * FROM required)
                    END) AS ok
            ), locked AS (
                SELECT account_id, last, undelivered_bytes FROM account_clocks WHERE account_id = ANY($1) AND (SELECT ok FROM fits)
                ORDER BY account_id FOR UPDATE
            ), existing AS (
                SELECT id, created_at FROM messages WHERE sender_id = $2 AND client_id = $3 AND (SELECT ok FROM fits)
            ), folded AS (
                DELETE FROM undelivered_releases WHERE sender_id = $2 AND EXISTS (SELECT 1 FROM locked WHERE account_id = $2)
                RETURNING bytes
            ), released AS (
                SELECT COALESCE(SUM(bytes), 0)::BIGINT AS bytes FROM folded
            ), withheld AS (
                -- Nothing reaches whoever blocked the sender or declined this conversation (docs/API.md §5.1).
                SELECT blocker_id AS account_id FROM blocks WHERE blocked_id = $2
                UNION SELECT account_id FROM members WHERE conversation_id = $5 AND request = 'declined'
            ), size AS (
                SELECT COALESCE(SUM(octet_length(e.ciphertext)), 0) AS bytes
                FROM unnest($10::BIGINT[], $12::BYTEA[]) AS e(account_id, ciphertext)
                WHERE e.account_id NOT IN (SELECT account_id FROM withheld)
            ), room AS (
                SELECT held, held <= $14 - (SELECT bytes FROM size) AS ok
                FROM (SELECT undelivered_bytes - (SELECT bytes FROM released) AS held FROM locked WHERE account_id = $2) sender
            ), stamp AS (
                SELECT GREATEST($4, MAX(last) + 1) AS ts FROM locked
                HAVING NOT EXISTS (SELECT 1 FROM existing) AND COUNT(*) = cardinality($1) AND (SELECT ok FROM room)
            ), bump AS (
                UPDATE account_clocks SET last = COALESCE((SELECT ts FROM stamp), account_clocks.last),
                    undelivered_bytes = account_clocks.undelivered_bytes + CASE WHEN account_clocks.account_id = $2
                        THEN CASE WHEN EXISTS (SELECT 1 FROM stamp) THEN (SELECT bytes FROM size) ELSE 0 END - (SELECT bytes FROM released)
                        ELSE 0 END
                WHERE account_clocks.account_id = ANY($1) AND (SELECT ok FROM fits)
                    AND (EXISTS (SELECT 1 FROM stamp) OR account_clocks.account_id = $2)
            ), inserted AS (
                INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind, reply_to, directed)
                SELECT $5, $2, $6, $3, stamp.ts, $7, $8, $9 FROM stamp
                RETURNING id, created_at
            ), sealed AS (
                INSERT INTO envelopes (message_id, account_id, device_id, ciphertext, sender_id)
                SELECT inserted.id, e.account_id, e.device_id, e.ciphertext, $2 FROM inserted,
                    unnest($10::BIGINT[], $11::BIGINT[], $12::BYTEA[]) AS e(account_id, device_id, ciphertext)
                WHERE e.account_id NOT IN (SELECT account_id FROM withheld)
            ), answered AS (
                -- Writing in a conversation answers its request; a message for one device (a retry) does not.
                UPDATE members SET request = NULL FROM inserted
                WHERE members.conversation_id = $5 AND members.account_id = $2
                    AND members.request IS NOT NULL AND NOT $9
            )
            SELECT (SELECT ok FROM fits),
                COALESCE((SELECT id FROM inserted), (SELECT id FROM existing)),
                COALESCE((SELECT created_at FROM inserted), (SELECT created_at FROM existing)),
                EXISTS (SELECT 1 FROM inserted),
                CASE WHEN EXISTS (SELECT 1 FROM inserted) THEN ARRAY(SELECT account_id FROM withheld) ELSE ARRAY[]::BIGINT[] END,
                CASE WHEN (SELECT ok FROM fits) THEN ARRAY[]::BIGINT[]
                    ELSE ARRAY(SELECT account_id FROM member_devices ORDER BY account_id, device_id) END,
                CASE WHEN (SELECT ok FROM fits) THEN ARRAY[]::BIGINT[]
                    ELSE ARRAY(SELECT COALESCE(device_id, -1) FROM member_devices ORDER BY account_id, device_id) END,
                NOT (SELECT ok FROM room),
                (SELECT held FROM room)
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .int8Array, .int8, .text, .int8, .int8, .int8, .text, .int8, .bool, .int8Array, .int8Array, .byteaArray, .bool, .int8,
        ]
        typealias Row = (Bool, Int64?, Int64?, Bool, [Int64], [Int64], [Int64], Bool?, Int64?)

        var message: NewMessage
        var accounts: [Int64]
        var now: Int64
        var checkingMembers: Bool
        var maximumUndeliveredBytes: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 14)
            bindings.append(accounts)
            bindings.append(message.senderID)
            bindings.append(message.clientMessageID)
            bindings.append(now)
            bindings.append(message.conversationID)
            bindings.append(Int64(message.senderDevice))
            bindings.append(message.kind)
            bindings.append(message.replyTo)
            bindings.append(message.directed)
            bindings.append(message.envelopes.map(\.accountID))
            bindings.append(message.envelopes.map { Int64($0.deviceID) })
            bindings.append(message.envelopes.map { ByteBuffer(bytes: $0.ciphertext) })
            bindings.append(checkingMembers)
            bindings.append(maximumUndeliveredBytes)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Deletes a device's envelopes of the given messages (it has them now); returns each message that had one,
    /// with its sender and whether the sender may be told (not the account's own, no block either way).
    struct ConfirmEnvelopes: PostgresPreparedStatement {
        static let name = "parley_confirm_envelopes_v3"
        // The accounts that confirmed are kept (`deliveries`) in the same statement, for a sender not connected now;
        // the block check rides along too, so a delivery is one round trip (docs/PERFORMANCE.md, "PostgreSQL again").
        static let sql = """
            WITH gone AS (
                DELETE FROM envelopes e USING messages m
                WHERE m.id = e.message_id AND e.account_id = $1 AND e.device_id = $2 AND e.message_id = ANY($3)
                RETURNING e.message_id, m.sender_id
            ), noted AS (
                INSERT INTO deliveries (message_id, account_id)
                SELECT message_id, $1 FROM gone WHERE sender_id <> $1
                ON CONFLICT DO NOTHING
            )
            SELECT g.message_id, g.sender_id, g.sender_id <> $1 AND NOT EXISTS (
                SELECT 1 FROM blocks b
                WHERE (b.blocker_id = $1 AND b.blocked_id = g.sender_id) OR (b.blocker_id = g.sender_id AND b.blocked_id = $1)
            ) FROM gone g
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8Array]
        typealias Row = (Int64, Int64, Bool)

        var accountID: Int64
        var deviceID: UInt32
        var messageIDs: [Int64]

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(accountID)
            bindings.append(Int64(deviceID))
            bindings.append(messageIDs)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A page of the messages waiting for one device after a timestamp, oldest first, with that device's ciphertext
    /// (`get_messages`, and every catch-up after a reconnect).
    struct DeliverableMessages: PostgresPreparedStatement {
        static let name = "parley_deliverable_messages_v2"
        // The running total of ciphertext bytes before each row is taken from the values' stored sizes
        // (`octet_length` reads a TOAST pointer's size, not the value), so the rows past the budget are never read.
        static let sql = """
            SELECT id, conversation_id, sender_id, sender_device, created_at, kind, reply_to, ciphertext FROM (
                SELECT m.id, m.conversation_id, m.sender_id, m.sender_device, m.created_at, m.kind, m.reply_to, e.ciphertext,
                    SUM(octet_length(e.ciphertext)) OVER (ORDER BY m.created_at ROWS UNBOUNDED PRECEDING)
                        - octet_length(e.ciphertext) AS bytes_before
                FROM envelopes e JOIN messages m ON m.id = e.message_id
                WHERE e.account_id = $1 AND e.device_id = $2 AND m.created_at > $3
                ORDER BY m.created_at LIMIT $4
            ) page
            WHERE bytes_before <= $5
            ORDER BY created_at
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8, .int8, .int8]
        typealias Row = (Int64, Int64, Int64, Int64, Int64, String, Int64?, ByteBuffer)

        var accountID: Int64
        var deviceID: UInt32
        var afterTimestamp: Int64
        /// NULL: no limit.
        var limit: Int64?
        /// The page ends with the message whose ciphertext takes the total past this.
        var maximumBytes: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(accountID)
            bindings.append(Int64(deviceID))
            bindings.append(afterTimestamp)
            bindings.append(limit)
            bindings.append(maximumBytes)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}

extension PostgresStatements {
    /// Whom an account blocked and who blocked it (`blockPartners`): asked before every delivery tick a sender is told
    /// of, so prepared once per connection rather than parsed and planned for each (0.044 ms of planning a call at
    /// 1,000 msg/s, docs/PERFORMANCE.md).
    struct BlockPartners: PostgresPreparedStatement {
        static let name = "parley_block_partners_v1"
        static let sql = "SELECT blocked_id FROM blocks WHERE blocker_id = $1 UNION SELECT blocker_id FROM blocks WHERE blocked_id = $1"
        static let bindingDataTypes: [PostgresDataType] = [.int8]
        typealias Row = Int64

        var accountID: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(accountID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
    }
}

extension PostgresConnection {
    /// Every row of a prepared statement (prepared on this connection at its first use).
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement, _ logger: Logger) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}
