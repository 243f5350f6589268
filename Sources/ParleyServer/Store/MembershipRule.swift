/// Whom a message may be for, judged against its conversation's member devices inside the insert's transaction
/// (`MessageStore.insertMessage(_:now:checkingMembers:)`), so that no membership change comes between the check
/// and the insert. The SQLite store runs this; the PostgreSQL store runs its twin in SQL inside the one statement
/// that stores the message (`PostgresStatements.StoreMessage`); the store conformance tests hold both to each case.
extension NewMessage {
    /// Whether the sender is an active member and the envelopes are for exactly the devices they must be: a
    /// message for one device (`directed`) for a device of an active member; any other for every device of every
    /// active member, less the sending device (the sender's other devices included).
    func fits(_ members: [MemberDevice]) -> Bool {
        guard members.contains(where: { $0.accountID == senderID }) else { return false }
        if directed {
            return envelopeDevices.allSatisfy { device in members.contains { $0.accountID == device.account && $0.deviceID == device.device } }
        }
        return requiredDevices(members) == envelopeDevices
    }

    /// Every device of every active member, less the sending device.
    func requiredDevices(_ members: [MemberDevice]) -> Set<DeviceAddress> {
        var required: Set<DeviceAddress> = []
        for (account, device) in members {
            guard let device, !(account == senderID && device == senderDevice) else { continue }
            required.insert(DeviceAddress(account: account, device: device))
        }
        return required
    }

    /// The devices the envelopes are for.
    var envelopeDevices: Set<DeviceAddress> {
        Set(envelopes.map { DeviceAddress(account: $0.accountID, device: $0.deviceID) })
    }
}

/// One device of one account.
struct DeviceAddress: Hashable, Comparable, Sendable {
    let account: Int64
    let device: UInt32

    static func < (lhs: DeviceAddress, rhs: DeviceAddress) -> Bool { (lhs.account, lhs.device) < (rhs.account, rhs.device) }
}
