import Foundation
import ParleyCrypto
import ParleyWire

/// After each login: the contacts whose identity key changed while this device was away (docs/CLIENT.md §9).
///
/// `keys_updated` reaches only the devices connected when a contact rotates their keys, and a session made before
/// goes on working, so a device that was away would keep sending under the old key without a word. Here the current
/// keys of every contact this device recorded one for are asked for (`get_identity_keys`, which consumes nothing);
/// each that differs is handled as `keys_updated` is: fresh sessions from the contact's bundles, which records the new
/// key and shows the key-change warning. A server from before `get_identity_keys` is not asked.
struct IdentityCatchUp: Sendable {
    typealias Dependencies = HasServer & HasDatabase & HasAccount & Sendable
    let dependencies: any Dependencies

    /// Asks for the recorded contacts' keys and renews the sessions of each whose key changed; returns their ids.
    @discardableResult
    func run() async throws(ClientError) -> [Int64] {
        let me = try await dependencies.account.confirmedAccountID()
        // The key each contact is known by: a changed key waiting for the person's answer (a verified contact's, §9)
        // counts as known, or every login would report it again.
        let recorded: [Int64: [UInt8]] = try dependencies.database.read { reader in
            var keys: [Int64: [UInt8]] = [:]
            for (key, value) in try reader.all(Namespace.identity) {
                if let id = Int64(key), id != me { keys[id] = value }
            }
            for (key, value) in try reader.all(Namespace.trust) {
                guard let id = Int64(key), keys[id] != nil,
                      let pending = (try? JSONDecoder().decode(TrustRecord.self, from: Data(value)))?.pendingKey else { continue }
                keys[id] = pending
            }
            return keys
        }
        var changed: [Int64] = []
        let ids = recorded.keys.sorted()
        for start in stride(from: 0, to: ids.count, by: API.GetIdentityKeys.maximumAccounts) {
            let batch = Array(ids[start..<min(ids.count, start + API.GetIdentityKeys.maximumAccounts)])
            let answer: API.GetIdentityKeys.Response
            do {
                answer = try await dependencies.server.call(API.GetIdentityKeys.self, .init(accountIDs: batch))
            } catch .server(let refusal) where refusal.code == .unknownMethod {
                return changed
            }
            for entry in answer.keys where batch.contains(entry.accountID) {
                guard let known = recorded[entry.accountID], !ConstantTime.equals(known, entry.identityKey) else { continue }
                try await dependencies.account.renewSessions(with: entry.accountID)
                changed.append(entry.accountID)
            }
        }
        return changed
    }
}
