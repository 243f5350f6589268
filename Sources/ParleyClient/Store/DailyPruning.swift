import Foundation

/// What the vault lets go of with time, at most once a day (each one-shot command connects, and opening every sent
/// record on every connect would make start-up grow with the history): sent records past their re-send period
/// (`SentLog`), and identities retired by a key rotation past their grace period (docs/CLIENT.md §7).
struct DailyPruning: Sendable {
    typealias Dependencies = HasDatabase & HasClock & Sendable
    let dependencies: any Dependencies

    /// How long an identity replaced by a rotation still opens prekey messages (the server's default retention:
    /// nothing older is still waiting there).
    static let retiredIdentityGrace: Int64 = 30 * 86_400_000
    /// How often the pruning runs.
    static let interval: Int64 = 86_400_000

    private var database: ClientDatabase { dependencies.database }

    /// Prunes unless it ran less than a day ago (a clock set back counts as due).
    func runIfDue() throws(ClientError) {
        let now = dependencies.clock.now()
        let last = try database.read { try $0.get(Namespace.state, "pruned_at") }.flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
        if let last, now - last < Self.interval, now >= last { return }
        try SentLog(dependencies: dependencies).prune()
        try pruneRetiredIdentities()
        try database.write { try $0.put(Namespace.state, "pruned_at", Array(String(now).utf8)) }
    }

    /// Forgets retired identities past their grace period (an unreadable record too).
    func pruneRetiredIdentities() throws(ClientError) {
        let cutoff = dependencies.clock.now() - Self.retiredIdentityGrace
        let expired = try database.read { try $0.all(Namespace.retiredIdentity) }.filter {
            ((try? JSONDecoder().decode(RetiredIdentity.self, from: Data($0.value)))?.retiredAt ?? 0) < cutoff
        }
        guard !expired.isEmpty else { return }
        try database.write { writer in for entry in expired { try writer.delete(Namespace.retiredIdentity, entry.key) } }
    }
}
