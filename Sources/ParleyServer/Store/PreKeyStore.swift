/// What another device needs to start a session with one device: its public prekeys.
public struct KeyBundle: Sendable, Equatable {
    public var deviceID: UInt32
    public var signedPreKey: PreKeyUpload.Signed
    public var pqPreKey: PreKeyUpload.Signed
    /// A one-time prekey, consumed by this fetch; nil when the device has none left.
    public var oneTimePreKey: (id: UInt32, publicKey: [UInt8])?

    public static func == (lhs: KeyBundle, rhs: KeyBundle) -> Bool {
        lhs.deviceID == rhs.deviceID && lhs.signedPreKey == rhs.signedPreKey && lhs.pqPreKey == rhs.pqPreKey
            && lhs.oneTimePreKey?.id == rhs.oneTimePreKey?.id && lhs.oneTimePreKey?.publicKey == rhs.oneTimePreKey?.publicKey
    }
}

/// Published prekeys per device.
public protocol PreKeyStore: Sendable {
    /// One bundle per device of the account, each taking (and deleting) one one-time prekey if any remain.
    func takeKeyBundles(accountID: Int64) async throws -> [KeyBundle]

    /// Adds one-time prekeys and, if given, replaces the signed and post-quantum prekeys.
    /// Throws `.conflict` when an id is already present.
    func addPreKeys(
        accountID: Int64, deviceID: UInt32, signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?,
        oneTime: [(id: UInt32, publicKey: [UInt8])]) async throws

    /// One-time prekeys the device still has on the server.
    func oneTimePreKeyCount(accountID: Int64, deviceID: UInt32) async throws -> Int
}
