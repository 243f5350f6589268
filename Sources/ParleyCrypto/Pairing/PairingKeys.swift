#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the keys box carries: the account's identity and login seeds (FORMATS.md §14).
public struct PairingKeys: Sendable, Equatable {
    /// The account id at the server.
    public var accountID: Int64
    /// The account's e-mail address.
    public var email: String
    /// The display name.
    public var displayName: String
    /// The 32-byte Ed25519 identity seed.
    public var identitySeed: [UInt8]
    /// The 32-byte Ed25519 login (auth) seed.
    public var authSeed: [UInt8]

    /// A payload from its parts.
    public init(accountID: Int64, email: String, displayName: String, identitySeed: [UInt8], authSeed: [UInt8]) {
        self.accountID = accountID
        self.email = email
        self.displayName = displayName
        self.identitySeed = identitySeed
        self.authSeed = authSeed
    }

    private struct Wire: Codable {
        var v: Int
        var account_id: Int64
        var auth_seed: Data
        var display_name: String
        var email: String
        var identity_seed: Data
    }

    /// Compact JSON with sorted keys.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let wire = Wire(v: 1, account_id: accountID, auth_seed: Data(authSeed), display_name: displayName,
                        email: email, identity_seed: Data(identitySeed))
        return Array(try! encoder.encode(wire))
    }

    /// Reads the payload; any other shape, version or seed length → `.notAPairingPayload`.
    public init(decoding bytes: [UInt8]) throws(PairingError) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(bytes)), wire.v == 1,
            wire.auth_seed.count == 32, wire.identity_seed.count == 32, wire.account_id > 0,
            !wire.email.isEmpty
        else { throw .notAPairingPayload }
        self.init(accountID: wire.account_id, email: wire.email, displayName: wire.display_name,
                  identitySeed: Array(wire.identity_seed), authSeed: Array(wire.auth_seed))
    }
}

extension PairingKeys: CustomStringConvertible {
    /// Never prints the seeds.
    public var description: String { "PairingKeys(account: \(accountID), seeds: redacted)" }
}
