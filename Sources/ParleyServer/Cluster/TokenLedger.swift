/// Rate-limit tokens shared by every node of a cluster: one token bucket per subject, kept in the
/// database, from which a node takes a few tokens at a time.
public protocol TokenLedger: Sendable {
    /// Takes up to `count` tokens (at least one, or none) from the bucket of `subject`, which refills at
    /// `rate` per second up to `burst`; returns how many were taken.
    func take(subject: String, count: Int, rate: Double, burst: Double, now: Int64) async throws -> Int
}
