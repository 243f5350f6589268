import Foundation

/// The devices this device believes each account has (its own account included), as the server last listed them:
/// who gets a copy of each message. `SessionOwner` decides when a list changes (a bundle fetched, a
/// `stale_devices` answer, a key rotation); this only keeps them.
struct DeviceLists: Sendable {
    typealias Dependencies = HasDatabase & Sendable
    let dependencies: any Dependencies

    /// The devices `account` is believed to have; nil when none were ever listed.
    func of(_ account: Int64) throws(ClientError) -> [UInt32]? {
        guard let bytes = try dependencies.database.read({ try $0.get(Namespace.devices, String(account)) }) else { return nil }
        return (try? JSONDecoder().decode([UInt32].self, from: Data(bytes))) ?? []
    }

    /// Replaces `account`'s list (duplicates dropped, sorted).
    func set(_ devices: [UInt32], of account: Int64) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(Array(Set(devices)).sorted()))
        try dependencies.database.write { try $0.put(Namespace.devices, String(account), bytes) }
    }
}
