import Foundation
import ParleyProtocol
import ParleyWire

extension ParleyClient {
    /// How long an identity replaced by a rotation still opens prekey messages (the server's default retention:
    /// nothing older is still waiting there).
    static let retiredIdentityGrace: Int64 = 30 * 86_400_000

    /// Prunes the sent log and retired identities at most once a day: opening every sent record on every
    /// connect (each one-shot command connects) would make start-up grow with the history.
    func pruneDaily() throws(ClientError) {
        let now = dependencies.clock.now()
        let last = try database.read { try $0.get(Namespace.state, "pruned_at") }.flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
        if let last, now - last < 86_400_000, now >= last { return }
        try sentLog.prune()
        try pruneRetiredIdentities()
        try database.write { try $0.put(Namespace.state, "pruned_at", Array(String(now).utf8)) }
    }

    /// Forgets retired identities past their grace period.
    func pruneRetiredIdentities() throws(ClientError) {
        let cutoff = dependencies.clock.now() - Self.retiredIdentityGrace
        let expired = try database.read { try $0.all(Namespace.retiredIdentity) }.filter {
            ((try? JSONDecoder().decode(RetiredIdentity.self, from: Data($0.value)))?.retiredAt ?? 0) < cutoff
        }
        guard !expired.isEmpty else { return }
        try database.write { writer in for entry in expired { try writer.delete(Namespace.retiredIdentity, entry.key) } }
    }

    /// Re-reads this account's devices so copies go to every other device of ours.
    func refreshOwnDevices() async throws(ClientError) {
        let (account, _) = try identity()
        let devices = try await call(API.ListDevices.self).devices.map(\.deviceID)
        try deviceLists.set(devices, of: account)
    }
}
