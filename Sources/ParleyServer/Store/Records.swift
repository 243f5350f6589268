import ParleyWire

/// An account row as the server keeps it: public keys and metadata, never a secret.
public struct AccountRecord: Sendable, Equatable {
    /// The server's numeric id for the account.
    public var id: Int64
    /// The e-mail address the account signs in with (lower-cased).
    public var email: String
    /// The name shown to contacts.
    public var displayName: String
    /// Ed25519 identity public key (32 bytes).
    public var identityKey: [UInt8]
    /// Ed25519 public key that signs login challenges (32 bytes).
    public var authKey: [UInt8]
    /// The client's password-encrypted key envelope (ECP1), if it chose to store one.
    public var keyEnvelope: [UInt8]?
    /// Whether the e-mail address has been confirmed.
    public var isActive: Bool
    /// When an operator disabled the account (its logins are refused), if they did.
    public var disabledAt: Int64? = nil
}

/// A device of an account with the public prekeys it published.
public struct DeviceRecord: Sendable, Equatable {
    /// The account the device belongs to.
    public var accountID: Int64
    /// The device's number within the account (1 is the first device).
    public var deviceID: UInt32
    /// A name the user chose ("laptop").
    public var name: String
    /// Milliseconds since the epoch when the device was added.
    public var createdAt: Int64
    /// Milliseconds since the epoch of its last login or disconnect (its creation until then).
    public var lastSeen: Int64
}

/// The public prekeys a device uploads so others can start sessions with it.
public struct PreKeyUpload: Sendable, Equatable {
    /// A signed prekey (X25519) or post-quantum prekey (ML-KEM-768) with its signature, as the wire carries it.
    public typealias Signed = API.SignedPreKey

    /// The current signed prekey.
    public var signedPreKey: Signed
    /// The post-quantum last-resort prekey.
    public var pqPreKey: Signed
    /// One-time prekeys: id and X25519 public key.
    public var oneTimePreKeys: [(id: UInt32, publicKey: [UInt8])]

    public init(signedPreKey: Signed, pqPreKey: Signed, oneTimePreKeys: [(id: UInt32, publicKey: [UInt8])]) {
        self.signedPreKey = signedPreKey
        self.pqPreKey = pqPreKey
        self.oneTimePreKeys = oneTimePreKeys
    }

    public static func == (lhs: PreKeyUpload, rhs: PreKeyUpload) -> Bool {
        lhs.signedPreKey == rhs.signedPreKey && lhs.pqPreKey == rhs.pqPreKey
            && lhs.oneTimePreKeys.map(\.id) == rhs.oneTimePreKeys.map(\.id)
            && lhs.oneTimePreKeys.map(\.publicKey) == rhs.oneTimePreKeys.map(\.publicKey)
    }
}

/// A new account as `register` submits it.
public struct NewAccount: Sendable, Equatable {
    public var email: String
    public var displayName: String
    public var identityKey: [UInt8]
    public var authKey: [UInt8]
    public var keyEnvelope: [UInt8]?
    public var deviceName: String
    public var preKeys: PreKeyUpload
}

/// The stored form of a pending e-mail verification.
public struct VerificationRecord: Sendable, Equatable {
    /// SHA-256 of the code; the code itself is never stored.
    public var codeHash: [UInt8]
    /// Milliseconds since the epoch after which the code no longer works.
    public var expiresAt: Int64
    /// Wrong codes entered so far.
    public var failedAttempts: Int
}

/// Failed-login bookkeeping for one subject (an account or a source address).
public struct LockoutRecord: Sendable, Equatable {
    /// Consecutive failures since the last success.
    public var failures: Int
    /// Milliseconds since the epoch until which attempts are refused.
    public var lockedUntil: Int64
}
