import ParleyPGP

/// Where a key that is not one of the person's own came from (docs/MAIL.md §6).
public enum KeyOrigin: String, Sendable, Codable, CaseIterable {
    /// The sender's own `Autocrypt:` header.
    case autocrypt
    /// An `Autocrypt-Gossip:` header in someone else's encrypted message.
    case gossip
    /// The address's Web Key Directory.
    case wkd

    /// How a person is told.
    public var words: String {
        switch self {
        case .autocrypt: "from an Autocrypt header"
        case .gossip: "from Autocrypt gossip"
        case .wkd: "from the Web Key Directory"
        }
    }
}

/// A key Parley learned for an address, checked before it is kept.
public struct LearnedKey: Sendable {
    public let address: String
    public let origin: KeyOrigin
    public let certificate: Certificate
    /// Seconds since 1970 when it was learned (the message's effective date, or the lookup's time).
    public let since: Int64

    /// A key learned for `address` from `origin` at `since`.
    package init(address: String, origin: KeyOrigin, certificate: Certificate, since: Int64) {
        self.address = address
        self.origin = origin
        self.certificate = certificate
        self.since = since
    }

    /// The first certificate in `bytes` that can encrypt at `now` (and, when `mustName` is set, has a user ID
    /// naming `address`); nil when there is none or the bytes are not OpenPGP.
    public static func usable(_ bytes: [UInt8], for address: String, mustName: Bool, now: UInt32) -> Certificate? {
        guard let certificates = try? Certificate.readAll(bytes) else { return nil }
        return certificates.first { certificate in
            !certificate.isSecret && !certificate.encryptionKeys(at: now).isEmpty && (!mustName || certificate.names(address))
        }
    }
}
