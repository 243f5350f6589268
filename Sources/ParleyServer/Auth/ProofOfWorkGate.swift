import ParleyCrypto
import Synchronization

/// Issues proof-of-work challenges and accepts each solved one once.
///
/// Challenges live in this node's memory for five minutes: a client solves one and sends `register`
/// again on the same connection. With several nodes each node sees its own surge and issues its own
/// challenges (docs/SCALING.md §3); a challenge taken to another node is refused and a new one issued.
public final class ProofOfWorkGate: Sendable {
    static let lifetime: Int64 = 300_000
    static let maximumOutstanding = 10_000
    private let random: any RandomSource
    private let issued = Mutex<[[UInt8]: Int64]>([:])

    init(random: any RandomSource) {
        self.random = random
    }

    /// A fresh 32-byte challenge, valid for five minutes.
    public func issue(now: Int64) -> [UInt8] {
        let challenge = random.bytes(32)
        issued.withLock { issued in
            if issued.count >= Self.maximumOutstanding {
                issued = issued.filter { $0.value > now }
            }
            if issued.count < Self.maximumOutstanding {
                issued[challenge] = now + Self.lifetime
            }
        }
        return challenge
    }

    /// Whether `nonce` solves an outstanding, unexpired `challenge`; the challenge is used up either way.
    public func redeem(challenge: [UInt8], nonce: UInt64, difficulty: Int, now: Int64) -> Bool {
        let expiry = issued.withLock { $0.removeValue(forKey: challenge) }
        guard let expiry, expiry > now else { return false }
        return ProofOfWork.verify(challenge: challenge, difficulty: difficulty, nonce: nonce)
    }
}
