import ParleyCrypto

/// When to make, rotate and delete prekeys; all functions of an injected clock (Unix seconds).
public enum PreKeyPolicy {
    /// One-time prekeys made per batch.
    public static let batchSize = 50
    /// Upload a new batch when fewer than this many remain on the server.
    public static let replenishThreshold = 20
    /// A signed prekey is rotated once it is this old (7 days).
    public static let rotationPeriod: UInt64 = 7 * 24 * 3600
    /// A replaced signed prekey stays usable this long after its successor was made (7 days).
    public static let gracePeriod: UInt64 = 7 * 24 * 3600

    /// Whether the server's count of one-time prekeys calls for a new batch.
    public static func needsReplenishing(remaining: Int) -> Bool {
        remaining < replenishThreshold
    }

    /// A batch of one-time prekeys with consecutive ids from `firstId`, skipping the reserved 0xFFFFFFFF.
    public static func oneTimePreKeys(
        firstId: UInt32, count: Int = batchSize, random: some RandomSource
    ) -> [OneTimePreKeyRecord] {
        var id = firstId
        var out: [OneTimePreKeyRecord] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            if id == ProtocolConstants.noOneTimePreKey { id = 0 }
            out.append(OneTimePreKeyRecord(id: id, keyPair: X25519KeyPair(random: random)))
            id &+= 1
        }
        return out
    }

    /// Whether the newest signed prekey is due for rotation (or there is none).
    public static func needsRotation(_ records: [SignedPreKeyRecord], now: UInt64) -> Bool {
        guard let newest = records.max(by: { $0.createdAt < $1.createdAt }) else { return true }
        return now >= newest.createdAt &+ rotationPeriod
    }

    /// Ids of signed prekeys whose successor was made at least the grace period ago.
    public static func expiredSignedPreKeys(_ records: [SignedPreKeyRecord], now: UInt64) -> [UInt32] {
        let byAge = records.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        var expired: [UInt32] = []
        for (index, record) in byAge.enumerated().dropLast() where now >= byAge[index + 1].createdAt &+ gracePeriod {
            expired.append(record.id)
        }
        return expired
    }
}
