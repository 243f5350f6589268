/// A remote device: the account it belongs to and its device number.
public struct ProtocolAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The account identifier (1…255 UTF-8 bytes).
    public let accountId: String
    /// The device number within the account.
    public let deviceId: UInt32

    /// Creates an address.
    public init(accountId: String, deviceId: UInt32) {
        self.accountId = accountId
        self.deviceId = deviceId
    }

    public static func < (lhs: ProtocolAddress, rhs: ProtocolAddress) -> Bool {
        let l = Array(lhs.accountId.utf8), r = Array(rhs.accountId.utf8)
        return l == r ? lhs.deviceId < rhs.deviceId : l.lexicographicallyPrecedes(r)
    }

    public var description: String { "\(accountId).\(deviceId)" }
}
