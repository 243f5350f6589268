import PostgresNIO

/// Presence across nodes: each node counts its connections per device in `cluster_presence`, and an
/// account is online while some device has connections on a node whose heartbeat is fresh.
extension PostgresBackplane: PresenceDirectory {
    public func arrived(_ caller: Caller, onlineHere: Bool) async -> Bool {
        let wasOnline = onlineHere ? true : await isOnline(caller.accountID)
        let node = nodeID
        do {
            try await store.transaction("presence") { connection, logger in
                try await connection.run("""
                    INSERT INTO cluster_presence (node_id, account_id, device_id, connections)
                    VALUES (\(node), \(caller.accountID), \(Int64(caller.deviceID)), 1)
                    ON CONFLICT (account_id, device_id, node_id) DO UPDATE SET connections = cluster_presence.connections + 1
                    """, logger)
            }
        } catch {
            logger.warning("could not record presence", metadata: ["error": "\(error)"])
        }
        return wasOnline
    }

    public func left(_ caller: Caller) async {
        let node = nodeID
        do {
            try await store.transaction("presence") { connection, logger in
                try await connection.run("""
                    UPDATE cluster_presence SET connections = connections - 1
                    WHERE node_id = \(node) AND account_id = \(caller.accountID) AND device_id = \(Int64(caller.deviceID))
                    """, logger)
                try await connection.run("""
                    DELETE FROM cluster_presence
                    WHERE node_id = \(node) AND account_id = \(caller.accountID) AND device_id = \(Int64(caller.deviceID)) AND connections <= 0
                    """, logger)
            }
        } catch {
            logger.warning("could not record presence", metadata: ["error": "\(error)"])
        }
    }

    public func online(_ accounts: [Int64]) async -> Set<Int64> {
        guard !accounts.isEmpty else { return [] }
        let fresh = clock.now() - Self.staleSeconds * 1000
        do {
            return Set(try await store.read { connection, logger in
                try await connection.column("""
                    SELECT DISTINCT p.account_id FROM cluster_presence p JOIN cluster_nodes n ON n.node_id = p.node_id
                    WHERE p.account_id = ANY(\(accounts)) AND n.heartbeat_at > \(fresh)
                    """, logger, as: Int64.self)
            })
        } catch {
            // Unknown is reported as offline: presence is a courtesy, and the database being down shows elsewhere.
            return Set(accounts.filter { hub.withLock { $0 }?.isOnline(accountID: $0) ?? false })
        }
    }
}

/// Rate-limit buckets in `rate_buckets`: one statement takes a lease atomically (the row lock of the
/// upsert orders concurrent takers), refilling the bucket for the time since it was last touched.
extension PostgresBackplane: TokenLedger {
    public func take(subject: String, count: Int, rate: Double, burst: Double, now: Int64) async throws -> Int {
        let want = Double(count)
        let fresh = min(want, burst.rounded(.down))
        return try await store.transaction("rate limit") { connection, logger in
            let granted = try await connection.scalar("""
                INSERT INTO rate_buckets AS b (subject, tokens, updated_at, granted)
                VALUES (\(subject), \(burst - fresh), \(now), \(fresh))
                ON CONFLICT (subject) DO UPDATE SET
                    granted = LEAST(\(want), FLOOR(LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updated_at)::float8 / 1000 * \(rate)))),
                    tokens = LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updated_at)::float8 / 1000 * \(rate))
                        - LEAST(\(want), FLOOR(LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updated_at)::float8 / 1000 * \(rate)))),
                    updated_at = GREATEST(b.updated_at, \(now))
                RETURNING granted
                """, logger, as: Double.self)
            return Int(granted ?? 0)
        }
    }
}
