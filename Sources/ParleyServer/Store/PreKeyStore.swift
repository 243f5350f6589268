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
    /// One bundle per device of the account, each taking (and deleting) one one-time prekey if any remain and
    /// `takingOneTime` (otherwise without one: PQXDH needs none).
    func takeKeyBundles(accountID: Int64, takingOneTime: Bool) async throws -> [KeyBundle]

    /// Adds one-time prekeys and, if given, replaces the signed and post-quantum prekeys, unless the device
    /// would then hold more than `maximumOneTime` one-time prekeys: then nothing changes.
    /// Throws `.conflict` when an id is already present.
    func addPreKeys(
        accountID: Int64, deviceID: UInt32, signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?,
        oneTime: [(id: UInt32, publicKey: [UInt8])], maximumOneTime: Int) async throws -> PreKeyAddition

    /// One-time prekeys the device still has on the server.
    func oneTimePreKeyCount(accountID: Int64, deviceID: UInt32) async throws -> Int
}

/// What `addPreKeys` did, with the device's count of one-time prekeys on the server.
public enum PreKeyAddition: Sendable, Equatable {
    /// Stored; the device now has this many.
    case added(count: Int)
    /// Nothing stored: the device has this many, and the upload would take it past the limit.
    case tooMany(stored: Int)
}

extension PreKeyStore {
    /// Adds prekeys whatever the device already has (tests).
    @discardableResult
    public func addPreKeys(
        accountID: Int64, deviceID: UInt32, signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?,
        oneTime: [(id: UInt32, publicKey: [UInt8])]
    ) async throws -> PreKeyAddition {
        try await addPreKeys(accountID: accountID, deviceID: deviceID, signed: signed, pq: pq, oneTime: oneTime, maximumOneTime: .max)
    }
}

extension PreKeyStore {
    /// One bundle per device of the account, each taking (and deleting) one one-time prekey if any remain.
    public func takeKeyBundles(accountID: Int64) async throws -> [KeyBundle] {
        try await takeKeyBundles(accountID: accountID, takingOneTime: true)
    }
}
